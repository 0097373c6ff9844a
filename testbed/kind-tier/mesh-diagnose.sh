#!/usr/bin/env bash
# Why does a Cilium ClusterMesh between kind clusters not carry a global Service? Read on each
# cluster's control-plane node (its own kubectl and admin kubeconfig), so it works when `pulumi up`
# failed before any output. Per cluster:
#   - Cilium's and the clustermesh-apiserver's pods and the clustermesh-apiserver Service;
#   - every agent's `cilium-dbg status --verbose` ClusterMesh section (remote clusters, their
#     readiness, sync state and the count of global services they sent) and its global services
#     (`cilium-dbg service list`, the entries with backends in another cluster);
#   - what this cluster's clustermesh-apiserver exports (the Services annotated global) and what
#     its KVStoreMesh holds of each remote (`kvstoremesh-dbg status --verbose`: the services each
#     remote exported);
#   - the tail of the clustermesh-apiserver's containers' logs.
# This is evidence for the "remote clusters ready, 0 global-services" state (issue 35): whether the
# remote exported nothing, or exported and this agent did not take it.
#
# Usage: bash testbed/kind-tier/mesh-diagnose.sh <cluster> [<cluster>...]
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: mesh-diagnose.sh <cluster> [<cluster>...]" >&2; exit 2; }
for CLUSTER in "$@"; do
  NODE=$CLUSTER-control-plane
  printf '\n=== %s\n' "$CLUSTER"
  docker exec -i "$NODE" bash -s <<'EOF'
k() { kubectl --kubeconfig=/etc/kubernetes/admin.conf "$@"; }
say() { printf '\n$ %s\n' "$*"; }
say "kubectl -n kube-system get pods (cilium, clustermesh-apiserver), svc clustermesh-apiserver"
k -n kube-system get pods -o wide -l 'k8s-app in (cilium,clustermesh-apiserver)' 2>&1
k -n kube-system get svc clustermesh-apiserver -o wide 2>&1
for pod in $(k -n kube-system get pods -l k8s-app=cilium -o jsonpath='{.items[*].metadata.name}'); do
  say "$pod: cilium-dbg status --verbose (ClusterMesh)"
  k -n kube-system exec "$pod" -c cilium-agent -- cilium-dbg status --verbose 2>&1 | sed -n '/^ClusterMesh/,/^[A-Z][A-Za-z ]*:/p' | head -40
  say "$pod: cilium-dbg service list (entries with a remote backend)"
  k -n kube-system exec "$pod" -c cilium-agent -- cilium-dbg service list 2>&1 | head -60
done
say "Services annotated global (what this cluster's clustermesh-apiserver exports)"
k get svc -A -o jsonpath='{range .items[?(@.metadata.annotations.service\.cilium\.io/global=="true")]}{.metadata.namespace}/{.metadata.name}{"\n"}{end}' 2>&1
api=$(k -n kube-system get pods -l k8s-app=clustermesh-apiserver -o jsonpath='{.items[0].metadata.name}' 2>/dev/null)
if [ -n "$api" ]; then
  # The images have no shell and no etcdctl: ask the binaries themselves. KVStoreMesh holds what
  # each remote cluster's clustermesh-apiserver exported (its services count per remote); the
  # agents read it from here, so a count here and none at the agent means the agent did not take it.
  say "$api: clustermesh-apiserver kvstoremesh-dbg status --verbose (what each remote exported, cached here)"
  k -n kube-system exec "$api" -c kvstoremesh -- clustermesh-apiserver kvstoremesh-dbg status --verbose 2>&1 | head -40
  for c in $(k -n kube-system get pod "$api" -o jsonpath='{.spec.containers[*].name}'); do
    say "$api: logs -c $c --tail 40"
    k -n kube-system logs "$api" -c "$c" --tail 40 2>&1
  done
fi
EOF
done
