#!/usr/bin/env bash
# Build the kind tier: the kind and helm CLIs, a kind node image for Kubernetes v1.34.12 with
# every image a cluster needs preloaded (no registry is reachable here), and the registry image
# of the air-gapped mirror. Only Go modules (module proxy) and Debian packages are downloaded.
#
# Usage: bash testbed/kind-tier/build.sh [--force] [names...]   build all (default) or the named targets
#        bash testbed/kind-tier/build.sh --list                 targets, versions, cached or not
#
# Targets: the Go binaries (kind, helm, kubelet, ..., see --list) and the images
# `rootfs` (the debootstrap tree), `registry-image` and `node-image` (which builds the binaries it needs first). Images need a
# Docker engine (bash testbed/kind-tier/engine.sh up).
#
# Cache, outside the repo: CACHE=${IKO_KIND_CACHE:-$HOME/.cache/iko-plus-kind}
#   $CACHE/bin/<group>-<version>[-src<hash>]/<name>   binaries, keyed by version
#   $CACHE/rootfs/bookworm-<hash>.tar                 debootstrap trees, keyed by package list
#   $CACHE/logs/<name>.log, $CACHE/build-times.tsv    logs and measured build times
#   $CACHE/kind-tier.env                              KEY=value lines (see testbed/kind-tier/README.md)
# A cached binary is not rebuilt; an image is skipped when its tag (which holds a hash of its
# inputs) exists. --force (or IKO_KIND_FORCE=1) rebuilds the named targets.
set -euo pipefail

TIER_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=testbed/lib/go-build.sh
. "$TIER_DIR/../lib/go-build.sh"
CACHE=${IKO_KIND_CACHE:-$HOME/.cache/iko-plus-kind}
BIN_ROOT=$CACHE/bin
LOG_DIR=$CACHE/logs
WORK_DIR=$CACHE/work
ENV_FILE=$CACHE/kind-tier.env
TIMES_LOG=$CACHE/build-times.tsv
FORCE=${IKO_KIND_FORCE:-0}

export DOCKER_BUILDKIT=0

K8S_VERSION=v1.34.12
K8S_FLAGS='-X k8s.io/component-base/version.gitVersion={v} -X k8s.io/component-base/version.gitMajor={major} -X k8s.io/component-base/version.gitMinor={minor} -X k8s.io/component-base/version.gitTreeState=clean'
CTRD_FLAGS='-X github.com/containerd/containerd/v2/version.Version={v} -X github.com/containerd/containerd/v2/version.Revision=iko-plus'
# Fields: name | group dir (under testbed/kind-tier/) | package | version module (or =version for our
#         own code) | ldflags | build tags
TARGETS=(
  "kind|tools/kind|sigs.k8s.io/kind|sigs.k8s.io/kind||"
  "helm|tools/helm|helm.sh/helm/v3/cmd/helm|helm.sh/helm/v3|-X helm.sh/helm/v3/internal/version.version={v} -X helm.sh/helm/v3/internal/version.gitTreeState=clean|"
  "kubelet|tools/kubernetes|k8s.io/kubernetes/cmd/kubelet|k8s.io/kubernetes|$K8S_FLAGS|"
  "kubeadm|tools/kubernetes|k8s.io/kubernetes/cmd/kubeadm|k8s.io/kubernetes|$K8S_FLAGS|"
  "kubectl|tools/kubernetes|k8s.io/kubernetes/cmd/kubectl|k8s.io/kubernetes|$K8S_FLAGS|"
  "kube-proxy|tools/kubernetes|k8s.io/kubernetes/cmd/kube-proxy|k8s.io/kubernetes|$K8S_FLAGS|"
  "kube-apiserver|tools/kubernetes|k8s.io/kubernetes/cmd/kube-apiserver|k8s.io/kubernetes|$K8S_FLAGS|"
  "kube-controller-manager|tools/kubernetes|k8s.io/kubernetes/cmd/kube-controller-manager|k8s.io/kubernetes|$K8S_FLAGS|"
  "kube-scheduler|tools/kubernetes|k8s.io/kubernetes/cmd/kube-scheduler|k8s.io/kubernetes|$K8S_FLAGS|"
  "containerd|tools/containerd|github.com/containerd/containerd/v2/cmd/containerd|github.com/containerd/containerd/v2|$CTRD_FLAGS|no_aufs no_zfs no_btrfs no_devmapper"
  "containerd-shim-runc-v2|tools/containerd|github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2|github.com/containerd/containerd/v2|$CTRD_FLAGS|"
  "ctr|tools/containerd|github.com/containerd/containerd/v2/cmd/ctr|github.com/containerd/containerd/v2|$CTRD_FLAGS|"
  "crictl|tools/cri-tools|sigs.k8s.io/cri-tools/cmd/crictl|sigs.k8s.io/cri-tools|-X sigs.k8s.io/cri-tools/pkg/version.Version={v}|"
  "host-local|tools/cni-plugins|github.com/containernetworking/plugins/plugins/ipam/host-local|github.com/containernetworking/plugins||"
  "loopback|tools/cni-plugins|github.com/containernetworking/plugins/plugins/main/loopback|github.com/containernetworking/plugins||"
  "ptp|tools/cni-plugins|github.com/containernetworking/plugins/plugins/main/ptp|github.com/containernetworking/plugins||"
  "portmap|tools/cni-plugins|github.com/containernetworking/plugins/plugins/meta/portmap|github.com/containernetworking/plugins||"
  "bridge|tools/cni-plugins|github.com/containernetworking/plugins/plugins/main/bridge|github.com/containernetworking/plugins||"
  "etcd|tools/etcd|go.etcd.io/etcd/server/v3|go.etcd.io/etcd/server/v3||"
  "coredns|tools/coredns|.|github.com/coredns/coredns||"
  "local-path-provisioner|tools/local-path-provisioner|github.com/rancher/local-path-provisioner|github.com/rancher/local-path-provisioner|-X main.VERSION={v}|"
  "kindnet-standin|images/kindnet|.|=v0.1.0||"
)
IMAGE_TARGETS=(rootfs registry-image node-image)

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }
die() { echo "build.sh: $*" >&2; exit 1; }

target_spec() { local s; for s in "${TARGETS[@]}"; do [[ $(target_field "$s" 0) == "$1" ]] && { echo "$s"; return 0; }; done; return 1; }

# src_key MODDIR PKG: for our own code (".", "./…"), -src<hash> of its Go files and go.mod/go.sum.
src_key() {
  [[ $2 == . || $2 == ./* ]] || return 0
  echo "-src$(cd "$1" && cat go.mod go.sum "${2#./}"/*.go 2>/dev/null | sha256sum | cut -c1-12)"
}

# bin_path NAME: where NAME's binary is (or will be) cached.
bin_path() {
  local spec moddir pkg version
  spec=$(target_spec "$1") || die "unknown binary $1"
  moddir=$TIER_DIR/$(target_field "$spec" 1); pkg=$(target_field "$spec" 2)
  version=$(mod_version "$moddir/go.mod" "$(target_field "$spec" 3)")
  echo "$BIN_ROOT/$(basename "$moddir")-$version$(src_key "$moddir" "$pkg")/$1"
}
bin_version() { local spec; spec=$(target_spec "$1"); mod_version "$TIER_DIR/$(target_field "$spec" 1)/go.mod" "$(target_field "$spec" 3)"; }

record_time() { printf '%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" "$3" >>"$TIMES_LOG"; }

build_binary() {
  local name=$1 spec moddir pkg flags tags version out log start
  spec=$(target_spec "$name")
  moddir=$TIER_DIR/$(target_field "$spec" 1); pkg=$(target_field "$spec" 2)
  flags=$(target_field "$spec" 4); tags=$(target_field "$spec" 5)
  version=$(bin_version "$name")
  out=$(bin_path "$name")
  log=$LOG_DIR/$name.log
  if [[ -x $out && $FORCE != 1 ]]; then
    echo "cached: $name $version"
    return 0
  fi
  mkdir -p "$(dirname "$out")" "$LOG_DIR"
  printf 'building %s %s ... ' "$name" "$version"
  start=$SECONDS
  if ! (cd "$moddir" && nice -n 10 go build -trimpath ${tags:+-tags "$tags"} \
    -ldflags "-s -w $(expand_flags "$flags" "$version")" -o "$out.tmp" "$pkg") >"$log" 2>&1; then
    echo "FAILED after $((SECONDS - start))s (log: $log)"
    tail -n 25 "$log" | sed 's/^/    /'
    rm -f "$out.tmp"
    return 1
  fi
  mv -f "$out.tmp" "$out"
  echo "done in $((SECONDS - start))s"
  record_time "$name" "$version" "$((SECONDS - start))"
}

# The images (node image, component images, registry image) are built by lib/images.sh.
# shellcheck source-path=SCRIPTDIR source=lib/images.sh
. "$TIER_DIR/lib/images.sh"

write_env_file() {
  local tmp=$ENV_FILE.tmp n
  mkdir -p "$CACHE"
  {
    echo "# Written by testbed/kind-tier/build.sh. Source it (set -a; . $ENV_FILE) or parse KEY=value lines."
    echo "KIND_BIN=$(bin_path kind)"
    echo "HELM_BIN=$(bin_path helm)"
    echo "KUBECTL_BIN=$(bin_path kubectl)"
    echo "KIND_VERSION=$(bin_version kind)"
    echo "HELM_VERSION=$(bin_version helm)"
    echo "KUBERNETES_VERSION=$K8S_VERSION"
    echo "NODE_IMAGE=$(node_image_tag)"
    echo "REGISTRY_IMAGE=$REGISTRY_IMAGE"
    for n in "${!PRELOAD_IMAGES[@]}"; do echo "$n=${PRELOAD_IMAGES[$n]}"; done | sort
  } >"$tmp"
  mv -f "$tmp" "$ENV_FILE"
}

list_targets() {
  local spec name out
  for spec in "${TARGETS[@]}"; do
    name=$(target_field "$spec" 0); out=$(bin_path "$name")
    printf '%-26s %-10s %s\n' "$name" "$(bin_version "$name")" "$([[ -x $out ]] && echo "cached $out" || echo "not built")"
  done
  printf '%-26s %-10s %s\n' registry-image "${REGISTRY_IMAGE##*:}" "$(image_state "$REGISTRY_IMAGE")"
  printf '%-26s %-10s %s\n' node-image "$K8S_VERSION" "$(image_state "$(node_image_tag)")"
}

main() {
  local -a names=()
  while (($#)); do
    case $1 in
      -h | --help) usage; return 0 ;;
      --force) FORCE=1 ;;
      --list) list_targets; return 0 ;;
      -*) echo "build.sh: unknown option $1" >&2; usage >&2; return 2 ;;
      *) names+=("$1") ;;
    esac
    shift
  done
  command -v go >/dev/null || die "go is not on PATH"
  local spec n
  if ((${#names[@]} == 0)); then
    for spec in "${TARGETS[@]}"; do names+=("$(target_field "$spec" 0)"); done
    names+=("${IMAGE_TARGETS[@]}")
  fi
  for n in "${names[@]}"; do
    target_spec "$n" >/dev/null || [[ " ${IMAGE_TARGETS[*]} " == *" $n "* ]] ||
      { echo "build.sh: unknown target '$n' (see --list)" >&2; return 2; }
  done

  local -a failed=()
  local total_start=$SECONDS
  for n in "${names[@]}"; do
    case $n in
      rootfs) rootfs_tar "${NODE_PACKAGES[@]}" >/dev/null || failed+=("$n") ;;
      registry-image) build_registry_image || failed+=("$n") ;;
      node-image) build_node_image || failed+=("$n") ;;
      *) build_binary "$n" || failed+=("$n") ;;
    esac
  done
  write_env_file
  echo "env file: $ENV_FILE (total $((SECONDS - total_start))s)"
  if ((${#failed[@]})); then
    echo "build.sh: failed: ${failed[*]}" >&2
    return 1
  fi
}

main "$@"; exit $?
