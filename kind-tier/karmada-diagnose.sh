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
# Usage: bash kind-tier/karmada-diagnose.sh <host-cluster> [namespace] [node-port]
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
KK=$(mktemp); trap 'rm -f "$KK"' EXIT
say "kubectl -n $NS get pods,svc,endpointslices -o wide --show-labels"
k -n "$NS" get pods,svc,endpointslices -o wide --show-labels 2>&1

# The chart's kubeconfig for the Karmada API, pointed at the NodePort on this node.
k -n "$NS" get secret karmada-kubeconfig -o jsonpath='{.data.kubeconfig}' 2>/dev/null | base64 -d >"$KK" 2>/dev/null
if [ -s "$KK" ]; then
  sed -i "s#server: .*#server: https://127.0.0.1:$PORT#" "$KK"
  say "kubectl (Karmada API) get apiservice v1alpha1.cluster.karmada.io -o yaml"
  kubectl --kubeconfig="$KK" get apiservice v1alpha1.cluster.karmada.io -o yaml 2>&1 | grep -v '^\s*caBundle:'
  say "kubectl (Karmada API) -n karmada-system get svc karmada-aggregated-apiserver -o yaml"
  kubectl --kubeconfig="$KK" -n karmada-system get svc karmada-aggregated-apiserver -o yaml 2>&1
else
  echo "(no Secret $NS/karmada-kubeconfig yet: the chart's pre-install job did not write it)"
fi

EXTERNAL=karmada-aggregated-apiserver.$NS.svc.cluster.local
CLUSTER_IP=$(k -n "$NS" get svc karmada-aggregated-apiserver -o jsonpath='{.spec.clusterIP}' 2>/dev/null)
POD_IPS=$(k -n "$NS" get pods -l app=karmada-aggregated-apiserver -o jsonpath='{range .items[*]}{.status.podIP}{" "}{end}' 2>/dev/null)
APISERVER_POD=$(k -n "$NS" get pods -l app=karmada-apiserver -o jsonpath='{.items[0].metadata.name}' 2>/dev/null)
CID=$(crictl ps -q --label "io.kubernetes.pod.name=$APISERVER_POD" --label io.kubernetes.pod.namespace="$NS" 2>/dev/null | head -n1)
PID=$( [ -n "$CID" ] && crictl inspect --output go-template --template '{{.info.pid}}' "$CID" 2>/dev/null)
# ask TARGET [RESOLVE]: GET the group path as the Karmada apiserver would, from its pod's network
# namespace with its pod's resolv.conf; prints status, remote address, certificate subject, body.
ask() {
  local url="https://$1:443$GROUP_PATH" extra=${2:-}
  if [ -z "$PID" ]; then echo "(no running karmada-apiserver container on this node)"; return; fi
  nsenter -t "$PID" -n unshare -m bash -c '
    mount --bind /proc/'"$PID"'/root/etc/resolv.conf /etc/resolv.conf 2>/dev/null
    [ -n "'"$extra"'" ] && getent ahostsv4 "'"$1"'" | head -n 3
    out=$(curl -sk -v --max-time 5 -o /tmp/body.$$ -w "HTTP %{http_code} from %{remote_ip}:%{remote_port}" "'"$url"'" 2>/tmp/err.$$)
    echo "$out"; grep -E "subject:|issuer:|Could not resolve|Connection refused|timed out" /tmp/err.$$ | sed "s/^/  /"
    head -c 400 /tmp/body.$$; echo; rm -f /tmp/body.$$ /tmp/err.$$'
}
say "from the karmada-apiserver pod ($APISERVER_POD, pid ${PID:-none}): resolv.conf"
[ -n "$PID" ] && cat "/proc/$PID/root/etc/resolv.conf"
say "from the karmada-apiserver pod: the APIService's ExternalName $EXTERNAL"
ask "$EXTERNAL" resolve
say "from the karmada-apiserver pod: the Service's ClusterIP ${CLUSTER_IP:-none}"
[ -n "$CLUSTER_IP" ] && ask "$CLUSTER_IP"
for ip in $POD_IPS; do say "from the karmada-apiserver pod: the aggregated apiserver's pod IP $ip"; ask "$ip"; done
say "iptables rules of the Service (kube-proxy)"
iptables-save 2>/dev/null | grep -E "karmada-aggregated-apiserver" | head -n 20

for d in karmada-aggregated-apiserver karmada-apiserver karmada-controller-manager karmada-kube-controller-manager karmada-scheduler karmada-webhook; do
  for prev in "" --previous; do
    say "kubectl -n $NS logs deploy/$d --all-containers --tail=60 $prev"
    k -n "$NS" logs "deploy/$d" --all-containers --tail=60 $prev 2>&1
  done
done
EOF
