#!/usr/bin/env bash
# The kind tier's air-gapped image mirror: a registry container on Docker's `kind` network.
#
# Usage: bash testbed/kind-tier/registry.sh up                   create network `kind` and the registry
#        bash testbed/kind-tier/registry.sh down                 remove the registry container and volume
#        bash testbed/kind-tier/registry.sh push IMAGE [...]     copy local Docker images into the mirror
#        bash testbed/kind-tier/registry.sh list                 print the mirror's repositories and tags
#        bash testbed/kind-tier/registry.sh hosts-toml [HOST]    print containerd's hosts.toml for HOST
#                                                        (default docker.io)
#
# Layout (a public contract, see testbed/kind-tier/README.md): image <host>/<repo>:<tag> is stored as
# repository <host>/<repo>, i.e. pushed as 127.0.0.1:$PORT/<host>/<repo>:<tag>. Kind nodes reach
# the mirror as http://$NAME:5000; containerd maps <host> to http://$NAME:5000/v2/<host> with
# override_path = true. A name without a host means docker.io (library/ for one component).
#
# Environment: IKO_REGISTRY_NAME (iko-plus-registry), IKO_REGISTRY_PORT (5001, on 127.0.0.1),
# REGISTRY_IMAGE (else read from $IKO_KIND_CACHE/kind-tier.env, else iko-plus/registry:2.8.2).
set -euo pipefail

NAME=${IKO_REGISTRY_NAME:-iko-plus-registry}
PORT=${IKO_REGISTRY_PORT:-5001}
VOLUME=$NAME-data
NETWORK=kind
CACHE=${IKO_KIND_CACHE:-$HOME/.cache/iko-plus-kind}
if [[ -z ${REGISTRY_IMAGE:-} && -f $CACHE/kind-tier.env ]]; then
  REGISTRY_IMAGE=$(sed -n 's/^REGISTRY_IMAGE=//p' "$CACHE/kind-tier.env")
fi
REGISTRY_IMAGE=${REGISTRY_IMAGE:-iko-plus/registry:2.8.2}
ENDPOINT=127.0.0.1:$PORT

say() { echo "registry.sh: $*"; }
die() { echo "registry.sh: $*" >&2; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

ensure_network() {
  docker network inspect "$NETWORK" >/dev/null 2>&1 && return 0
  # kind's own options (pkg/cluster/internal/providers/docker/network.go): a bridge with IP
  # masquerading, the host's MTU and an IPv6 ULA subnet. Without IPv6 if the engine refuses it.
  local mtu opts=(-d=bridge -o com.docker.network.bridge.enable_ip_masquerade=true)
  mtu=$(docker network inspect bridge -f '{{index .Options "com.docker.network.driver.mtu"}}' 2>/dev/null || true)
  [[ -n $mtu && $mtu != 1500 ]] && opts+=(-o "com.docker.network.driver.mtu=$mtu")
  if docker network create "${opts[@]}" --ipv6 --subnet fc00:f853:ccd:e793::/64 "$NETWORK" >/dev/null 2>&1; then
    say "created Docker network $NETWORK (IPv4 + IPv6)"
  else
    docker network create "${opts[@]}" "$NETWORK" >/dev/null
    say "created Docker network $NETWORK (IPv4 only: the engine refused IPv6)"
  fi
}

wait_ready() {
  local i
  for ((i = 0; i < 30; i++)); do
    curl -fsS "http://$ENDPOINT/v2/" >/dev/null 2>&1 && return 0
    sleep 1
  done
  die "registry $NAME does not answer on http://$ENDPOINT/v2/"
}

cmd_up() {
  docker info >/dev/null 2>&1 || die "no Docker engine answers (bash testbed/kind-tier/engine.sh up)"
  ensure_network
  local state
  state=$(docker inspect -f '{{.State.Running}}' "$NAME" 2>/dev/null || echo missing)
  case $state in
    true) say "registry $NAME already running" ;;
    false) docker start "$NAME" >/dev/null; say "started existing registry container $NAME" ;;
    *)
      docker image inspect "$REGISTRY_IMAGE" >/dev/null 2>&1 ||
        die "image $REGISTRY_IMAGE is missing (bash testbed/kind-tier/build.sh registry-image)"
      docker volume create "$VOLUME" >/dev/null
      docker run -d --restart=always --name "$NAME" --network "$NETWORK" \
        -p "$ENDPOINT:5000" -v "$VOLUME:/var/lib/registry" "$REGISTRY_IMAGE" >/dev/null
      say "registry $NAME ($REGISTRY_IMAGE) on network $NETWORK, http://$ENDPOINT, volume $VOLUME"
      ;;
  esac
  docker network inspect "$NETWORK" -f '{{range .Containers}}{{.Name}} {{end}}' | grep -qw "$NAME" ||
    docker network connect "$NETWORK" "$NAME"
  wait_ready
  say "nodes reach it as http://$NAME:5000"
}

cmd_down() {
  if docker inspect "$NAME" >/dev/null 2>&1; then docker rm -f "$NAME" >/dev/null; say "removed container $NAME"; fi
  if docker volume inspect "$VOLUME" >/dev/null 2>&1; then docker volume rm "$VOLUME" >/dev/null; say "removed volume $VOLUME"; fi
}

# mirror_path IMAGE: <host>/<repo>:<tag> of a Docker image name (docker.io and library/ added).
mirror_path() {
  local ref=$1 first rest host repo tag
  [[ $ref == *@* ]] && die "digest references are not supported: $ref"
  first=${ref%%/*}
  if [[ $ref == */* && ($first == *.* || $first == *:* || $first == localhost) ]]; then
    host=$first; rest=${ref#*/}
  else
    host=docker.io; rest=$ref
  fi
  repo=${rest%:*}; tag=${rest##*:}
  [[ $rest == *:* ]] || { repo=$rest; tag=latest; }
  [[ $host == docker.io && $repo != */* ]] && repo=library/$repo
  echo "$host/$repo:$tag"
}

cmd_push() {
  (($#)) || die "push needs at least one local image"
  wait_ready
  local img dst
  for img in "$@"; do
    docker image inspect "$img" >/dev/null 2>&1 || die "no local image $img"
    dst=$ENDPOINT/$(mirror_path "$img")
    docker tag "$img" "$dst"
    if ! docker push -q "$dst" >/dev/null; then docker rmi "$dst" >/dev/null; die "push of $img failed"; fi
    docker rmi "$dst" >/dev/null # only the extra tag; keeps Docker's store as it was
    say "pushed $img as $dst"
  done
}

cmd_list() {
  wait_ready
  local repo
  for repo in $(curl -fsS "http://$ENDPOINT/v2/_catalog?n=1000" | jq -r '.repositories[]'); do
    curl -fsS "http://$ENDPOINT/v2/$repo/tags/list" | jq -r '.name as $n | (.tags // [])[] | "\($n):\(.)"'
  done
}

cmd_hosts_toml() {
  local host=${1:-docker.io} server
  server=https://$host
  [[ $host == docker.io ]] && server=https://registry-1.docker.io
  cat <<EOF
# /etc/containerd/certs.d/$host/hosts.toml: pull $host images from the kind tier's mirror
server = "$server"

[host."http://$NAME:5000/v2/$host"]
  capabilities = ["pull", "resolve"]
  override_path = true
EOF
}

case ${1:-} in
  up) cmd_up ;;
  down) cmd_down ;;
  push) shift; cmd_push "$@" ;;
  list) cmd_list ;;
  hosts-toml) shift; cmd_hosts_toml "$@" ;;
  -h | --help) usage ;;
  *) usage >&2; exit 2 ;;
esac
