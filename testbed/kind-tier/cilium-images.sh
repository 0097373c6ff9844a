#!/usr/bin/env bash
# Cilium's images for the kind tier, built here from the Go module github.com/cilium/cilium at each
# version the tier runs (CILIUM_VERSIONS: the default, then the upgrade sources; no registry is
# reachable, so no `FROM quay.io/...`): Go binaries built from the module, and Debian trees made by
# the node image's debootstrap mechanism (lib/images.sh rootfs_tar). Per version <v>:
#   quay.io/cilium/cilium:<v>                 the agent (images/cilium + images/runtime, no Envoy)
#   quay.io/cilium/operator-generic:<v>       images/operator, variant generic
#   quay.io/cilium/clustermesh-apiserver:<v>  images/clustermesh-apiserver (etcd v3.6.5 of build.sh,
#                                             behind images/etcd-args, see its main.go)
# Envoy (C++, github.com/cilium/proxy) and Hubble relay/UI are not built: the chart values turn
# what needs them off (components/cilium/values.ts, kindTierCiliumValues).
#
# Usage: bash testbed/kind-tier/cilium-images.sh build [v...]  build what is missing (needs a Docker engine)
#        bash testbed/kind-tier/cilium-images.sh images [v...] print the image names, one per line
#        bash testbed/kind-tier/cilium-images.sh chart [v]     print the chart folder (install/kubernetes/cilium)
#        bash testbed/kind-tier/cilium-images.sh versions      print CILIUM_VERSIONS, the default first
#        bash testbed/kind-tier/cilium-images.sh rootfs        only the agent's Debian tree (cached)
# Without versions: every one of CILIUM_VERSIONS (chart: the default).
#
# Cache: $CACHE/bin/cilium-<v>/<name> (binaries), $CACHE/rootfs/ (the agent's Debian tree);
# each image carries a label with a hash of its inputs and is rebuilt only when they change.
set -euo pipefail
TIER_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=testbed/lib/go-build.sh
. "$TIER_DIR/../lib/go-build.sh"
CACHE=${IKO_KIND_CACHE:-$HOME/.cache/iko-plus-kind}
LOG_DIR=$CACHE/logs
WORK_DIR=$CACHE/work
TIMES_LOG=$CACHE/build-times.tsv
FORCE=${IKO_KIND_FORCE:-0}
export DOCKER_BUILDKIT=0

CILIUM_MODULE=github.com/cilium/cilium
# The default (components/cilium/values.ts CILIUM_VERSION) first, then the versions the kind tier
# upgrades from (test/kind/cilium-mesh.test.ts). A version dropped here leaves its binaries in
# $CACHE/bin/cilium-<v>: `build` removes those of versions no longer listed.
CILIUM_VERSIONS=(v1.18.6 v1.18.0)
LABEL=io.iko-plus.source-hash
# Binaries of testbed/kind-tier/build.sh the images reuse (its pins).
LOOPBACK_BIN=$CACHE/bin/cni-plugins-v1.7.1/loopback
ETCD_BIN=$CACHE/bin/etcd-v3.6.5/etcd
ETCD_ARGS_DIR=$TIER_DIR/images/etcd-args
# use_version V: the version the functions below build (its binaries folder and image names).
use_version() {
  CILIUM_VERSION=$1
  BIN_DIR=$CACHE/bin/cilium-$CILIUM_VERSION
  AGENT_IMAGE=quay.io/cilium/cilium:$CILIUM_VERSION
  OPERATOR_IMAGE=quay.io/cilium/operator-generic:$CILIUM_VERSION
  CLUSTERMESH_IMAGE=quay.io/cilium/clustermesh-apiserver:$CILIUM_VERSION
}
use_version "${CILIUM_VERSIONS[0]}"
# images/runtime/install-runtime-deps.sh's packages (minus bash-completion; libatomic1, which
# 1.18.6 adds there, comes with clang-19) plus what the runtime image copies from Cilium's own
# llvm/bpftool/iptables images, as Debian packages. One list for every version: one Debian tree.
AGENT_PACKAGES=(bash iproute2 iptables ipset kmod ca-certificates util-linux procps clang-19 llvm-19 bpftool)
# Fields: binary | package | build tags. What the agent image's containers and init containers
# run (chart templates/cilium-agent/daemonset.yaml), the operator and the clustermesh-apiserver.
BINARIES=(
  "cilium-agent|./daemon|"
  "cilium-dbg|./cilium-dbg|"
  "cilium-health|./cilium-health|"
  "cilium-health-responder|./cilium-health/responder|"
  "cilium-mount|./tools/mount|"
  "cilium-sysctlfix|./tools/sysctlfix|"
  "cilium-cni|./plugins/cilium-cni|"
  "cilium-operator-generic|./operator|ipam_provider_operator"
  "clustermesh-apiserver|./clustermesh-apiserver|"
)

die() { echo "cilium-images.sh: $*" >&2; exit 1; }
record_time() { printf '%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" "$3" >>"$TIMES_LOG"; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }
module_dir() { go mod download -json "$CILIUM_MODULE@$CILIUM_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p'; }

# The node image's Debian mechanism: rootfs_tar (cached debootstrap trees keyed by package list),
# small_tree and import_tree. lib/images.sh reads K8S_VERSION when sourced (its preload list).
K8S_VERSION=${K8S_VERSION:-unused-here}
# shellcheck source-path=SCRIPTDIR source=lib/images.sh
. "$TIER_DIR/lib/images.sh"

build_binaries() { # SRC: the module folder
  local src=$1 spec name pkg tags tmp start ld
  local -a missing=()
  for spec in "${BINARIES[@]}"; do
    name=$(target_field "$spec" 0)
    [[ -x $BIN_DIR/$name && $FORCE != 1 ]] || missing+=("$spec")
  done
  ((${#missing[@]})) || { echo "cached: cilium binaries $CILIUM_VERSION"; return 0; }
  # The module cache is read-only and -mod=mod may write go.mod/go.sum: build from a copy.
  tmp=$WORK_DIR/cilium-src; rm -rf "$tmp"; mkdir -p "$WORK_DIR" "$BIN_DIR" "$LOG_DIR"
  cp -r "$src" "$tmp" && chmod -R u+w "$tmp"
  drop_unserved_replaces "$tmp"
  # pkg/version.FromString wants 7 fields: "<version> <revision> <date> go version <go> <arch>".
  ld="-s -w -X '$CILIUM_MODULE/pkg/version.ciliumVersion=${CILIUM_VERSION#v} iko-plus 2025-07-29T00:00:00Z'"
  for spec in "${missing[@]}"; do
    name=$(target_field "$spec" 0); pkg=$(target_field "$spec" 1); tags=$(target_field "$spec" 2)
    printf 'building %s %s ... ' "$name" "$CILIUM_VERSION"; start=$SECONDS
    if ! (cd "$tmp" && nice -n 10 go build -trimpath ${tags:+-tags "$tags"} -ldflags "$ld" -o "$BIN_DIR/$name.tmp" "$pkg") \
      >"$LOG_DIR/$name.log" 2>&1; then
      echo "FAILED (log: $LOG_DIR/$name.log)"; tail -n 20 "$LOG_DIR/$name.log" | sed 's/^/    /'; rm -rf "$tmp"; return 1
    fi
    mv -f "$BIN_DIR/$name.tmp" "$BIN_DIR/$name"
    echo "done in $((SECONDS - start))s"; record_time "$name" "$CILIUM_VERSION" "$((SECONDS - start))"
  done
  rm -rf "$tmp"
}

# Cilium 1.18.4 to 1.18.6 replace k8s.io/apimachinery with github.com/cilium/apimachinery
# v0.33.3-1 (upstream's v0.33.3 plus `omitzero` support in its converters, used by the
# CiliumNetworkPolicy types in pkg/policy/api), which the module proxy does not serve (403 "This
# module version is not available"). The binaries are built against upstream v0.33.3, the
# version go.mod requires: a CiliumNetworkPolicy converted to unstructured keeps its zero-valued
# `omitzero` fields. Nothing the tier runs uses CiliumNetworkPolicy; testbed/kind-tier/README.md says so.
UNSERVED_REPLACES=("k8s.io/apimachinery|github.com/cilium/apimachinery")
drop_unserved_replaces() { # SRC-COPY
  local spec
  for spec in "${UNSERVED_REPLACES[@]}"; do
    if grep -q "^replace ${spec%%|*} => ${spec##*|} " "$1/go.mod"; then
      echo "cilium-images.sh: $CILIUM_VERSION: building without the replace ${spec%%|*} => ${spec##*|} (not served by the module proxy)"
      (cd "$1" && go mod edit -dropreplace "${spec%%|*}")
    fi
  done
}

# etcd-args (our own shim): built into a temporary folder, keyed by its sources.
build_etcd_args() { # OUT
  (cd "$ETCD_ARGS_DIR" && go build -trimpath -ldflags "-s -w" -o "$1" .)
}

inputs_hash() { # WHAT: a hash of this script, the binaries and the package list
  { echo "$1"; cat "${BASH_SOURCE[0]}" "$ETCD_ARGS_DIR"/*.go "$ETCD_ARGS_DIR"/go.mod; sha256sum "$BIN_DIR"/* "$LOOPBACK_BIN" "$ETCD_BIN"; echo "${AGENT_PACKAGES[*]}"; } | sha256sum | cut -c1-16
}
cached() { # IMAGE HASH
  [[ $FORCE != 1 && $(docker image inspect --format "{{ index .Config.Labels \"$LABEL\" }}" "$1" 2>/dev/null || true) == "$2" ]]
}
# finish IMAGE HASH TAG DOCKERFILE-LINES...: label the imported TAG as IMAGE (a Dockerfile
# FROM the import: `docker import --change` refuses LABEL on this engine), drop the import tag.
finish() {
  local image=$1 hash=$2 tag=$3 ctx out; shift 3
  ctx=$(mktemp -d)
  printf '%s\n' "FROM $tag" "LABEL $LABEL=$hash" "$@" >"$ctx/Dockerfile"
  # (the legacy builder's deprecation notice is noise here; a failure prints everything)
  out=$(docker build -q -t "$image" "$ctx" 2>&1) || { rm -rf "$ctx"; echo "failed:"; echo "$out"; return 1; }
  rm -rf "$ctx"; docker rmi "$tag" >/dev/null
}

build_agent() { # SRC
  local src=$1 hash tar dir start f
  hash=$(inputs_hash agent)
  cached "$AGENT_IMAGE" "$hash" && { echo "cached: $AGENT_IMAGE ($hash)"; return 0; }
  tar=$(rootfs_tar "${AGENT_PACKAGES[@]}")
  printf 'building %s ... ' "$AGENT_IMAGE"; start=$SECONDS
  dir=$WORK_DIR/cilium-agent-root; rm -rf "$dir"; mkdir -p "$dir"
  tar -C "$dir" -xf "$tar"
  rm -rf "$dir"/usr/share/{doc,man,info,locale}/* "$dir"/var/cache/debconf/*-old
  for f in cilium-agent cilium-dbg cilium-health cilium-health-responder cilium-mount cilium-sysctlfix; do
    install -m 0755 "$BIN_DIR/$f" "$dir/usr/bin/$f"
  done
  install -D -m 0755 "$BIN_DIR/cilium-cni" "$dir/opt/cni/bin/cilium-cni"
  # install-plugin.sh copies /cni/loopback when the node has none (the runtime image's CNI loopback).
  install -D -m 0755 "$LOOPBACK_BIN" "$dir/cni/loopback"
  install -m 0755 "$src/images/cilium/init-container.sh" "$src/plugins/cilium-cni/install-plugin.sh" \
    "$src/plugins/cilium-cni/cni-uninstall.sh" "$dir/"
  # Makefile install-bpf: the datapath sources the agent compiles at run time.
  mkdir -p "$dir/var/lib/cilium" && cp -r "$src/bpf" "$dir/var/lib/cilium/bpf" && chmod -R u+w,go-w "$dir/var/lib/cilium/bpf"
  rm -f "$dir/var/lib/cilium/bpf/.gitignore"
  # The agent runs `clang` and `llc` by name (Cilium's runtime image puts them in /usr/local/bin).
  ln -sf /usr/bin/clang-19 "$dir/usr/local/bin/clang"; ln -sf /usr/bin/llc-19 "$dir/usr/local/bin/llc"
  # images/runtime: iptables-wrapper picks nft or legacy by the host's kube-proxy rules.
  cp "$src/images/runtime/iptables-wrapper-installer.sh" "$dir/tmp/"
  chroot "$dir" /bin/sh /tmp/iptables-wrapper-installer.sh --no-sanity-check >/dev/null
  rm -f "$dir/tmp/iptables-wrapper-installer.sh"
  mkdir -p "$dir/home/cilium"
  import_tree "$dir" iko-plus/cilium-agent-import:tmp
  rm -rf "$dir"
  finish "$AGENT_IMAGE" "$hash" iko-plus/cilium-agent-import:tmp \
    'ENV INITSYSTEM=SYSTEMD' 'ENV HUBBLE_SERVER=unix:///var/run/cilium/hubble.sock' \
    'WORKDIR /home/cilium' 'CMD ["/usr/bin/cilium-dbg"]'
  echo "done in $((SECONDS - start))s ($(image_size "$AGENT_IMAGE"))"; record_time cilium-agent-image "$CILIUM_VERSION" "$((SECONDS - start))"
}

# A small image (images/operator, images/clustermesh-apiserver are distroless static images).
build_small() { # IMAGE WHAT SRC
  local image=$1 what=$2 src=$3 hash dir start
  hash=$(inputs_hash "$what")
  cached "$image" "$hash" && { echo "cached: $image ($hash)"; return 0; }
  printf 'building %s ... ' "$image"; start=$SECONDS
  dir=$WORK_DIR/cilium-$what-root; small_tree "$dir"
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$dir/etc/ssl/certs/ca-certificates.crt"
  mkdir -p "$dir/usr/bin"
  case $what in
    operator)
      install -m 0755 "$BIN_DIR/cilium-operator-generic" "$dir/usr/bin/"
      mkdir -p "$dir/home/gops" && chmod 0777 "$dir/home/gops"
      import_tree "$dir" "iko-plus/cilium-$what-import:tmp"
      finish "$image" "$hash" "iko-plus/cilium-$what-import:tmp" 'ENV GOPS_CONFIG_DIR=/home/gops' 'CMD ["/usr/bin/cilium-operator-generic"]' ;;
    clustermesh)
      install -m 0755 "$BIN_DIR/clustermesh-apiserver" "$dir/usr/bin/"
      install -m 0755 "$ETCD_BIN" "$dir/usr/bin/etcd-server"
      build_etcd_args "$dir/usr/bin/etcd"
      install -D -m 0644 "$src/clustermesh-apiserver/etcd-config.yaml" "$dir/var/lib/cilium/etcd-config.yaml"
      mkdir -p "$dir/var/run/cilium" && chmod 0777 "$dir/var/run/cilium"
      printf 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >>"$dir/etc/passwd"
      import_tree "$dir" "iko-plus/cilium-$what-import:tmp"
      finish "$image" "$hash" "iko-plus/cilium-$what-import:tmp" 'ENV GOPS_CONFIG_DIR=/tmp/gops' 'ENTRYPOINT ["/usr/bin/clustermesh-apiserver"]' ;;
  esac
  rm -rf "$dir"
  echo "done in $((SECONDS - start))s ($(image_size "$image"))"; record_time "cilium-$what-image" "$CILIUM_VERSION" "$((SECONDS - start))"
}

build() { # the version use_version chose
  local src start=$SECONDS
  need_docker
  src=$(module_dir); [[ -d $src ]] || die "go mod download $CILIUM_MODULE@$CILIUM_VERSION gave no folder"
  [[ -x $ETCD_BIN ]] || die "no $ETCD_BIN: run bash testbed/kind-tier/build.sh etcd"
  [[ -x $LOOPBACK_BIN ]] || die "no $LOOPBACK_BIN: run bash testbed/kind-tier/build.sh loopback"
  build_binaries "$src"
  build_agent "$src"
  build_small "$OPERATOR_IMAGE" operator "$src"
  build_small "$CLUSTERMESH_IMAGE" clustermesh "$src"
  # Older builds of these images (now untagged) go, so Docker's store holds one of each.
  docker image prune -f --filter "label=$LABEL" >/dev/null
  echo "cilium images $CILIUM_VERSION built in $((SECONDS - start))s"
}

# versions_or_all ARGS...: the versions named (each must be one of CILIUM_VERSIONS), or all.
versions_or_all() {
  local v known
  (($#)) || { printf '%s\n' "${CILIUM_VERSIONS[@]}"; return; }
  for v in "$@"; do
    known=0; for k in "${CILIUM_VERSIONS[@]}"; do [[ $k == "$v" ]] && known=1; done
    ((known)) || die "version $v is not one of CILIUM_VERSIONS (${CILIUM_VERSIONS[*]}): add it there first"
    echo "$v"
  done
}

# Binaries of versions no longer in CILIUM_VERSIONS (their images go with `docker image prune`
# once untagged: `docker rmi` them by name, the mirror keeps what was pushed until its volume goes).
prune_old_versions() {
  local d v keep
  for d in "$CACHE"/bin/cilium-v*; do
    [[ -d $d ]] || continue
    v=${d##*/cilium-}; keep=0
    for k in "${CILIUM_VERSIONS[@]}"; do [[ $k == "$v" ]] && keep=1; done
    ((keep)) && continue
    echo "cilium-images.sh: removing binaries of $v (no longer in CILIUM_VERSIONS)"; rm -rf "$d"
    docker rmi "quay.io/cilium/cilium:$v" "quay.io/cilium/operator-generic:$v" "quay.io/cilium/clustermesh-apiserver:$v" >/dev/null 2>&1 || true
  done
}

case "${1:-}" in
  build)
    shift; vs=$(versions_or_all "$@")
    for v in $vs; do use_version "$v"; build; done
    (($#)) || prune_old_versions ;;
  images)
    shift; vs=$(versions_or_all "$@")
    for v in $vs; do use_version "$v"; printf '%s\n' "$AGENT_IMAGE" "$OPERATOR_IMAGE" "$CLUSTERMESH_IMAGE"; done ;;
  versions) printf '%s\n' "${CILIUM_VERSIONS[@]}" ;;
  rootfs) rootfs_tar "${AGENT_PACKAGES[@]}" ;;
  chart) if [[ -n ${2:-} ]]; then v=$(versions_or_all "$2"); use_version "$v"; fi; echo "$(module_dir)/install/kubernetes/cilium" ;;
  *) usage; exit 2 ;;
esac
