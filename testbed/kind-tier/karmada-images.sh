#!/usr/bin/env bash
# Karmada's chart and images for the kind tier, at the version testbed/lab/tools/karmada pins (v1.18.2)
# and at each version the tier upgrades from (KARMADA_UPGRADE_SOURCES in lib/karmada.sh, v1.16.0):
# the chart folder (charts/karmada of the Go module, plus a stand-in of its `common` library
# dependency) and the images its values name, built from binaries (Karmada's from testbed/lab/build.sh,
# etcd and kubectl from testbed/kind-tier/build.sh, cfssl/cfssljson/etcdctl here from
# tools/karmada-images), each image labelled with a hash of its inputs and rebuilt only when they
# change. See testbed/kind-tier/lib/karmada.sh and testbed/kind-tier/README.md ("Karmada's chart and images").
#
# Usage: bash testbed/kind-tier/karmada-images.sh build    build what changed (needs a Docker engine)
#        bash testbed/kind-tier/karmada-images.sh images   print the image names, one per line
#        bash testbed/kind-tier/karmada-images.sh push     push them to the mirror (registry.sh push)
#        bash testbed/kind-tier/karmada-images.sh chart [v] print the chart folder (karmada.chartPath; default version)
#        bash testbed/kind-tier/karmada-images.sh versions print the versions, the default first
# Writes $CACHE/karmada-images.env: KARMADA_VERSION, KARMADA_CHART_PATH, KARMADA_IMAGE_<KEY>,
# KARMADA_UPGRADE_SOURCES and KARMADA_CHART_PATH_<V> of each.
set -euo pipefail
TIER_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=testbed/lib/go-build.sh
. "$TIER_DIR/../lib/go-build.sh"
CACHE=${IKO_KIND_CACHE:-$HOME/.cache/iko-plus-kind}
LOG_DIR=$CACHE/logs
WORK_DIR=$CACHE/work
TIMES_LOG=$CACHE/build-times.tsv
FORCE=${IKO_KIND_FORCE:-0}
K8S_VERSION=v1.34.12 # testbed/kind-tier/build.sh's: its kubectl and rootfs are reused
KARMADA_BINARIES=(karmada-aggregated-apiserver karmada-controller-manager karmada-scheduler karmada-webhook karmada-agent)

die() { echo "karmada-images.sh: $*" >&2; exit 1; }
record_time() { printf '%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" "$3" >>"$TIMES_LOG"; }
# shellcheck source-path=SCRIPTDIR source=lib/images.sh
. "$TIER_DIR/lib/images.sh"
# shellcheck source-path=SCRIPTDIR source=lib/karmada.sh
. "$TIER_DIR/lib/karmada.sh"

# Every version's images, each once.
all_images() {
  local v
  for v in $(karmada_versions); do use_karmada_version "$v"; karmada_images | sed 's/^[^=]*=//'; done | awk '!seen[$0]++'
}

case "${1:-}" in
  build)
    start=$SECONDS
    # The default's binaries are the lab's (testbed/lab/build.sh); an upgrade source's are built here.
    bash "$TIER_DIR/../lab/build.sh" "${KARMADA_BINARIES[@]}"
    # etcd, kubectl and the rootfs come from testbed/kind-tier/build.sh (not run here: it rewrites
    # kind-tier.env, which other runs may be reading); build_karmada_images says what is missing.
    for v in $(karmada_versions); do
      use_karmada_version "$v"
      build_karmada_binaries
      build_karmada_chart
      build_karmada_images
    done
    write_karmada_env
    echo "karmada-images.sh: done in $((SECONDS - start))s (env file: $CACHE/karmada-images.env)" ;;
  images) all_images ;;
  push) mapfile -t imgs < <(all_images); bash "$TIER_DIR/registry.sh" push "${imgs[@]}" ;;
  chart) [[ -n ${2:-} ]] && use_karmada_version "$2"; karmada_chart_dir ;;
  versions) karmada_versions ;;
  *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
