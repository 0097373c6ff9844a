#!/usr/bin/env bash
# Build the lab's binaries (Pulumi CLI and plugins, etcd, Kubernetes control plane, kwok,
# Karmada) from the pinned Go tools modules in testbed/lab/tools/. Nothing is downloaded except Go
# modules through the module proxy; nothing built lands in the repo.
#
# Usage: bash testbed/lab/build.sh [--force] [names...]   build all (default) or the named binaries
#        bash testbed/lab/build.sh --list                 names, versions, cached or not
#        bash testbed/lab/build.sh --print-bin-dir        print the directory of current binaries
#
# Binaries are cached by version outside the repo:
#   ${IKO_LAB_CACHE:-$HOME/.cache/iko-plus-lab}/bin/<group>-<version>/<name>
# and linked from .../current/<name>. .../lab-bin.env holds IKO_LAB_BIN_DIR and the versions.
# A cached binary is not rebuilt; --force (or IKO_LAB_FORCE=1) rebuilds the named ones. A full
# build (no names) then removes the folders of binaries no target uses and none used for a day.
# Builds on one cache run one at a time (flock on .../.build.lock); a second one waits.
set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=testbed/lib/go-build.sh
. "$LAB_DIR/../lib/go-build.sh"
TOOLS_DIR=$LAB_DIR/tools
CACHE=${IKO_LAB_CACHE:-$HOME/.cache/iko-plus-lab}
BIN_ROOT=$CACHE/bin
CURRENT=$CACHE/current
LOG_DIR=$CACHE/logs
WORK_DIR=$CACHE/work
ENV_FILE=$CACHE/lab-bin.env
TIMES_LOG=$CACHE/build-times.tsv
FORCE=${IKO_LAB_FORCE:-0}

# The single source of truth for versions is each group's go.mod in testbed/lab/tools/<group>/.
# Fields: name | group (testbed/lab/tools/<group>) | package to build ("./…" = our own code in the group;
#         "." = the kubernetes-provider main, built from a copy with generated embed files)
#         | module whose go.mod version keys the cache and fills the ldflags | extra ldflags
# ldflags placeholders: {v} version as in go.mod (v1.2.3), {v#} without the leading v,
#                       {major} and {minor} of the version.
K8S_VERSION_FLAGS='-X k8s.io/component-base/version.gitVersion={v} -X k8s.io/component-base/version.gitMajor={major} -X k8s.io/component-base/version.gitMinor={minor} -X k8s.io/component-base/version.gitTreeState=clean'
KARMADA_VERSION_FLAGS='-X github.com/karmada-io/karmada/pkg/version.gitVersion={v} -X github.com/karmada-io/karmada/pkg/version.gitTreeState=clean'
PULUMI_VERSION_FLAGS='-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version={v}'
TARGETS=(
  "pulumi|pulumi|github.com/pulumi/pulumi/pkg/v3/cmd/pulumi|github.com/pulumi/pulumi/pkg/v3|$PULUMI_VERSION_FLAGS"
  "pulumi-language-nodejs|pulumi|./cmd/pulumi-language-nodejs|github.com/pulumi/pulumi/pkg/v3|$PULUMI_VERSION_FLAGS"
  "pulumi-resource-kubernetes|kubernetes-provider|.|github.com/pulumi/pulumi-kubernetes/sdk/v4|-X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version={v#}"
  "etcd|etcd|go.etcd.io/etcd/server/v3|go.etcd.io/etcd/server/v3|"
  "kube-apiserver|kubernetes|k8s.io/kubernetes/cmd/kube-apiserver|k8s.io/kubernetes|$K8S_VERSION_FLAGS"
  "kube-controller-manager|kubernetes|k8s.io/kubernetes/cmd/kube-controller-manager|k8s.io/kubernetes|$K8S_VERSION_FLAGS"
  "kube-scheduler|kubernetes|k8s.io/kubernetes/cmd/kube-scheduler|k8s.io/kubernetes|$K8S_VERSION_FLAGS"
  "kubectl|kubernetes|k8s.io/kubernetes/cmd/kubectl|k8s.io/kubernetes|$K8S_VERSION_FLAGS"
  "kwok|kwok|sigs.k8s.io/kwok/cmd/kwok|sigs.k8s.io/kwok|"
  "karmada-aggregated-apiserver|karmada|github.com/karmada-io/karmada/cmd/aggregated-apiserver|github.com/karmada-io/karmada|$KARMADA_VERSION_FLAGS"
  "karmada-controller-manager|karmada|github.com/karmada-io/karmada/cmd/controller-manager|github.com/karmada-io/karmada|$KARMADA_VERSION_FLAGS"
  "karmada-scheduler|karmada|github.com/karmada-io/karmada/cmd/scheduler|github.com/karmada-io/karmada|$KARMADA_VERSION_FLAGS"
  "karmada-webhook|karmada|github.com/karmada-io/karmada/cmd/webhook|github.com/karmada-io/karmada|$KARMADA_VERSION_FLAGS"
  "karmadactl|karmada|github.com/karmada-io/karmada/cmd/karmadactl|github.com/karmada-io/karmada|$KARMADA_VERSION_FLAGS"
  "karmada-agent|karmada|github.com/karmada-io/karmada/cmd/agent|github.com/karmada-io/karmada|$KARMADA_VERSION_FLAGS"
)

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

# env_name NAME: pulumi-resource-kubernetes -> PULUMI_RESOURCE_KUBERNETES
env_name() { local n=${1^^}; echo "${n//-/_}"; }


# prepare_provider MODULE_DIR VERSION: pulumi-resource-kubernetes embeds schema-embed.json and
# terraform-mapping-embed.json, which upstream generates and git-ignores (so the module zip lacks
# them). Build from a copy of testbed/lab/tools/kubernetes-provider under the cache, with those files
# generated from the provider module's committed schema.json and terraform-mapping.json.
# Prints the copy's path.
prepare_provider() {
  local src=$1 version=$2 dst=$WORK_DIR/kubernetes-provider provider_dir
  # `go list -m` prints an empty Dir until the module is in the module cache (a cold machine),
  # so download it first.
  rm -rf "$dst" && mkdir -p "$dst" && cp -R "$src/." "$dst/" &&
    (cd "$dst" && go mod download github.com/pulumi/pulumi-kubernetes/provider/v4) &&
    provider_dir=$(cd "$dst" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi-kubernetes/provider/v4) &&
    [ -n "$provider_dir" ] && [ -d "$provider_dir" ] &&
    (cd "$dst" && nice -n 10 go run ./internal/embedgen -src "$provider_dir/cmd/pulumi-resource-kubernetes" -out . -version "${version#v}" >&2) &&
    echo "$dst"
}

# src_key MODDIR PKG: for a package of our own code ("./…"), "-src<hash>" of its Go files and
# the group's go.mod/go.sum, so changing our code gets a new cache key without --force. Empty
# for upstream packages (their version is the key).
src_key() {
  [[ $2 == ./* ]] || return 0
  echo "-src$(cd "$1" && cat go.mod go.sum "${2#./}"/*.go | sha256sum | cut -c1-12)"
}

build_target() {
  local spec=$1 name group pkg vmod flags moddir version out log start builddir
  name=$(target_field "$spec" 0); group=$(target_field "$spec" 1); pkg=$(target_field "$spec" 2)
  vmod=$(target_field "$spec" 3); flags=$(target_field "$spec" 4)
  moddir=$TOOLS_DIR/$group
  version=$(mod_version "$moddir/go.mod" "$vmod")
  out=$BIN_ROOT/$group-$version$(src_key "$moddir" "$pkg")/$name
  log=$LOG_DIR/$name.log
  if [[ -x $out && $FORCE != 1 ]]; then
    echo "cached: $name $version"
  else
    mkdir -p "$(dirname "$out")" "$LOG_DIR"
    printf 'building %s %s ... ' "$name" "$version"
    start=$SECONDS
    # (set -e does not apply inside an if condition, hence the && chain.)
    if ! (
      builddir=$moddir &&
        if [[ $pkg == . ]]; then builddir=$(prepare_provider "$moddir" "$version"); fi &&
        cd "$builddir" &&
        nice -n 10 go build -trimpath -ldflags "-s -w $(expand_flags "$flags" "$version")" -o "$out.tmp" "$pkg"
    ) >"$log" 2>&1; then
      echo "FAILED after $((SECONDS - start))s (log: $log)"
      tail -n 25 "$log" | sed 's/^/    /'
      rm -f "$out.tmp"
      return 1
    fi
    mv -f "$out.tmp" "$out"
    echo "done in $((SECONDS - start))s"
    printf '%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$name" "$version" "$((SECONDS - start))" >>"$TIMES_LOG"
  fi
  mkdir -p "$CURRENT"
  ln -sfn "$out" "$CURRENT/$name"
  # Marks the folder as in use (prune_unused keeps what a build used within a day).
  touch "$(dirname "$out")"
  USED_DIRS+=("$(dirname "$out")")
}

# Folders under $BIN_ROOT the targets of this run use (build_target adds them).
USED_DIRS=()

# prune_unused: after a full build, removes the binary folders no target uses any more (an older
# version after a bump in testbed/lab/tools/*/go.mod, an older build of our own code), so a version
# change leaves nothing behind. A folder some build used within a day stays: another checkout
# sharing this cache may be on other versions.
prune_unused() {
  local d used u
  for d in "$BIN_ROOT"/*/; do
    [[ -d $d ]] || continue
    d=${d%/}; used=0
    for u in "${USED_DIRS[@]}"; do [[ $u == "$d" ]] && used=1; done
    ((used)) && continue
    [[ -n $(find "$d" -maxdepth 0 -mmin -1440) ]] && continue
    echo "build.sh: removing ${d##*/} (no lab binary uses it, none did for a day)"
    rm -rf "$d"
  done
}

write_env_file() {
  local spec name version tmp=$ENV_FILE.tmp
  mkdir -p "$CACHE"
  {
    echo "# Written by testbed/lab/build.sh. Source it (set -a; . $ENV_FILE) or parse KEY=value lines."
    echo "IKO_LAB_BIN_DIR=$CURRENT"
    for spec in "${TARGETS[@]}"; do
      name=$(target_field "$spec" 0)
      version=$(mod_version "$TOOLS_DIR/$(target_field "$spec" 1)/go.mod" "$(target_field "$spec" 3)")
      echo "IKO_LAB_VERSION_$(env_name "$name")=$version"
    done
  } >"$tmp"
  mv -f "$tmp" "$ENV_FILE"
}

main() {
  local -a names=()
  while (($#)); do
    case $1 in
      -h | --help) usage; return 0 ;;
      --print-bin-dir) echo "$CURRENT"; return 0 ;;
      --force) FORCE=1 ;;
      --list)
        local spec name version out
        for spec in "${TARGETS[@]}"; do
          name=$(target_field "$spec" 0)
          version=$(mod_version "$TOOLS_DIR/$(target_field "$spec" 1)/go.mod" "$(target_field "$spec" 3)")
          out=$BIN_ROOT/$(target_field "$spec" 1)-$version$(src_key "$TOOLS_DIR/$(target_field "$spec" 1)" "$(target_field "$spec" 2)")/$name
          printf '%-30s %-12s %s\n' "$name" "$version" "$([[ -x $out ]] && echo "cached $out" || echo "not built")"
        done
        return 0 ;;
      -*) echo "build.sh: unknown option $1" >&2; usage >&2; return 2 ;;
      *) names+=("$1") ;;
    esac
    shift
  done

  command -v go >/dev/null || { echo "build.sh: go is not on PATH" >&2; return 1; }

  # One build at a time per cache: two would share the provider's work copy and the .tmp outputs.
  mkdir -p "$CACHE"
  exec 9>"$CACHE/.build.lock"
  if ! flock -n 9; then
    echo "build.sh: waiting for another testbed/lab/build.sh on $CACHE (lock $CACHE/.build.lock)"
    flock 9
  fi

  local -a selected=()
  local spec n found
  if ((${#names[@]} == 0)); then
    selected=("${TARGETS[@]}")
  else
    for n in "${names[@]}"; do
      found=
      for spec in "${TARGETS[@]}"; do
        if [[ $(target_field "$spec" 0) == "$n" ]]; then selected+=("$spec"); found=1; fi
      done
      [[ -n $found ]] || { echo "build.sh: unknown binary '$n' (see --list)" >&2; return 2; }
    done
  fi

  local -a failed=()
  local total_start=$SECONDS
  for spec in "${selected[@]}"; do
    build_target "$spec" || failed+=("$(target_field "$spec" 0)")
  done
  write_env_file
  if ((${#names[@]} == 0 && ${#failed[@]} == 0)); then prune_unused; fi

  echo "bin dir: $CURRENT (env file: $ENV_FILE; total $((SECONDS - total_start))s)"
  if ((${#failed[@]})); then
    echo "build.sh: failed: ${failed[*]}" >&2
    return 1
  fi
}

# On one line, so bash never reads past it (safe to edit this file while a build runs).
main "$@"; exit $?
