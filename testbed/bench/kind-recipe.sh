#!/usr/bin/env bash
# The first article ("operator works from home") typed as a user would, on real kind clusters:
# two `kind create cluster` one after the other (with the kind docs' local-registry steps: the
# containerd patch and a hosts.toml per node, as an air-gapped user must), the work kubeconfig
# as a Secret on home, `helm install` of the IKO chart with the article's two changes (the Secret
# mounted, --kubeconfig) and both webhooks off, the CRD created on work, one IrisCluster, then a
# wait until the operator on home reports it Running. Usage:
#   testbed/bench/kind-recipe.sh <home> <work>
# Needs KIND_BIN, HELM_BIN, KUBECTL_BIN, NODE_IMAGE, IKO_STANDIN_IMAGE, IRIS_STANDIN_IMAGE
# (kind-tier.env) and MIRROR (the registry as nodes reach it, e.g. http://iko-plus-registry:5000).
set -euo pipefail
home=${1:?home cluster name}; work=${2:?work cluster name}
here=$(cd "$(dirname "$0")" && pwd)
repo=$here/..
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: "${KIND_BIN:?}" "${HELM_BIN:?}" "${KUBECTL_BIN:?}" "${NODE_IMAGE:?}" "${IKO_STANDIN_IMAGE:?}" "${IRIS_STANDIN_IMAGE:?}" "${MIRROR:?}"

cat > "$tmp/kind.yaml" <<YAML
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
  - role: control-plane
  - role: worker
containerdConfigPatches:
  - |
    [plugins."io.containerd.grpc.v1.cri".registry]
      config_path = "/etc/containerd/certs.d"
YAML
for c in "$home" "$work"; do
  "$KIND_BIN" create cluster --name "$c" --image "$NODE_IMAGE" --config "$tmp/kind.yaml" --kubeconfig "$tmp/$c.kubeconfig" >/dev/null 2>&1
  for node in $("$KIND_BIN" get nodes --name "$c"); do
    for reg in docker.io containers.intersystems.com; do
      docker exec "$node" mkdir -p "/etc/containerd/certs.d/$reg"
      printf '[host."%s/v2/%s"]\n  capabilities = ["pull", "resolve"]\n  override_path = true\n' "$MIRROR" "$reg" |
        docker exec -i "$node" cp /dev/stdin "/etc/containerd/certs.d/$reg/hosts.toml"
    done
  done
done
kh() { "$KUBECTL_BIN" --kubeconfig "$tmp/$home.kubeconfig" "$@"; }
kw() { "$KUBECTL_BIN" --kubeconfig "$tmp/$work.kubeconfig" "$@"; }

"$KIND_BIN" get kubeconfig --internal --name "$work" > "$tmp/work-internal.kubeconfig"
kh create namespace iko >/dev/null
kh -n iko create secret generic work-kubeconfig --from-file=config="$tmp/work-internal.kubeconfig" >/dev/null

# The article's chart edit: mount the Secret and pass --kubeconfig.
cp -r "$repo/test/fixtures/iko-chart/iris-operator" "$tmp/chart"
python3 - "$tmp/chart/templates/deployment.yaml" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("            - run\n", "            - run\n            - --kubeconfig=/airgap/.kube/config\n", 1)
s = s.replace("          volumeMounts:\n", "          volumeMounts:\n            - mountPath: /airgap/.kube\n              name: work-kubeconfig\n              readOnly: true\n", 1)
s = s.replace("      volumes:\n", "      volumes:\n        - name: work-kubeconfig\n          secret:\n            secretName: work-kubeconfig\n", 1)
open(p, "w").write(s)
PY
repo_tag=${IKO_STANDIN_IMAGE#*/}
"$HELM_BIN" install iko "$tmp/chart" --namespace iko --kubeconfig "$tmp/$home.kubeconfig" \
  --set apiserver.enableMutatingWebhook=false --set apiserver.enableValidatingWebhook=false \
  --set operator.registry="${IKO_STANDIN_IMAGE%%/*}" --set operator.repository="${repo_tag%:*}" --set operator.tag="${IKO_STANDIN_IMAGE##*:}" >/dev/null

kw create -f "$repo/test/fixtures/crds/irisclusters.intersystems.com.yaml" >/dev/null
kw apply -f - >/dev/null <<YAML
apiVersion: intersystems.com/v1alpha1
kind: IrisCluster
metadata:
  name: iris-at-work
  namespace: default
spec:
  topology:
    data:
      image: $IRIS_STANDIN_IMAGE
YAML
for _ in $(seq 1 600); do
  [ "$(kw get iriscluster iris-at-work -o jsonpath='{.status.phase}' 2>/dev/null)" = Running ] && exit 0
  sleep 0.5
done
echo "kind-recipe.sh: iris-at-work never became Running" >&2
exit 1
