#!/usr/bin/env bash
# `pulumi <command>` of one stack with a local file:// backend and passphrase secrets (no Pulumi
# account). Usage: npm run up|preview|refresh|destroy [-- <pulumi flags>]; npm run config -- <args>
# (pulumi config); npm run stack -- <args> (pulumi stack: output, export, history, …).
# The committed stack file is never written: each command gets a working copy of it with the
# stack's local settings (its encryption salt, what `npm run config -- set` set) over it, kept in
# .state/config/Pulumi.<stack>.yaml (scripts/stack-config.ts).
# Before `up`, a kind cluster of the stack deleted outside it is dropped from the state with
# everything that went with it, and `up` recreates them (scripts/lost-clusters.ts).
#   STACK                     stack name (default: dev, i.e. Pulumi.dev.yaml). Pulumi runs in the
#                             project folder that holds Pulumi.<stack>.yaml: the root (dev, and a
#                             new stack), examples/fleet (fleet), examples/dr (dr-*), testbed/stacks
#                             (lab-*, which use the lab); see scripts/stack-files.ts
#   PULUMI_BACKEND_URL        backend (default: file://<project>/.state?metadata=skip)
#   PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE: encrypts the stack's secrets
#   PULUMI_PARALLEL           resource operations at once (default 64; Pulumi's own default is
#                             4 x CPUs, which on small machines makes independent members queue
#                             behind each other although each operation only waits on an API server)
#   PULUMI_CONTINUE_ON_ERROR  destroy: default true (`--continue-on-error`): with one member down,
#                             destroy still removes everything it can reach, and fails at the end
#                             naming that member; set false to stop at the first error
# Without a `pulumi` on PATH, the project's own build is used (npm run lab:build), with the
# settings it needs (its shims on PATH, no plugin downloads); so are lab-* stacks always.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:?usage: scripts/pulumi.sh <up|preview|destroy|refresh|config|stack|cancel|status> [arguments]}; shift
case "$cmd" in
  up | preview | destroy | refresh | config | stack | cancel | status) ;;
  *) echo "error: scripts/pulumi.sh runs up, preview, destroy, refresh, config, stack, cancel or status, not \`$cmd\`" >&2; exit 2 ;;
esac
stack=${STACK:-dev}

fail() { echo "error: $*" >&2; exit 1; }
# The project's own Pulumi CLI and plugins (testbed/lab/build.sh): for lab-* stacks, and whenever
# no other `pulumi` is on PATH. It needs the lab's shims on PATH and must not try to download
# plugins (no GitHub here), so both come with it.
use_project_pulumi() {
  local bin
  bin=$(bash testbed/lab/build.sh --print-bin-dir)
  [ -x "$bin/pulumi" ] || fail "$1; build the project's own with \`npm run lab:build\` (cached), or install one (https://www.pulumi.com/docs/iac/download-install/, 3.248.0 or newer)"
  export PATH="$bin:$PWD/testbed/lab/shims:$PATH" PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
}
case "$stack" in
  lab-*)
    use_project_pulumi "the lab stacks use the lab's pulumi CLI, which is not built"
    [ -f .lab/state.json ] || [ -n "${IKO_LAB_DIR:-}" ] || fail "no lab is running; start it with \`npm run lab:up\`" ;;
  *)
    command -v pulumi >/dev/null 2>&1 || use_project_pulumi "the pulumi CLI is not on PATH" ;;
esac
[ -d node_modules/@pulumi/pulumi ] || fail "node modules are missing; run \`npm ci\` first"
if [ -z "${PULUMI_CONFIG_PASSPHRASE+x}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  fail "set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE): it encrypts this stack's secrets (kubeconfigs, tokens)"
fi
if [ -z "${PULUMI_BACKEND_URL:-}" ]; then
  mkdir -p .state
  # metadata=skip: no `.attrs` sidecar beside each checkpoint (see preview/backend.ts: a kill while
  # the backend rewrote one left it empty, and every later command failed "failed to load
  # checkpoint: EOF"). A sidecar left empty that way by an older run is removed here.
  export PULUMI_BACKEND_URL="file://$PWD/.state?metadata=skip"
  if [ -d .state/.pulumi/stacks ]; then
    find .state/.pulumi/stacks -name '*.attrs' -size 0 -print -delete | sed 's/^/pulumi.sh: removed an empty checkpoint sidecar (left by a killed run): /' >&2
  fi
fi
# The stacks' local settings (scripts/stack-config.ts) go beside a file backend's state, since the
# salt and the encrypted values belong to the stack there; with another backend, to .state/config.
if [ -z "${IKO_STACK_SETTINGS_DIR:-}" ]; then
  case "$PULUMI_BACKEND_URL" in
    file://*) backend_dir=${PULUMI_BACKEND_URL#file://}; export IKO_STACK_SETTINGS_DIR=${backend_dir%%\?*}/config ;;
    *) export IKO_STACK_SETTINGS_DIR=$PWD/.state/config ;;
  esac
fi
export PULUMI_PARALLEL=${PULUMI_PARALLEL:-64}
if [ "$cmd" = destroy ]; then export PULUMI_CONTINUE_ON_ERROR=${PULUMI_CONTINUE_ON_ERROR:-true}; fi
# The Kubernetes provider (v4.25.0) writes its kubeconfig, credentials included, to a new file
# $TMPDIR/kubeconfig<N> each time a provider starts, and never removes it. The run gets a private
# TMPDIR, removed when it ends, so no credentials are left behind.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/iko-plus-pulumi.XXXXXX")
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR=$run_tmp
# The stack's project folder (scripts/stack-files.ts), and a working copy of its stack file with
# its local settings over it (scripts/stack-config.ts); every command below runs in that folder.
root=$PWD
work=$run_tmp/Pulumi.$stack.yaml
stack_config() { node -r ts-node/register/transpile-only "$root/scripts/stack-config.ts" "$@"; }
vars=$(stack_config prepare "$stack" "$work") || exit 1
eval "$vars" # project_dir, local_file
cd "$project_dir"
if ! pulumi stack select "$stack" >/dev/null 2>&1; then
  [ "$cmd" != status ] || fail "there is no stack $stack in $PULUMI_BACKEND_URL yet; run \`STACK=$stack npm run up\` first"
  # A new stack: created beside a copy of the project file, so its salt goes to the local
  # settings and not into the committed stack file.
  mkdir "$run_tmp/init"
  cp Pulumi.yaml "$run_tmp/init/Pulumi.yaml"
  (cd "$run_tmp/init" && pulumi stack init "$stack" --secrets-provider passphrase --non-interactive >/dev/null)
  stack_config adopt-salt "$stack" "$run_tmp/init/Pulumi.$stack.yaml"
  vars=$(stack_config prepare "$stack" "$work") || exit 1
  eval "$vars"
fi
config_file=()
case "$cmd" in up | preview | destroy | refresh | config) config_file=(--config-file "$work") ;; esac
# The status view (scripts/status/cli.ts): the outputs, kubeconfigs included, go to it on a pipe.
if [ "$cmd" = status ]; then
  set +e
  pulumi stack output --json --show-secrets --stack "$stack" |
    node -r ts-node/register/transpile-only "$root/scripts/status/cli.ts" --stack "$stack" "$@"
  rcs=("${PIPESTATUS[@]}")
  [ "${rcs[0]}" -eq 0 ] || fail "pulumi stack output --stack $stack failed (exit ${rcs[0]})"
  exit "${rcs[1]}"
fi
# `pulumi stack rm` deletes the stack's file too: here it keeps the committed one and removes the
# stack's local settings instead.
if [ "$cmd" = stack ] && [ "${1:-}" = rm ]; then
  pulumi stack "$@" --stack "$stack" --preserve-config || exit $?
  rm -f "$local_file"
  exit 0
fi
# A kind cluster deleted outside the stack: `up` first drops it and what went with it from the
# state (then recreates them); `preview` says so. A paused or stopped one is named, with the
# command that brings it back, before up, preview and destroy (scripts/lost-clusters.ts).
case "$cmd" in
  up) node -r ts-node/register/transpile-only "$root/scripts/lost-clusters.ts" recover "$stack" "$work" ;;
  preview) node -r ts-node/register/transpile-only "$root/scripts/lost-clusters.ts" report "$stack" "$work" ;;
  destroy) node -r ts-node/register/transpile-only "$root/scripts/lost-clusters.ts" check "$stack" "$work" ;;
esac
rc=0
pulumi "$cmd" "$@" --stack "$stack" "${config_file[@]}" || rc=$?
# What the command set (config set, a salt Pulumi added) goes to the local settings.
stack_config keep "$stack" "$work" || rc=1
exit "$rc"
