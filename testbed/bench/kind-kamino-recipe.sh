#!/usr/bin/env bash
# The second article ("Kamino") typed as a user would, on real kind clusters: two `kind create
# cluster` one after the other (the host with the NodePort mapped, both with the kind docs'
# local-registry steps: the containerd patch and a hosts.toml per node), `helm install` of the
# IKO chart on each, `helm install karmada` into karmada-system as the article does (NodePort,
# 127.0.0.1 is a default SAN, the images pinned)
# with --wait, the generated kubeconfig read and its server edited, the CRD exported into Karmada,
# `karmadactl join` of the member, the IrisCluster and its PropagationPolicy, then a wait until
# the operator on the member reports it Running. Usage:
#   testbed/bench/kind-kamino-recipe.sh <host> <member>
# Needs KIND_BIN, HELM_BIN, KUBECTL_BIN, KARMADACTL_BIN, NODE_IMAGE, IKO_STANDIN_IMAGE,
# IRIS_STANDIN_IMAGE, KUBE_APISERVER_IMAGE, KUBE_CONTROLLER_MANAGER_IMAGE (kind-tier.env),
# KARMADA_CHART_PATH and KARMADA_IMAGE_* (karmada-images.env) and MIRROR (the registry as nodes
# reach it, e.g. http://iko-plus-registry:5000). With RECIPE_DIR set, the kubeconfigs are kept
# there (testbed/bench/kind-karmada-upgrade-recipe.sh carries on from them); else in a temporary folder.
set -euo pipefail
host=${1:?host cluster name}; member=${2:?member cluster name}
here=$(cd "$(dirname "$0")" && pwd)
repo=$here/..
if [ -n "${RECIPE_DIR:-}" ]; then tmp=$RECIPE_DIR; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
: "${KIND_BIN:?}" "${HELM_BIN:?}" "${KUBECTL_BIN:?}" "${KARMADACTL_BIN:?}" "${NODE_IMAGE:?}" "${IKO_STANDIN_IMAGE:?}" "${IRIS_STANDIN_IMAGE:?}" "${MIRROR:?}"
: "${KARMADA_CHART_PATH:?}" "${KUBE_APISERVER_IMAGE:?}" "${KUBE_CONTROLLER_MANAGER_IMAGE:?}"

kind_config() { # extra node lines
  cat <<YAML
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
  - role: control-plane
$1
containerdConfigPatches:
  - |
    [plugins."io.containerd.grpc.v1.cri".registry]
      config_path = "/etc/containerd/certs.d"
YAML
}
kind_config "    extraPortMappings:
      - containerPort: 32443
        hostPort: 32443" > "$tmp/$host.yaml"
kind_config "" > "$tmp/$member.yaml"
for c in "$host" "$member"; do
  "$KIND_BIN" create cluster --name "$c" --image "$NODE_IMAGE" --config "$tmp/$c.yaml" --kubeconfig "$tmp/$c.kubeconfig" >/dev/null 2>&1
  for node in $("$KIND_BIN" get nodes --name "$c"); do
    for reg in docker.io containers.intersystems.com; do
      docker exec "$node" mkdir -p "/etc/containerd/certs.d/$reg"
      printf '[host."%s/v2/%s"]\n  capabilities = ["pull", "resolve"]\n  override_path = true\n' "$MIRROR" "$reg" |
        docker exec -i "$node" cp /dev/stdin "/etc/containerd/certs.d/$reg/hosts.toml"
    done
  done
done
kh() { "$KUBECTL_BIN" --kubeconfig "$tmp/$host.kubeconfig" "$@"; }
km() { "$KUBECTL_BIN" --kubeconfig "$tmp/$member.kubeconfig" "$@"; }

repo_tag=${IKO_STANDIN_IMAGE#*/}
for c in "$host" "$member"; do
  "$HELM_BIN" install iko "$repo/test/fixtures/iko-chart/iris-operator" --namespace iko --create-namespace --kubeconfig "$tmp/$c.kubeconfig" \
    --set apiserver.enableMutatingWebhook=false --set apiserver.enableValidatingWebhook=false \
    --set operator.registry="${IKO_STANDIN_IMAGE%%/*}" --set operator.repository="${repo_tag%:*}" --set operator.tag="${IKO_STANDIN_IMAGE##*:}" >/dev/null
done
km apply -f "$repo/test/fixtures/crds/irisclusters.intersystems.com.yaml" >/dev/null

img() { # key image: --set key.image.{registry,repository,tag}
  local ref=$2 rest
  rest=${ref#*/}
  echo "--set $1.image.registry=${ref%%/*} --set $1.image.repository=${rest%:*} --set $1.image.tag=${ref##*:}"
}
# shellcheck disable=SC2046 # img prints several words on purpose
"$HELM_BIN" install karmada "$KARMADA_CHART_PATH" --namespace karmada-system --create-namespace --kubeconfig "$tmp/$host.kubeconfig" \
  --wait --timeout 15m --set apiServer.serviceType=NodePort --set apiServer.nodePort=32443 --set karmadaImageVersion="$KARMADA_VERSION" \
  $(img apiServer "$KUBE_APISERVER_IMAGE") $(img kubeControllerManager "$KUBE_CONTROLLER_MANAGER_IMAGE") $(img etcd.internal "$KARMADA_IMAGE_ETCD") \
  $(img cfssl "$KARMADA_IMAGE_CFSSL") $(img kubectl "$KARMADA_IMAGE_KUBECTL") $(img aggregatedApiServer "$KARMADA_IMAGE_AGGREGATED_API_SERVER") \
  $(img controllerManager "$KARMADA_IMAGE_CONTROLLER_MANAGER") $(img scheduler "$KARMADA_IMAGE_SCHEDULER") $(img webhook "$KARMADA_IMAGE_WEBHOOK") >/dev/null

# The article's kubeconfig edit: the generated one names the in-cluster service.
kh -n karmada-system get secret karmada-kubeconfig -o jsonpath='{.data.kubeconfig}' | base64 -d > "$tmp/ikokamino.kubeconfig"
sed -i -E 's#server: https://[^ ]+#server: https://127.0.0.1:32443#' "$tmp/ikokamino.kubeconfig"
kk() { "$KUBECTL_BIN" --kubeconfig "$tmp/ikokamino.kubeconfig" "$@"; }
# Until the aggregated cluster API answers a list (its discovery answers before its lists do).
for _ in $(seq 1 120); do kk get clusters.cluster.karmada.io >/dev/null 2>&1 && break; sleep 1; done

# The CRD exported from the member (where IKO's chart would have put it) into Karmada.
km get crd irisclusters.intersystems.com -o yaml | grep -vE '^\s+(creationTimestamp|resourceVersion|uid|generation):' | kk create -f - >/dev/null

# karmadactl join with the member's kubeconfig at the node's address (reachable from this host and from pods).
ip=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}' "$member-control-plane" | awk '{print $1}')
sed -E "s#server: https://[^ ]+#server: https://$ip:6443#" "$tmp/$member.kubeconfig" > "$tmp/$member-peer.kubeconfig"
# Retyped, as a user would, while the just-started aggregated API still answers 503 now and then.
for try in 1 2 3 4 5; do
  "$KARMADACTL_BIN" join "$member" --kubeconfig "$tmp/ikokamino.kubeconfig" --cluster-kubeconfig "$tmp/$member-peer.kubeconfig" >/dev/null 2>"$tmp/join.err" && break
  [ "$try" = 5 ] && {
    cat "$tmp/join.err" >&2
    # Not typed by a user: why the aggregated cluster API is not Available, for the bench's error.
    kk get apiservice v1alpha1.cluster.karmada.io -o jsonpath='{.status.conditions}' >&2 || true
    exit 1
  }
  sleep 2
done

kk apply -f - >/dev/null <<YAML
apiVersion: intersystems.com/v1alpha1
kind: IrisCluster
metadata:
  name: federated-iris
  namespace: default
spec:
  topology:
    data:
      image: $IRIS_STANDIN_IMAGE
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: iriscluster-propagate
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: intersystems.com/v1alpha1
      kind: IrisCluster
      name: federated-iris
  placement:
    clusterAffinity:
      clusterNames: [$member]
YAML
for _ in $(seq 1 900); do
  [ "$(km get iriscluster federated-iris -o jsonpath='{.status.phase}' 2>/dev/null)" = Running ] && exit 0
  sleep 0.5
done
echo "kind-kamino-recipe.sh: federated-iris never became Running on $member" >&2
exit 1
