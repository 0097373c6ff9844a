# shellcheck shell=bash
# Karmada's chart and its images for the kind tier (sourced by testbed/kind-tier/karmada-images.sh after
# lib/images.sh; uses its CACHE, WORK_DIR, LOG_DIR, FORCE, die, record_time and the image helpers).
#
# The chart is charts/karmada of the Go module github.com/karmada-io/karmada, at the version
# testbed/lab/tools/karmada requires (v1.18.2, the default) and at each version the tier upgrades from
# (KARMADA_UPGRADE_SOURCES, v1.16.0: its components built here from testbed/kind-tier/tools/karmada-<v>).
# Its images are built from binaries, named as the chart's values name them
# (docker.io/karmada/karmada-<component>:<version>, docker.io/cfssl/cfssl), and pushed to the
# tier's mirror; cfssl, kubectl and etcd are one image each for every version. kube-apiserver and kube-controller-manager are the node image's
# preloaded registry.k8s.io images (KUBE_APISERVER_IMAGE, KUBE_CONTROLLER_MANAGER_IMAGE): the
# chart's values point at those tags, nothing is built for them.

LAB_KARMADA_MODDIR=$TIER_DIR/../lab/tools/karmada
LAB_CACHE=${IKO_LAB_CACHE:-$HOME/.cache/iko-plus-lab}
# Versions a running Karmada moves from to the default by `pulumi up` (test/kind/karmada-upgrade.test.ts),
# each with its tools module testbed/kind-tier/tools/karmada-<v>.
KARMADA_UPGRADE_SOURCES=(v1.16.0)
KARMADA_LABEL=io.iko-plus.source-hash
CFSSL_VERSION=v1.6.5
# Shells (the scripts are `/bin/sh -c "bash <<EOF ..."`), coreutils, sed, grep, curl (the
# apiserver waits for etcd with it) and openssl: what the
# chart's job scripts call besides cfssl and kubectl.
KARMADA_JOB_PACKAGES=(bash dash coreutils sed grep curl openssl)

# Helper binaries, built here into $CACHE/bin/karmada-images-<version>/: name | package | version module.
KARMADA_TOOLS=(
  "cfssl|github.com/cloudflare/cfssl/cmd/cfssl|github.com/cloudflare/cfssl"
  "cfssljson|github.com/cloudflare/cfssl/cmd/cfssljson|github.com/cloudflare/cfssl"
  "etcdctl|go.etcd.io/etcd/etcdctl/v3|go.etcd.io/etcd/etcdctl/v3"
)
KARMADA_TOOLS_DIR=$TIER_DIR/tools/karmada-images

# tool_bin NAME: a helper's cached path; etcd and kubectl are testbed/kind-tier/build.sh's (same keys).
tool_bin() {
  local spec
  case $1 in
    etcd) echo "$CACHE/bin/etcd-$(mod_version "$TIER_DIR/tools/etcd/go.mod" go.etcd.io/etcd/server/v3)/etcd"; return ;;
    kubectl) echo "$CACHE/bin/kubernetes-$K8S_VERSION/kubectl"; return ;;
  esac
  for spec in "${KARMADA_TOOLS[@]}"; do
    [[ ${spec%%|*} == "$1" ]] && { echo "$CACHE/bin/karmada-images-$(mod_version "$KARMADA_TOOLS_DIR/go.mod" "${spec##*|}")/$1"; return; }
  done
  die "unknown helper binary $1"
}

build_tool() { # NAME: build a KARMADA_TOOLS binary unless cached
  local spec pkg vmod out log start
  for spec in "${KARMADA_TOOLS[@]}"; do [[ ${spec%%|*} == "$1" ]] && { pkg=$(target_field "$spec" 1); vmod=$(target_field "$spec" 2); }; done
  out=$(tool_bin "$1"); log=$LOG_DIR/$1.log
  if [[ -x $out && $FORCE != 1 ]]; then echo "cached: $1 $(mod_version "$KARMADA_TOOLS_DIR/go.mod" "$vmod")"; return 0; fi
  mkdir -p "$(dirname "$out")" "$LOG_DIR"
  printf 'building %s ... ' "$1"; start=$SECONDS
  local flags=""
  [[ $vmod == github.com/cloudflare/cfssl ]] && flags="-X github.com/cloudflare/cfssl/cli/version.version=$(mod_version "$KARMADA_TOOLS_DIR/go.mod" "$vmod" | sed 's/^v//')"
  if ! (cd "$KARMADA_TOOLS_DIR" && nice -n 10 go build -trimpath -ldflags "-s -w $flags" -o "$out.tmp" "$pkg") >"$log" 2>&1; then
    echo "FAILED (log: $log)"; tail -n 25 "$log" | sed 's/^/    /'; rm -f "$out.tmp"; return 1
  fi
  mv -f "$out.tmp" "$out"; echo "done in $((SECONDS - start))s"
  record_time "$1" "$(mod_version "$KARMADA_TOOLS_DIR/go.mod" "$vmod")" "$((SECONDS - start))"
}

# The version the functions below work on: the default (testbed/lab/tools/karmada's, whose binaries
# testbed/lab/build.sh builds into the lab's cache) unless use_karmada_version chose an upgrade source.
KARMADA_MODDIR=$LAB_KARMADA_MODDIR
KARMADA_BIN_ROOT=$LAB_CACHE/bin
use_karmada_version() { # V: the default's version or one of KARMADA_UPGRADE_SOURCES
  local v
  if [[ $1 == "$(mod_version "$LAB_KARMADA_MODDIR/go.mod" github.com/karmada-io/karmada)" ]]; then
    KARMADA_MODDIR=$LAB_KARMADA_MODDIR; KARMADA_BIN_ROOT=$LAB_CACHE/bin; return 0
  fi
  for v in "${KARMADA_UPGRADE_SOURCES[@]}"; do
    [[ $v == "$1" ]] && { KARMADA_MODDIR=$TIER_DIR/tools/karmada-$v; KARMADA_BIN_ROOT=$CACHE/bin; return 0; }
  done
  die "Karmada $1 is neither testbed/lab/tools/karmada's version nor one of KARMADA_UPGRADE_SOURCES (${KARMADA_UPGRADE_SOURCES[*]})"
}
karmada_versions() { # the default first, then the upgrade sources
  mod_version "$LAB_KARMADA_MODDIR/go.mod" github.com/karmada-io/karmada
  printf '%s\n' "${KARMADA_UPGRADE_SOURCES[@]}"
}
karmada_version() { mod_version "$KARMADA_MODDIR/go.mod" github.com/karmada-io/karmada; }
karmada_module_dir() {
  (cd "$KARMADA_MODDIR" && go mod download github.com/karmada-io/karmada && go list -m -f '{{.Dir}}' github.com/karmada-io/karmada)
}
karmada_bin() { # the cached binary NAME of the current version
  echo "$KARMADA_BIN_ROOT/karmada-$(karmada_version)/$1"
}

# build_karmada_binaries: an upgrade source's components, built from its tools module with the
# flags testbed/lab/build.sh gives the default's (the default's are testbed/lab/build.sh's own).
build_karmada_binaries() {
  local spec bin v out start
  [[ $KARMADA_MODDIR == "$LAB_KARMADA_MODDIR" ]] && return 0
  v=$(karmada_version)
  for spec in "${KARMADA_COMPONENTS[@]}"; do
    bin=${spec#*|}; out=$(karmada_bin "$bin")
    if [[ -x $out && $FORCE != 1 ]]; then echo "cached: $bin $v"; continue; fi
    mkdir -p "$(dirname "$out")" "$LOG_DIR"
    printf 'building %s %s ... ' "$bin" "$v"; start=$SECONDS
    if ! (cd "$KARMADA_MODDIR" && nice -n 10 go build -trimpath \
      -ldflags "-s -w -X github.com/karmada-io/karmada/pkg/version.gitVersion=$v -X github.com/karmada-io/karmada/pkg/version.gitTreeState=clean" \
      -o "$out.tmp" "github.com/karmada-io/karmada/cmd/${bin#karmada-}") >"$LOG_DIR/$bin-$v.log" 2>&1; then
      echo "FAILED (log: $LOG_DIR/$bin-$v.log)"; tail -n 25 "$LOG_DIR/$bin-$v.log" | sed 's/^/    /'; rm -f "$out.tmp"; return 1
    fi
    mv -f "$out.tmp" "$out"; echo "done in $((SECONDS - start))s"; record_time "$bin" "$v" "$((SECONDS - start))"
  done
}
# Karmada's own components: the chart's image value key (agent: ours) | binary.
KARMADA_COMPONENTS=(
  "aggregatedApiServer|karmada-aggregated-apiserver"
  "controllerManager|karmada-controller-manager"
  "scheduler|karmada-scheduler"
  "webhook|karmada-webhook"
  "agent|karmada-agent" # not the chart's: Pull members run it (KarmadaMember syncMode Pull)
)

# karmada_images: "key=image" lines, the chart's value key and the image name (the current
# version's components, then the images every version shares).
karmada_images() {
  local v spec
  v=$(karmada_version)
  for spec in "${KARMADA_COMPONENTS[@]}"; do echo "${spec%%|*}=docker.io/karmada/${spec#*|}:$v"; done
  karmada_shared_images
}
karmada_shared_images() {
  echo "cfssl=docker.io/cfssl/cfssl:$CFSSL_VERSION"
  echo "kubectl=docker.io/bitnamisecure/kubectl:${K8S_VERSION#v}"
  # Chart v1.16.0's etcd liveness probe runs `/bin/sh -ec 'etcdctl get ...'`: the node image's
  # preloaded etcd (the static server only) has neither, so etcd would be restarted every 13
  # minutes. v1.18.2 probes /livez and /readyz on etcd's metrics port (2381) over HTTP instead, so
  # this image serves either chart.
  echo "etcd=docker.io/iko-plus/karmada-etcd:3.6.5-0"
}

# karmada_inputs_hash KEY: an image's inputs (this file and, for a component of the current
# version, its binaries' cache paths; for the shared ones the helper binaries and the packages).
karmada_inputs_hash() {
  local spec
  {
    cat "$TIER_DIR/lib/karmada.sh"
    case $1 in
      cfssl | kubectl | etcd)
        for spec in cfssl cfssljson etcdctl etcd kubectl; do tool_bin "$spec"; done
        echo "${KARMADA_JOB_PACKAGES[*]}" ;;
      *) for spec in "${KARMADA_COMPONENTS[@]}"; do karmada_bin "${spec#*|}"; done ;;
    esac
  } | sha256sum | cut -c1-16
}

# karmada_chart_dir: the chart folder the stack's karmada.chartPath points at.
karmada_chart_dir() {
  echo "$CACHE/charts/karmada-$(karmada_version)-$(cat "$TIER_DIR/lib/karmada.sh" "$TIER_DIR"/images/karmada-common/* | sha256sum | cut -c1-8)"
}

# build_karmada_chart: charts/karmada of the module, plus our stand-in of its one dependency
# (Bitnami's `common` library chart, from a Helm repository this machine cannot reach; only the
# two templates the chart includes, see images/karmada-common/README.md) in its charts/ folder.
build_karmada_chart() {
  local dir src old
  dir=$(karmada_chart_dir)
  if [[ -f $dir/Chart.yaml && $FORCE != 1 ]]; then echo "cached: karmada-chart $dir"; return 0; fi
  src=$(karmada_module_dir)/charts/karmada
  [[ -f $src/Chart.yaml ]] || die "no charts/karmada in the Karmada module ($src)"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/charts/common/templates"
  cp -R "$src/." "$dir.tmp/" && chmod -R u+w "$dir.tmp"
  install -m 0644 "$TIER_DIR/images/karmada-common/Chart.yaml" "$dir.tmp/charts/common/Chart.yaml"
  install -m 0644 "$TIER_DIR/images/karmada-common/_images.tpl" "$dir.tmp/charts/common/templates/_images.tpl"
  install -m 0644 "$TIER_DIR/images/karmada-common/README.md" "$dir.tmp/charts/common/README.md"
  for old in "$CACHE"/charts/karmada-"$(karmada_version)"-*; do [[ -d $old && $old != "$dir" && $old != "$dir.tmp" ]] && rm -rf "$old"; done
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  echo "karmada-chart $dir"
}

# build_karmada_images: every image of karmada_images, skipped when one with the inputs' hash exists.
build_karmada_images() {
  local hash line key image have t root tarball start n missing=() spec bin
  need_docker
  for spec in "${KARMADA_COMPONENTS[@]}"; do [[ -x $(karmada_bin "${spec#*|}") ]] || missing+=("${spec#*|}"); done
  ((${#missing[@]} == 0)) || die "missing Karmada $(karmada_version) binaries ${missing[*]} (bash testbed/kind-tier/karmada-images.sh build)"
  for n in cfssl cfssljson etcdctl; do build_tool "$n" || return 1; done
  for n in etcd kubectl; do [[ -x $(tool_bin "$n") ]] || die "missing $(tool_bin "$n") (bash testbed/kind-tier/build.sh $n)"; done
  local -a todo=()
  while IFS= read -r line; do
    image=${line#*=}
    hash=$(karmada_inputs_hash "${line%%=*}")
    have=$(docker image inspect --format "{{ index .Config.Labels \"$KARMADA_LABEL\" }}" "$image" 2>/dev/null || true)
    if [[ $have == "$hash" && $FORCE != 1 ]]; then echo "cached: $image ($(image_size "$image"))"; else todo+=("$line"); fi
  done < <(karmada_images)
  ((${#todo[@]} == 0)) && return 0
  start=$SECONDS
  t=$WORK_DIR/karmada-img
  local label path_env='ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  for line in "${todo[@]}"; do
    key=${line%%=*}; image=${line#*=}
    label="LABEL $KARMADA_LABEL=$(karmada_inputs_hash "$key")"
    case $key in
      cfssl | kubectl)
        if [[ -z ${root-} ]]; then
          tarball=$(rootfs_tar "${NODE_PACKAGES[@]}") || die "no rootfs (bash testbed/kind-tier/build.sh rootfs)"
          root=$WORK_DIR/karmada-rootfs; rm -rf "$root"; mkdir -p "$root"
          tar -C "$root" --numeric-owner -xf "$tarball"
        fi
        pkg_tree "$root" "$t" "${KARMADA_JOB_PACKAGES[@]}"
        if [[ $key == cfssl ]]; then
          install -m 0755 "$(tool_bin cfssl)" "$(tool_bin cfssljson)" "$t/usr/local/bin/"
        else
          install -m 0755 "$(tool_bin kubectl)" "$t/usr/local/bin/kubectl"
        fi
        import_tree "$t" "$image" --change "$path_env" --change "$label" --change 'CMD ["/bin/bash"]'
        ;;
      etcd)
        need_debs /bin/busybox:busybox-static
        small_tree "$t"; mkdir -p "$t/bin" "$t/var/lib/etcd"
        install -m 0755 /bin/busybox "$t/bin/busybox"; ln -s busybox "$t/bin/sh"
        install -m 0755 "$(tool_bin etcd)" "$(tool_bin etcdctl)" "$t/usr/local/bin/"
        import_tree "$t" "$image" --change "$path_env" --change "$label" --change 'ENTRYPOINT ["/usr/local/bin/etcd"]'
        ;;
      *)
        for spec in "${KARMADA_COMPONENTS[@]}"; do [[ ${spec%%|*} == "$key" ]] && bin=${spec#*|}; done
        small_tree "$t"; mkdir -p "$t/bin"; install -m 0755 "$(karmada_bin "$bin")" "$t/bin/$bin"
        import_tree "$t" "$image" --change "$path_env" --change "$label" --change "ENTRYPOINT [\"/bin/$bin\"]"
        ;;
    esac
    echo "built $image ($(image_size "$image"))"
  done
  rm -rf "$t" "${root-}"
  # Replaced builds (now untagged) go, so Docker's store holds one of each.
  docker image prune -f --filter "label=$KARMADA_LABEL" >/dev/null
  echo "karmada-images $(karmada_version) done in $((SECONDS - start))s"
  record_time karmada-images "$(karmada_version)" "$((SECONDS - start))"
}

# write_karmada_env: $CACHE/karmada-images.env, KEY=value lines for tests and users: the
# default version's chart and images, and per upgrade source <v> its chart
# (KARMADA_CHART_PATH_<V>, e.g. KARMADA_CHART_PATH_V1_16_0) listed in KARMADA_UPGRADE_SOURCES.
write_karmada_env() {
  local out=$CACHE/karmada-images.env n image v
  {
    echo "# Written by testbed/kind-tier/karmada-images.sh. Source it or parse KEY=value lines."
    use_karmada_version "$(karmada_versions | head -n 1)"
    echo "KARMADA_VERSION=$(karmada_version)"
    echo "KARMADA_CHART_PATH=$(karmada_chart_dir)"
    while IFS='=' read -r n image; do
      n=$(sed -E 's/([a-z])([A-Z])/\1_\2/g' <<<"$n"); echo "KARMADA_IMAGE_${n^^}=$image"
    done < <(karmada_images)
    echo "KARMADA_UPGRADE_SOURCES=${KARMADA_UPGRADE_SOURCES[*]}"
    for v in "${KARMADA_UPGRADE_SOURCES[@]}"; do
      use_karmada_version "$v"
      n=${v^^}; echo "KARMADA_CHART_PATH_${n//./_}=$(karmada_chart_dir)"
    done
  } >"$out.tmp"
  mv -f "$out.tmp" "$out"
}
