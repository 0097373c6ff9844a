#!/usr/bin/env bash
# Why is Karmada on a kind host cluster not serving `cluster.karmada.io`? Everything here is read
# on the host's control-plane node (its own kubectl, admin kubeconfig and curl), so it works when
# `pulumi up` failed before any output:
#   - the chart's pods (with labels), Services and EndpointSlices in the release namespace;
#   - inside the Karmada API (the chart's kubeconfig, reached at the NodePort on the node itself):
#     the APIService v1alpha1.cluster.karmada.io and the ExternalName Service it names;
#   - from the Karmada apiserver pod's own network namespace and resolv.conf: what the
#     ExternalName resolves to, and who answers https://<it>:443/apis/cluster.karmada.io/v1alpha1
#     (status, body, the certificate's subject), and the same asked of the Service's ClusterIP and
#     of the aggregated apiserver's pod IP;
#   - the tail of each Karmada server's log, current and previous container.
#
# Usage: bash testbed/kind-tier/karmada-diagnose.sh <host-cluster> [namespace] [node-port]
# Defaults: namespace karmada-host (KARMADA_NAMESPACE), node port 32443. Secrets are not printed:
# the kubeconfig stays on the node, in a file removed at the end.
set -uo pipefail
HOST=${1:?usage: karmada-diagnose.sh <host-cluster> [namespace] [node-port]}
NS=${2:-karmada-host}
PORT=${3:-32443}
NODE=$HOST-control-plane
GROUP_PATH=/apis/cluster.karmada.io/v1alpha1

on_node() { docker exec -i "$NODE" bash -s -- "$NS" "$PORT" "$GROUP_PATH"; }

on_node <<'EOF'
NS=$1 PORT=$2 GROUP_PATH=$3
k() { kubectl --kubeconfig=/etc/kubernetes/admin.conf "$@"; }
say() { printf '\n$ %s\n' "$*"; }
KK=$(mktemp)
say "kubectl -n $NS get pods,svc,endpointslices -o wide --show-labels"
k -n "$NS" get pods,svc,endpointslices -o wide --show-labels 2>&1

# The chart's kubeconfig for the Karmada API, pointed at the NodePort on this node.
k -n "$NS" get secret karmada-kubeconfig -o jsonpath='{.data.kubeconfig}' 2>/dev/null | base64 -d >"$KK" 2>/dev/null
if [ -s "$KK" ]; then
  sed -i "s#server: .*#server: https://127.0.0.1:$PORT#" "$KK"
  say "kubectl (Karmada API) get apiservice v1alpha1.cluster.karmada.io (service, conditions)"
  kubectl --kubeconfig="$KK" get apiservice v1alpha1.cluster.karmada.io -o jsonpath='{.spec.service}{"\n"}{range .status.conditions[*]}{.type}={.status} {.reason}: {.message}{"\n"}{end}' 2>&1
  say "kubectl (Karmada API) -n karmada-system get svc karmada-aggregated-apiserver (spec)"
  kubectl --kubeconfig="$KK" -n karmada-system get svc karmada-aggregated-apiserver -o jsonpath='{.spec}{"\n"}' 2>&1
else
  echo "(no Secret $NS/karmada-kubeconfig yet: the chart's pre-install job did not write it)"
fi

EXTERNAL=karmada-aggregated-apiserver.$NS.svc.cluster.local
CLUSTER_IP=$(k -n "$NS" get svc karmada-aggregated-apiserver -o jsonpath='{.spec.clusterIP}' 2>/dev/null)
POD_IPS=$(k -n "$NS" get pods -l app=karmada-aggregated-apiserver -o jsonpath='{range .items[*]}{.status.podIP}{" "}{end}' 2>/dev/null)
APISERVER_POD=$(k -n "$NS" get pods -l app=karmada-apiserver -o jsonpath='{.items[0].metadata.name}' 2>/dev/null)
CID=$(crictl ps -q --label "io.kubernetes.pod.name=$APISERVER_POD" --label io.kubernetes.pod.namespace="$NS" 2>/dev/null | head -n1)
PID=$( [ -n "$CID" ] && crictl inspect --output go-template --template '{{.info.pid}}' "$CID" 2>/dev/null)
# The pod's resolv.conf, copied (a bind mount straight from /proc/<pid>/root does not take).
POD_RESOLV=$(mktemp); trap 'rm -f "$KK" "$POD_RESOLV"' EXIT
[ -n "$PID" ] && cp "/proc/$PID/root/etc/resolv.conf" "$POD_RESOLV"
# ask TARGET [resolve]: GET the group path as the Karmada apiserver would, from its pod's network
# namespace with its pod's resolv.conf; prints what the name resolves to (with `resolve`), the
# status and address that answered, the certificate's subject and the start of the body.
ask() {
  if [ -z "$PID" ]; then echo "(no running karmada-apiserver container on this node)"; return; fi
  nsenter -t "$PID" -n unshare -m bash -s -- "$1" "${2:-}" "$POD_RESOLV" "$GROUP_PATH" <<'ASK'
    mount --bind "$3" /etc/resolv.conf
    [ -n "$2" ] && { getent ahostsv4 "$1" | awk '{print $1}' | sort -u | sed 's/^/  resolves to /'; }
    body=$(mktemp) err=$(mktemp)
    curl -sk -v --max-time 5 -o "$body" -w "  HTTP %{http_code} from %{remote_ip}:%{remote_port}\n" "https://$1:443$4" 2>"$err"
    grep -E "subject:|Could not resolve|Connection refused|timed out|Failed to connect" "$err" | sed 's/^\* */  /'
    head -c 300 "$body" | sed 's/^/  body: /'; echo
    rm -f "$body" "$err"
ASK
}
say "from the karmada-apiserver pod ($APISERVER_POD, pid ${PID:-none}): resolv.conf"
[ -n "$PID" ] && cat "/proc/$PID/root/etc/resolv.conf"
say "from the karmada-apiserver pod: the APIService's ExternalName $EXTERNAL"
ask "$EXTERNAL" resolve
say "from the karmada-apiserver pod: the Service's ClusterIP ${CLUSTER_IP:-none}"
[ -n "$CLUSTER_IP" ] && ask "$CLUSTER_IP"
for ip in $POD_IPS; do say "from the karmada-apiserver pod: the aggregated apiserver's pod IP $ip"; ask "$ip"; done
say "kube-proxy's rules for the Service (iptables or nftables)"
{ iptables-save 2>/dev/null; nft list ruleset 2>/dev/null; } | grep -F "$NS/karmada-aggregated-apiserver" | head -n 20

for d in karmada-aggregated-apiserver karmada-apiserver karmada-controller-manager karmada-kube-controller-manager karmada-scheduler karmada-webhook; do
  for prev in "" --previous; do
    say "kubectl -n $NS logs deploy/$d --all-containers --tail=60 $prev"
    k -n "$NS" logs "deploy/$d" --all-containers --tail=60 $prev 2>&1
  done
done
EOF
