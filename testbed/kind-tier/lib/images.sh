# shellcheck shell=bash
# Image builders for testbed/kind-tier/build.sh (sourced; uses its TIER_DIR, CACHE, bin_path, ...).
# The node image follows kind's images/base/Dockerfile and pkg/build/nodeimage steps by hand:
# kind build node-image cannot work offline (it fetches images with ctr content fetch).

ROOTFS_DIR=$CACHE/rootfs
DEBIAN_SUITE=bookworm
DEBIAN_MIRROR=${IKO_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# kind's base package list (images/base/Dockerfile, minus fuse-overlayfs, nfs-common and
# open-iscsi) plus dbus, socat and Debian's runc.
NODE_PACKAGES=(systemd dbus conntrack iptables nftables iproute2 ethtool util-linux mount kmod
  libseccomp2 pigz bash ca-certificates curl jq procps socat runc)
KUBE_PROXY_PACKAGES=(iptables nftables conntrack dash)
REGISTRY_VERSION=2.8.2 # Debian bookworm's docker-registry (distribution) package
REGISTRY_IMAGE=iko-plus/registry:$REGISTRY_VERSION
PAUSE_VERSION=3.10.1
NODE_REPO=iko-plus/kind-node
declare -A PRELOAD_IMAGES=(
  [KUBE_APISERVER_IMAGE]=registry.k8s.io/kube-apiserver:$K8S_VERSION
  [KUBE_CONTROLLER_MANAGER_IMAGE]=registry.k8s.io/kube-controller-manager:$K8S_VERSION
  [KUBE_SCHEDULER_IMAGE]=registry.k8s.io/kube-scheduler:$K8S_VERSION
  [KUBE_PROXY_IMAGE]=registry.k8s.io/kube-proxy:$K8S_VERSION
  [ETCD_IMAGE]=registry.k8s.io/etcd:3.6.5-0
  [COREDNS_IMAGE]=registry.k8s.io/coredns/coredns:v1.12.1
  [PAUSE_IMAGE]=registry.k8s.io/pause:$PAUSE_VERSION
  [PAUSE_KIND_IMAGE]=registry.k8s.io/pause:3.10 # the tag kind's containerd config.toml pins
  [KINDNET_IMAGE]=docker.io/iko-plus/kindnet-standin:v0.1.0
  [STORAGE_PROVISIONER_IMAGE]=docker.io/iko-plus/local-path-provisioner:v0.0.30
  [STORAGE_HELPER_IMAGE]=docker.io/iko-plus/local-path-helper:busybox-1.35.0
)
NODE_BINARIES=(kind kubelet kubeadm kubectl kube-proxy kube-apiserver kube-controller-manager
  kube-scheduler containerd containerd-shim-runc-v2 ctr crictl host-local loopback ptp portmap
  bridge etcd coredns local-path-provisioner kindnet-standin)

need_docker() { docker info >/dev/null 2>&1 || die "no Docker engine answers (run: bash testbed/kind-tier/engine.sh up)"; }
need_debs() { # need_debs CMD:PACKAGE...: install the Debian packages whose command is missing
  local spec missing=()
  for spec in "$@"; do [[ -e ${spec%%:*} ]] || missing+=("${spec#*:}"); done
  ((${#missing[@]} == 0)) && return 0
  echo "installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; }
}
lacks_cap_sys_resource() { local b; b=$(awk '/^CapBnd:/ { print $2 }' /proc/self/status); (((0x$b >> 24 & 1) == 0)); }
image_exists() { docker image inspect "$1" >/dev/null 2>&1; }
image_state() { docker info >/dev/null 2>&1 || { echo "(no engine)"; return; }; image_exists "$1" && echo "built $1" || echo "not built ($1)"; }
image_size() { docker image inspect -f '{{.Size}}' "$1" | awk '{ printf "%.1f MB", $1 / 1e6 }'; }
kind_module_dir() { (cd "$TIER_DIR/tools/kind" && go mod download sigs.k8s.io/kind && go list -m -f '{{.Dir}}' sigs.k8s.io/kind); }
k8s_module_dir() { (cd "$TIER_DIR/tools/kubernetes" && go mod download k8s.io/kubernetes && go list -m -f '{{.Dir}}' k8s.io/kubernetes); }

# node_image_tag: iko-plus/kind-node:v1.34.12-<8 hex of a hash of every build input>.
node_image_tag() {
  local n h
  h=$({
    cat "$TIER_DIR/build.sh" "$TIER_DIR/lib/images.sh" "$TIER_DIR"/images/node/manifests/*
    for n in "${NODE_BINARIES[@]}"; do bin_path "$n"; done
    echo "${NODE_PACKAGES[*]} ${KUBE_PROXY_PACKAGES[*]} $DEBIAN_SUITE $PAUSE_VERSION"
    declare -p PRELOAD_IMAGES
    lacks_cap_sys_resource && echo restrict_oom_score_adj
  } | sha256sum | cut -c1-8)
  echo "$NODE_REPO:$K8S_VERSION-$h"
}

# rootfs_tar PACKAGE...: a cached tarball of debootstrap --variant=minbase plus PACKAGE.
rootfs_tar() {
  local key out dir start
  key=$(echo "minbase $DEBIAN_SUITE $DEBIAN_MIRROR $*" | sha256sum | cut -c1-12)
  out=$ROOTFS_DIR/$DEBIAN_SUITE-$key.tar
  if [[ -f $out && $FORCE != 1 ]]; then echo "cached: rootfs $DEBIAN_SUITE-$key" >&2; echo "$out"; return 0; fi
  need_debs /usr/sbin/debootstrap:debootstrap
  mkdir -p "$ROOTFS_DIR" "$LOG_DIR"
  dir=$WORK_DIR/debootstrap; rm -rf "$dir"
  printf 'building rootfs %s (debootstrap minbase + %s packages) ... ' "$DEBIAN_SUITE-$key" "$#" >&2
  start=$SECONDS
  if ! debootstrap --variant=minbase --include="$(IFS=,; echo "$*")" "$DEBIAN_SUITE" "$dir" "$DEBIAN_MIRROR" \
    >"$LOG_DIR/rootfs.log" 2>&1; then
    echo "FAILED (log: $LOG_DIR/rootfs.log)" >&2; tail -n 15 "$LOG_DIR/rootfs.log" | sed 's/^/    /' >&2; return 1
  fi
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/var/log/*.log
  tar -C "$dir" --numeric-owner -cf "$out.tmp" . && mv -f "$out.tmp" "$out" && rm -rf "$dir"
  echo "done in $((SECONDS - start))s" >&2
  record_time rootfs "$DEBIAN_SUITE-$key" "$((SECONDS - start))"
  echo "$out"
}

# small_tree DIR: the skeleton of a component image (/etc/passwd, /etc/group, /tmp).
small_tree() {
  rm -rf "$1" && mkdir -p "$1"/{etc,tmp,usr/local/bin,root} && chmod 1777 "$1/tmp"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$1/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$1/etc/group"
}

# import_tree DIR TAG [--change ...]: a Docker image of the tree DIR.
import_tree() {
  local dir=$1 tag=$2; shift 2
  tar -C "$dir" --numeric-owner -c . | docker import "$@" - "$tag" >/dev/null
}

# pkg_closure ROOT PACKAGE...: installed packages of ROOT that PACKAGE... need, recursively.
pkg_closure() {
  local root=$1 p d; shift
  local -A seen=()
  local -a queue=("$@")
  while ((${#queue[@]})); do
    p=${queue[0]}; queue=("${queue[@]:1}")
    [[ -n ${seen[$p]-} || $p == dpkg || $p == tar ]] && continue # maintainer-script deps only
    # shellcheck disable=SC2016 # dpkg-query's ${field} syntax, not shell
    chroot "$root" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || continue
    seen[$p]=1
    # shellcheck disable=SC2016
    for d in $(chroot "$root" dpkg-query -W -f='${Pre-Depends},${Depends}' "$p" | tr ',|' '\n' | sed 's/(.*)//; s/:any//; s/ //g'); do
      queue+=("$d")
    done
  done
  printf '%s\n' "${!seen[@]}"
}

# pkg_tree ROOT DIR PACKAGE...: copy the files of PACKAGE... and their dependencies from ROOT
# (a merged-/usr tree: /bin, /lib... paths of the package lists are read under /usr).
pkg_tree() {
  local root=$1 dst=$2 p l; shift 2
  small_tree "$dst"
  for l in bin sbin lib lib64; do [[ -L $root/$l ]] && cp -a "$root/$l" "$dst/$l"; done
  for p in $(pkg_closure "$root" "$@"); do
    for l in "$root/var/lib/dpkg/info/$p.list" "$root/var/lib/dpkg/info/$p:amd64.list"; do
      if [[ -f $l ]]; then grep -vxE '/\.|/(bin|sbin|lib|lib64)' "$l" || true; fi
    done
  done | sed -E 's#^/(bin|sbin|lib|lib64)/#/usr/\1/#; s#^/##' | sort -u | tar -C "$root" --no-recursion -cf - -T - 2>/dev/null | tar -C "$dst" -xf -
  cp -a "$root/etc/alternatives" "$dst/etc/"
  # update-alternatives' links (e.g. /usr/sbin/iptables -> /etc/alternatives/iptables) are in no
  # package list: copy those whose alternative the tree holds.
  local alt
  for l in "$root"/usr/bin/* "$root"/usr/sbin/*; do
    [[ -L $l && $(readlink "$l") == /etc/alternatives/* ]] || continue
    alt=$(readlink "$root$(readlink "$l")")
    if [[ -e $dst$alt ]]; then cp -a "$l" "$dst${l#"$root"}"; fi
  done
  [[ -e $dst/bin/sh || -L $dst/bin/sh ]] || ln -s dash "$dst/usr/bin/sh"
}

build_component_images() { # ROOT: the extracted node rootfs (for kube-proxy's tree)
  local root=$1 t=$WORK_DIR/img n k8s_dir
  local path_env='ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  for n in kube-apiserver kube-controller-manager kube-scheduler; do
    small_tree "$t"; install -m 0755 "$(bin_path "$n")" "$t/usr/local/bin/$n"
    import_tree "$t" "registry.k8s.io/$n:$K8S_VERSION" --change "$path_env" --change "ENTRYPOINT [\"/usr/local/bin/$n\"]"
  done
  small_tree "$t"; install -m 0755 "$(bin_path etcd)" "$t/usr/local/bin/etcd"; mkdir -p "$t/var/lib/etcd"
  import_tree "$t" "${PRELOAD_IMAGES[ETCD_IMAGE]}" --change "$path_env" --change 'ENTRYPOINT ["/usr/local/bin/etcd"]'
  small_tree "$t"; install -m 0755 "$(bin_path coredns)" "$t/coredns"
  import_tree "$t" "${PRELOAD_IMAGES[COREDNS_IMAGE]}" --change 'ENTRYPOINT ["/coredns"]' --change 'EXPOSE 53 53/udp'
  # pause: Kubernetes' own build/pause/linux/pause.c, static.
  k8s_dir=$(k8s_module_dir)
  small_tree "$t"
  gcc -Os -static -DVERSION="$PAUSE_VERSION" -o "$t/pause" "$k8s_dir/build/pause/linux/pause.c" && strip "$t/pause"
  import_tree "$t" "${PRELOAD_IMAGES[PAUSE_IMAGE]}" --change 'ENTRYPOINT ["/pause"]' --change 'USER 65535:65535'
  docker tag "${PRELOAD_IMAGES[PAUSE_IMAGE]}" "${PRELOAD_IMAGES[PAUSE_KIND_IMAGE]}"
  # kube-proxy: the files of iptables(-nft), nftables, conntrack and dash from the node rootfs.
  pkg_tree "$root" "$t" "${KUBE_PROXY_PACKAGES[@]}"; install -m 0755 "$(bin_path kube-proxy)" "$t/usr/local/bin/kube-proxy"
  import_tree "$t" "${PRELOAD_IMAGES[KUBE_PROXY_IMAGE]}" --change "$path_env" --change 'ENTRYPOINT ["/usr/local/bin/kube-proxy"]'
  small_tree "$t"; install -m 0755 "$(bin_path kindnet-standin)" "$t/usr/local/bin/kindnet-standin"
  import_tree "$t" "${PRELOAD_IMAGES[KINDNET_IMAGE]}" --change 'ENTRYPOINT ["/usr/local/bin/kindnet-standin"]'
  small_tree "$t"; install -m 0755 "$(bin_path local-path-provisioner)" "$t/usr/local/bin/local-path-provisioner"
  import_tree "$t" "${PRELOAD_IMAGES[STORAGE_PROVISIONER_IMAGE]}" --change "$path_env" --change 'ENTRYPOINT ["/usr/local/bin/local-path-provisioner"]'
  # the helper pod runs "sh -c" scripts: Debian's busybox-static with its applet links.
  need_debs /bin/busybox:busybox-static
  small_tree "$t"; mkdir -p "$t/bin"; install -m 0755 /bin/busybox "$t/bin/busybox"
  for n in $(/bin/busybox --list); do [[ $n == busybox ]] || ln -sf busybox "$t/bin/$n"; done
  import_tree "$t" "${PRELOAD_IMAGES[STORAGE_HELPER_IMAGE]}" --change 'ENV PATH=/bin' --change 'CMD ["sh"]'
  rm -rf "$t"
}

# assemble_node_root ROOT: kind's base files, binaries and config on the extracted rootfs.
assemble_node_root() {
  local r=$1 kind_dir f n
  kind_dir=$(kind_module_dir)/images/base/files
  install -d "$r/usr/local/bin" "$r/kind/bin" "$r/kind/manifests" "$r/LICENSES" "$r/opt/cni/bin" \
    "$r/etc/containerd" "$r/etc/default" "$r/etc/sysctl.d" "$r/etc/systemd/system/kubelet.service.d" "$r/etc/kubernetes/manifests"
  install -m 0755 "$kind_dir"/usr/local/bin/* "$r/usr/local/bin/"
  for f in "$kind_dir"/kind/*; do [[ -f $f ]] && install -m 0644 "$f" "$r/kind/"; done
  install -m 0755 "$kind_dir"/kind/bin/* "$r/kind/bin/"
  install -m 0644 "$kind_dir"/LICENSES/* "$r/LICENSES/"
  for f in "$kind_dir"/etc/*; do [[ -f $f ]] && install -m 0644 "$f" "$r/etc/"; done
  install -m 0644 "$kind_dir"/etc/containerd/* "$r/etc/containerd/"
  install -m 0644 "$kind_dir"/etc/default/* "$r/etc/default/"
  install -m 0644 "$kind_dir"/etc/sysctl.d/* "$r/etc/sysctl.d/"
  for f in "$kind_dir"/etc/systemd/system/*; do [[ -f $f ]] && install -m 0644 "$f" "$r/etc/systemd/system/"; done
  install -m 0644 "$kind_dir"/etc/systemd/system/kubelet.service.d/* "$r/etc/systemd/system/kubelet.service.d/"
  # The unit clean-up of kind's Dockerfile.
  find "$r/lib/systemd/system/sysinit.target.wants/" -name systemd-tmpfiles-setup.service -delete
  rm -f "$r"/lib/systemd/system/multi-user.target.wants/* "$r"/etc/systemd/system/*.wants/* \
    "$r"/lib/systemd/system/local-fs.target.wants/* "$r"/lib/systemd/system/sockets.target.wants/*udev* \
    "$r"/lib/systemd/system/sockets.target.wants/*initctl* "$r"/lib/systemd/system/basic.target.wants/*
  echo "ReadKMsg=no" >>"$r/etc/systemd/journald.conf"
  chroot "$r" ln -sf /lib/systemd/systemd /sbin/init
  chroot "$r" systemctl enable kubelet.service containerd.service undo-mount-hacks.service >/dev/null 2>&1
  chroot "$r" systemctl mask systemd-binfmt.service >/dev/null 2>&1
  for n in containerd containerd-shim-runc-v2 ctr crictl; do install -m 0755 "$(bin_path "$n")" "$r/usr/local/bin/"; done
  for n in kubelet kubeadm kubectl; do install -m 0755 "$(bin_path "$n")" "$r/usr/bin/"; done
  for n in host-local loopback ptp portmap bridge; do install -m 0755 "$(bin_path "$n")" "$r/opt/cni/bin/"; done
  "$(bin_path ctr)" oci spec |
    jq '.hooks.createContainer[.hooks.createContainer| length] |= . + {"path": "/kind/bin/mount-product-files.sh"}' |
    jq 'del(.process.rlimits)' >"$r/etc/containerd/cri-base.json"
  printf '%s' "$K8S_VERSION" >"$r/kind/version"
  if lacks_cap_sys_resource; then
    # This build host's capability bounding set lacks CAP_SYS_RESOURCE, so nothing in a node
    # may set a negative oom_score_adj; containerd asks -998 for every pod sandbox and runc fails
    # ("can't get final child's PID from pipe: EOF"). Let containerd clamp it instead.
    sed -i 's/^\( *\)restrict_oom_score_adj = false/\1# iko-plus: true because the build host lacks CAP_SYS_RESOURCE (see kind-tier\/README.md)\n\1restrict_oom_score_adj = true/' \
      "$r/etc/containerd/config.toml"
    grep -q 'restrict_oom_score_adj = true' "$r/etc/containerd/config.toml" || die "could not set restrict_oom_score_adj"
  fi
  for f in "$TIER_DIR"/images/node/manifests/*.yaml; do install -m 0644 "$f" "$r/kind/manifests/"; done
}

build_node_image() {
  local tag start stage pre ctr_name root tarball old i n
  need_docker
  tag=$(node_image_tag)
  if image_exists "$tag" && [[ $FORCE != 1 ]]; then echo "cached: node-image $tag ($(image_size "$tag"))"; return 0; fi
  for n in "${NODE_BINARIES[@]}"; do build_binary "$n" || return 1; done
  need_debs /usr/bin/gcc:gcc /usr/bin/jq:jq
  tarball=$(rootfs_tar "${NODE_PACKAGES[@]}") || return 1
  echo "building node-image $tag ..."
  start=$SECONDS
  root=$WORK_DIR/node-root; rm -rf "$root"; mkdir -p "$root"
  tar -C "$root" --numeric-owner -xf "$tarball"
  echo "  component images"
  build_component_images "$root" || return 1
  echo "  node tree"
  assemble_node_root "$root" || return 1
  stage=iko-plus-build/node-stage:${tag##*:}; pre=iko-plus-build/node-preloaded:${tag##*:}
  tar -C "$root" --numeric-owner -c . | docker import - "$stage" >/dev/null
  rm -rf "$root"
  echo "  preloading ${#PRELOAD_IMAGES[@]} images into containerd's k8s.io namespace"
  mapfile -t imgs < <(printf '%s\n' "${PRELOAD_IMAGES[@]}" | sort -u)
  for n in "${imgs[@]}"; do printf '    %-58s %s\n' "$n" "$(image_size "$n")"; done
  docker save -o "$WORK_DIR/preload.tar" "${imgs[@]}"
  ctr_name=iko-plus-nodebuild-$$
  docker rm -f "$ctr_name" >/dev/null 2>&1 || true
  # A non-privileged build container that runs only containerd: importing with --no-unpack
  # needs the content store and metadata, no snapshotter.
  docker run -d --name "$ctr_name" --tmpfs /run --tmpfs /tmp -v "$WORK_DIR/preload.tar:/preload.tar:ro" \
    --entrypoint /usr/local/bin/containerd "$stage" >/dev/null
  for ((i = 0; i < 60; i++)); do docker exec "$ctr_name" ctr version >/dev/null 2>&1 && break; sleep 1; done
  if ! docker exec "$ctr_name" ctr -n k8s.io images import --no-unpack /preload.tar >"$LOG_DIR/node-preload.log" 2>&1; then
    docker logs "$ctr_name" >>"$LOG_DIR/node-preload.log" 2>&1; docker rm -f "$ctr_name" >/dev/null
    echo "node-image: preload FAILED (log: $LOG_DIR/node-preload.log)" >&2; tail -n 15 "$LOG_DIR/node-preload.log" >&2; return 1
  fi
  docker exec "$ctr_name" ctr -n k8s.io images ls -q | sed 's/^/    preloaded: /'
  docker stop -t 30 "$ctr_name" >/dev/null
  docker commit --change 'ENTRYPOINT []' --change 'CMD []' "$ctr_name" "$pre" >/dev/null
  docker rm "$ctr_name" >/dev/null; rm -f "$WORK_DIR/preload.tar"
  # docker import/commit refuse STOPSIGNAL; a FROM-only Dockerfile sets it (kind's settings).
  mkdir -p "$WORK_DIR/node-final"
  printf 'FROM %s\nENV container=docker\nSTOPSIGNAL SIGRTMIN+3\nENTRYPOINT ["/usr/local/bin/entrypoint", "/sbin/init"]\n' "$pre" \
    >"$WORK_DIR/node-final/Dockerfile"
  docker build -q -t "$tag" "$WORK_DIR/node-final" >"$LOG_DIR/node-final.log" 2>&1 ||
    { echo "node-image: docker build FAILED (log: $LOG_DIR/node-final.log)" >&2; tail -n 15 "$LOG_DIR/node-final.log" >&2; return 1; }
  # Keep Docker's store to what the tier uses: drop the build tags, the component images (they
  # live on in the node image's containerd) and node images this one replaces.
  docker rmi "$pre" "$stage" "${imgs[@]}" >/dev/null
  for old in $(docker images "$NODE_REPO" --format '{{.Repository}}:{{.Tag}}'); do
    [[ $old == "$tag" ]] || { echo "  removing replaced $old"; docker rmi "$old" >/dev/null || true; }
  done
  echo "node-image $tag done in $((SECONDS - start))s ($(image_size "$tag"))"
  record_time node-image "${tag##*:}" "$((SECONDS - start))"
}

build_registry_image() {
  local t=$WORK_DIR/registry lib v
  need_docker
  if image_exists "$REGISTRY_IMAGE" && [[ $FORCE != 1 ]]; then echo "cached: registry-image $REGISTRY_IMAGE ($(image_size "$REGISTRY_IMAGE"))"; return 0; fi
  need_debs /usr/bin/docker-registry:docker-registry
  v=$(dpkg-query -W -f='${Version}' docker-registry)
  [[ $v == "$REGISTRY_VERSION"* ]] || die "Debian's docker-registry is $v, build.sh pins $REGISTRY_VERSION"
  small_tree "$t"; mkdir -p "$t/usr/bin" "$t/etc/docker/registry" "$t/var/lib/registry"
  install -m 0755 /usr/bin/docker-registry "$t/usr/bin/docker-registry"
  # Debian's binary is dynamic (libc only): copy what ldd lists.
  for lib in $(ldd /usr/bin/docker-registry | grep -o '/[^ ]*'); do
    mkdir -p "$t$(dirname "$lib")"; cp -L "$lib" "$t$lib"
  done
  cat >"$t/etc/docker/registry/config.yml" <<'EOF'
version: 0.1
log:
  fields:
    service: registry
storage:
  filesystem:
    rootdirectory: /var/lib/registry
  delete:
    enabled: true
http:
  addr: :5000
EOF
  import_tree "$t" "$REGISTRY_IMAGE" --change 'EXPOSE 5000' --change 'VOLUME /var/lib/registry' \
    --change 'ENTRYPOINT ["/usr/bin/docker-registry", "serve", "/etc/docker/registry/config.yml"]'
  rm -rf "$t"
  echo "registry-image $REGISTRY_IMAGE built ($(image_size "$REGISTRY_IMAGE"))"
}
