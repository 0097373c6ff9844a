#!/usr/bin/env bash
# A Docker engine for the kind tier's tests.
#
# Usage: bash testbed/kind-tier/engine.sh up       use the engine `docker info` reaches, or start one
#                                          (exit 3: no engine can be had here, and why;
#                                          our own dockerd, installed from Debian where
#                                          missing, only with IKO_KIND_INSTALL_ENGINE=1,
#                                          which .ci/run sets)
#        bash testbed/kind-tier/engine.sh down     stop the engine, only if `up` started it
#        bash testbed/kind-tier/engine.sh status   print which engine is in use
#
# State (daemon config, runc wrapper, pidfile, log) lives in
#   ${IKO_KIND_STATE:-$HOME/.cache/iko-plus-kind/state}
# never in /etc. The engine's data root is ${IKO_DOCKER_DATA_ROOT:-/var/lib/docker}.
# An engine that was already answering is recorded as external and never stopped.
set -euo pipefail

STATE=${IKO_KIND_STATE:-$HOME/.cache/iko-plus-kind/state}
DATA_ROOT=${IKO_DOCKER_DATA_ROOT:-/var/lib/docker}
DOCKERD=/usr/sbin/dockerd
PIDFILE=$STATE/dockerd.pid
MODE_FILE=$STATE/engine-mode # "external" or "started <pid>"
LOG=$STATE/dockerd.log
CONFIG=$STATE/daemon.json
WRAPPER=$STATE/runc-wrapper

say() { echo "engine.sh: $*"; }
die() { echo "engine.sh: $*" >&2; exit 1; }
# unavailable REASON: no engine can be had on this machine; exit 3 so callers can leave the tier out.
unavailable() { echo "engine.sh: $*" >&2; exit 3; }

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

docker_answers() { docker info >/dev/null 2>&1; }

# lacks_cap_sys_resource: true when bit 24 (CAP_SYS_RESOURCE) of the bounding set is clear.
lacks_cap_sys_resource() {
  local bnd
  bnd=$(awk '/^CapBnd:/ { print $2 }' /proc/self/status)
  (((0x$bnd >> 24 & 1) == 0))
}

# raise_sysctl KEY MIN: raise KEY to MIN if it is lower; never lower it.
raise_sysctl() {
  local cur
  cur=$(sysctl -n "$1" 2>/dev/null || echo 0)
  if ((cur < $2)); then
    if sysctl -q -w "$1=$2" >/dev/null 2>&1; then
      say "raised $1 from $cur to $2"
    else
      say "warning: could not raise $1 (is $cur, kind wants >= $2)"
    fi
  fi
}

write_runc_wrapper() {
  local real_runc
  real_runc=$(command -v runc || true)
  [[ -n $real_runc ]] || die "runc not found (it comes with docker.io / containerd)"
  cat >"$WRAPPER" <<EOF
#!/usr/bin/env bash
# runc wrapper written by testbed/kind-tier/engine.sh.
# Why: this machine's capability bounding set lacks CAP_SYS_RESOURCE, so runc cannot grant it
# and every privileged container (all kind nodes) fails with "unable to apply caps: operation
# not permitted". This wrapper removes CAP_SYS_RESOURCE from the OCI bundle's config.json
# (create/run) and from the --process file (exec), then execs the real runc unchanged.
set -euo pipefail
REAL_RUNC=$real_runc
EOF
  cat >>"$WRAPPER" <<'EOF'
strip() { # strip FILE: drop CAP_SYS_RESOURCE from every capability list in FILE
  local f=$1 tmp
  [[ -f $f ]] || return 0
  grep -q CAP_SYS_RESOURCE "$f" || return 0
  tmp=$(mktemp "$f.XXXXXX")
  jq -c 'def drop: map_values(if type == "array" then map(select(. != "CAP_SYS_RESOURCE")) else . end);
    (if (.process.capabilities? // null) != null then .process.capabilities |= drop else . end)
    | (if (.capabilities? // null) != null then .capabilities |= drop else . end)' "$f" >"$tmp"
  mv -f "$tmp" "$f"
}
cmd= bundle=. process= prev=
for a in "$@"; do
  case $prev in
    --bundle | -b) bundle=$a ;;
    --process | -p) process=$a ;;
  esac
  case $a in
    --bundle=*) bundle=${a#--bundle=} ;;
    --process=*) process=${a#--process=} ;;
    create | run | exec) [[ -z $cmd ]] && cmd=$a ;;
  esac
  prev=$a
done
case $cmd in
  create | run) strip "$bundle/config.json" ;;
  exec) [[ -n $process ]] && strip "$process" ;;
esac
exec "$REAL_RUNC" "$@"
EOF
  chmod 0755 "$WRAPPER"
}

write_config() {
  local wrap=$1
  if [[ $wrap == 1 ]]; then
    jq -n --arg root "$DATA_ROOT" --arg pid "$PIDFILE" --arg w "$WRAPPER" \
      '{"data-root": $root, pidfile: $pid, runtimes: {"iko-runc": {path: $w}}, "default-runtime": "iko-runc"}'
  else
    jq -n --arg root "$DATA_ROOT" --arg pid "$PIDFILE" '{"data-root": $root, pidfile: $pid}'
  fi >"$CONFIG"
}

cmd_up() {
  mkdir -p "$STATE"
  # kind's known issue: many nodes exhaust the default inotify limits (kubelet dies with
  # "inotify_init: too many open files" and the worker never joins). Raise, never lower.
  raise_sysctl fs.inotify.max_user_instances 8192
  raise_sysctl fs.inotify.max_user_watches 1048576

  if docker_answers; then
    if [[ -f $MODE_FILE && $(cat "$MODE_FILE") == started* ]] && kill -0 "$(cat "$PIDFILE" 2>/dev/null)" 2>/dev/null; then
      say "engine already up (started by engine.sh, pid $(cat "$PIDFILE"))"
    else
      echo external >"$MODE_FILE"
      say "using the external engine that answers 'docker info' (it will never be stopped)"
    fi
    return 0
  fi

  # No engine answers. Starting (and, where missing, installing) our own is opt-in: .ci/run opts
  # in; a developer's `npm test` leaves the tier out instead (exit 3, with the reason).
  [[ ${IKO_KIND_INSTALL_ENGINE:-0} == 1 ]] ||
    unavailable "no Docker engine answers; start one, or set IKO_KIND_INSTALL_ENGINE=1 to have the tier install and start Debian's docker.io for the run"
  if [[ ! -x $DOCKERD ]]; then
    if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
      unavailable "no Docker engine answers and none can be installed here (needs root and apt-get for Debian's docker.io)"
    fi
    say "$DOCKERD missing: installing Debian's docker.io"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
      unavailable "no Docker engine answers and apt-get update failed (Debian's package mirror unreachable?)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io jq >/dev/null ||
      unavailable "no Docker engine answers and apt-get install docker.io failed"
  fi
  command -v jq >/dev/null || die "jq is needed (apt-get install jq)"

  local wrap=0
  if lacks_cap_sys_resource; then
    wrap=1
    write_runc_wrapper
    say "capability bounding set lacks CAP_SYS_RESOURCE: default runtime is the runc wrapper $WRAPPER"
  fi
  write_config "$wrap"
  rm -f "$PIDFILE"
  say "starting $DOCKERD (config $CONFIG, data-root $DATA_ROOT, log $LOG)"
  nohup "$DOCKERD" --config-file "$CONFIG" >>"$LOG" 2>&1 </dev/null &
  local pid=$! i
  for ((i = 0; i < 60; i++)); do
    docker_answers && break
    kill -0 "$pid" 2>/dev/null || { tail -n 20 "$LOG" >&2; die "dockerd exited during start (log: $LOG)"; }
    sleep 1
  done
  docker_answers || { tail -n 20 "$LOG" >&2; die "dockerd did not answer within 60 s (log: $LOG)"; }
  echo "$pid" >"$PIDFILE"
  echo "started $pid" >"$MODE_FILE"
  say "dockerd up (pid $pid, $(docker version -f '{{.Server.Version}}' 2>/dev/null))"
}

cmd_down() {
  local mode pid i
  mode=$(cat "$MODE_FILE" 2>/dev/null || echo none)
  case $mode in
    started*)
      pid=${mode#started }
      if kill -0 "$pid" 2>/dev/null; then
        say "stopping dockerd (pid $pid)"
        kill -TERM "$pid"
        for ((i = 0; i < 60; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
        kill -0 "$pid" 2>/dev/null && die "dockerd (pid $pid) still running after 60 s"
      else
        say "dockerd (pid $pid) is not running"
      fi
      rm -f "$MODE_FILE" "$PIDFILE"
      ;;
    external) say "engine is external: not stopping it"; rm -f "$MODE_FILE" ;;
    *) say "no engine was started by engine.sh" ;;
  esac
}

cmd_status() {
  local mode
  mode=$(cat "$MODE_FILE" 2>/dev/null || echo none)
  if docker_answers; then
    case $mode in
      started*) echo "engine: started by engine.sh (pid ${mode#started }, data-root $DATA_ROOT)" ;;
      *) echo "engine: external (answers docker info; not managed by engine.sh)" ;;
    esac
    docker version -f 'server {{.Server.Version}}, client {{.Client.Version}}' 2>/dev/null || true
  else
    echo "engine: none answering (run: bash testbed/kind-tier/engine.sh up)"
    return 1
  fi
}

case ${1:-} in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  -h | --help) usage ;;
  *) usage >&2; exit 2 ;;
esac
