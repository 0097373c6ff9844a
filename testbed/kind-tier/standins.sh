#!/usr/bin/env bash
# The kind tier's stand-in images, built from the Go stand-ins in test/fixtures/ (they stand in
# for proprietary InterSystems software; see their READMEs):
#   iko-operator/  -> containers.intersystems.com/intersystems/iris-operator-amd:3.8.42.100-standin
#                     and :3.8.43.100-standin (the next version an upgrade moves to; the same
#                     code, its version stamped in: it logs "STAND-IN for IKO <version> starting")
#   iris-standin/  -> containers.intersystems.com/intersystems/iris-community:2025.1-standin
# Each image is labelled with a hash of its sources and rebuilt only when they change; the
# static binary is built in a temporary folder (nothing lands in the repo).
#
# Usage: bash testbed/kind-tier/standins.sh build    build what changed (needs a Docker engine)
#        bash testbed/kind-tier/standins.sh images   print the image names, one per line
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export CGO_ENABLED=0 GOFLAGS="-mod=mod -buildvcs=false" GOTOOLCHAIN=${GOTOOLCHAIN:-local}
# Fields: source folder | binary | image | version stamped into main.version (none: not stamped).
STANDINS=(
  "iko-operator|iko-operator|containers.intersystems.com/intersystems/iris-operator-amd:3.8.42.100-standin|3.8.42.100"
  "iko-operator|iko-operator|containers.intersystems.com/intersystems/iris-operator-amd:3.8.43.100-standin|3.8.43.100"
  "iris-standin|iris-standin|containers.intersystems.com/intersystems/iris-community:2025.1-standin|"
)
LABEL=io.iko-plus.source-hash

src_hash() { # folder: hash of the Go sources, go.mod/go.sum and Dockerfile
  (cd "$REPO/test/fixtures/$1" && find . -type f \( -name '*.go' -o -name 'go.mod' -o -name 'go.sum' -o -name Dockerfile \) -print0 |
    sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}

build() {
  local spec dir bin image version hash have tmp start out
  for spec in "${STANDINS[@]}"; do
    IFS='|' read -r dir bin image version <<<"$spec"
    hash=$(src_hash "$dir")${version:+-$version}
    have=$(docker image inspect --format "{{ index .Config.Labels \"$LABEL\" }}" "$image" 2>/dev/null || true)
    if [[ $have == "$hash" ]]; then echo "standins.sh: $image cached ($hash)"; continue; fi
    start=$SECONDS
    printf 'standins.sh: building %s ... ' "$image"
    tmp=$(mktemp -d)
    (cd "$REPO/test/fixtures/$dir" && go build -trimpath -ldflags="-s -w${version:+ -X main.version=$version}" -o "$tmp/$bin" .)
    cp "$REPO/test/fixtures/$dir/Dockerfile" "$tmp/Dockerfile"
    # (the legacy builder's deprecation notice is noise here; a failure prints everything)
    out=$(docker build -q --label "$LABEL=$hash" -t "$image" "$tmp" 2>&1) || { echo "failed:"; echo "$out"; exit 1; }
    rm -rf "$tmp"
    echo "done in $((SECONDS - start))s ($(docker image inspect --format '{{.Size}}' "$image" | awk '{ printf "%.1f MB", $1 / 1e6 }'))"
  done
  # Older builds of these images (now untagged) go, so Docker's store holds one of each.
  docker image prune -f --filter "label=$LABEL" >/dev/null
}

case "${1:-}" in
  build) build ;;
  images) for spec in "${STANDINS[@]}"; do IFS='|' read -r _ _ image _ <<<"$spec"; echo "$image"; done ;;
  *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
