#!/usr/bin/env bash
# End-to-end check of the kind tier on this machine (what the product's KindCluster does):
# a 2-node cluster A and a 1-node cluster B from the built node image, the mirror wired into
# each node's containerd, then: nodes Ready, CoreDNS Running, a PVC of the default StorageClass
# bound and written, a pod whose image exists only in the mirror, and a pod of A reaching B's
# API server at https://<B>-control-plane:6443. Deletes what it created unless --keep.
#
# Usage: bash testbed/kind-tier/smoke.sh [--keep]
# Environment: IKO_SMOKE_PREFIX (cluster names <prefix>-a, <prefix>-b; default ikp-smoke),
#              IKO_REGISTRY_NAME / IKO_REGISTRY_PORT (see registry.sh), IKO_KIND_CACHE.
# Needs: bash testbed/kind-tier/engine.sh up && bash testbed/kind-tier/build.sh
set -euo pipefail

TIER_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${IKO_KIND_CACHE:-$HOME/.cache/iko-plus-kind}
PREFIX=${IKO_SMOKE_PREFIX:-ikp-smoke}
A=$PREFIX-a B=$PREFIX-b
REG=${IKO_REGISTRY_NAME:-iko-plus-registry}
KEEP=0; [[ ${1:-} == --keep ]] && KEEP=1
[[ -f $CACHE/kind-tier.env ]] || { echo "smoke.sh: run testbed/kind-tier/build.sh first" >&2; exit 1; }
set -a; # shellcheck disable=SC1091
. "$CACHE/kind-tier.env"; set +a
WORK=$(mktemp -d)
HELLO=docker.io/iko-plus/hello:1

step() { printf '\n== %s\n' "$*"; }
kc() { "$KUBECTL_BIN" --kubeconfig "$WORK/$1.kubeconfig" "${@:2}"; }
cleanup() {
  ((KEEP)) && { echo "kept clusters $A $B and registry $REG (kubeconfigs in $WORK)"; return; }
  step "clean-up"
  "$KIND_BIN" delete cluster --name "$A" || true
  "$KIND_BIN" delete cluster --name "$B" || true
  bash "$TIER_DIR/registry.sh" down || true
  rm -rf "$WORK"
}
trap cleanup EXIT

cat >"$WORK/kind.yaml" <<'EOF'
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
containerdConfigPatches:
- |-
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "/etc/containerd/certs.d"
nodes:
- role: control-plane
EOF
{ cat "$WORK/kind.yaml"; echo "- role: worker"; } >"$WORK/kind-2.yaml"

step "registry $REG and an image only the mirror has ($HELLO)"
bash "$TIER_DIR/registry.sh" up
mkdir -p "$WORK/hello/bin"; cp /bin/busybox "$WORK/hello/bin/"
for c in sh echo sleep wget nc cat; do ln -s busybox "$WORK/hello/bin/$c"; done
tar -C "$WORK/hello" -c . | docker import --change 'CMD ["sh", "-c", "echo hello from the mirror; sleep 3600"]' - "$HELLO" >/dev/null
bash "$TIER_DIR/registry.sh" push "$HELLO"
docker rmi "$HELLO" >/dev/null

# create NAME CONFIG: kind create cluster, then point every node's containerd at the mirror.
create() {
  local s=$SECONDS n
  "$KIND_BIN" create cluster --name "$1" --image "$NODE_IMAGE" --config "$2" --kubeconfig "$WORK/$1.kubeconfig" --wait 3m
  echo "created $1 in $((SECONDS - s))s"
  for n in $("$KIND_BIN" get nodes --name "$1"); do
    docker exec "$n" mkdir -p /etc/containerd/certs.d/docker.io
    bash "$TIER_DIR/registry.sh" hosts-toml docker.io | docker exec -i "$n" tee /etc/containerd/certs.d/docker.io/hosts.toml >/dev/null
  done
}

step "cluster $A (control plane + worker)"
create "$A" "$WORK/kind-2.yaml"
kc "$A" wait --for=condition=Ready node --all --timeout=120s
kc "$A" get nodes -o wide
kc "$A" -n kube-system wait --for=condition=Ready pod -l k8s-app=kube-dns --timeout=120s
kc "$A" get pods -A -o wide

step "PVC of the default StorageClass, written by a pod"
kc "$A" apply -f - <<EOF
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: smoke-pvc}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Mi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: smoke-writer}
spec:
  restartPolicy: Never
  containers:
  - name: w
    image: $STORAGE_HELPER_IMAGE
    command: [sh, -c, "echo written-by-smoke > /data/f && cat /data/f"]
    volumeMounts: [{name: d, mountPath: /data}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: smoke-pvc}}]
EOF
kc "$A" wait --for=jsonpath='{.status.phase}'=Succeeded pod/smoke-writer --timeout=180s
kc "$A" get pvc smoke-pvc
kc "$A" logs smoke-writer

step "a pod whose image is only in the mirror"
kc "$A" run smoke-hello --image "$HELLO" --restart=Never
kc "$A" wait --for=condition=Ready pod/smoke-hello --timeout=120s
kc "$A" logs smoke-hello

step "cluster $B (one node); a pod of $A reaches https://$B-control-plane:6443"
create "$B" "$WORK/kind.yaml"
# /version is readable anonymously (system:public-info-viewer); busybox wget speaks TLS.
kc "$A" exec smoke-hello -- wget -q -O - --no-check-certificate "https://$B-control-plane:6443/version" |
  grep '"gitVersion"'

step "memory and sizes"
docker stats --no-stream --format '{{.Name}}\t{{.MemUsage}}' | grep -E "^($A|$B)-" || true
docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | grep -E 'iko-plus/(kind-node|registry)'
echo "smoke.sh: all checks passed"
