#!/usr/bin/env bash
# The Kamino recipe's Karmada upgraded by hand, on the fleet testbed/bench/kind-kamino-recipe.sh made (run
# with RECIPE_DIR=<dir> and the older Karmada's chart, version and images): `helm upgrade` of the
# release with the values the recipe installed it with, the newer chart, version and images, and
# --wait; then, as a user checks it, until the member's Cluster is Ready again and a new
# IrisCluster, propagated after the upgrade, is Running on the member. The article's member is
# joined in Push mode (`karmadactl join`), so no agent runs and none is upgraded. Usage:
#   testbed/bench/kind-karmada-upgrade-recipe.sh <host> <member> <recipe dir>
# Needs HELM_BIN, KUBECTL_BIN, IRIS_STANDIN_IMAGE, KUBE_APISERVER_IMAGE,
# KUBE_CONTROLLER_MANAGER_IMAGE, and the newer Karmada's KARMADA_CHART_PATH, KARMADA_VERSION and
# KARMADA_IMAGE_* (karmada-images.env).
set -euo pipefail
host=${1:?host cluster name}; member=${2:?member cluster name}; dir=${3:?the recipe folder (RECIPE_DIR)}
: "${HELM_BIN:?}" "${KUBECTL_BIN:?}" "${IRIS_STANDIN_IMAGE:?}" "${KARMADA_CHART_PATH:?}" "${KARMADA_VERSION:?}"
: "${KUBE_APISERVER_IMAGE:?}" "${KUBE_CONTROLLER_MANAGER_IMAGE:?}"
km() { "$KUBECTL_BIN" --kubeconfig "$dir/$member.kubeconfig" "$@"; }
kk() { "$KUBECTL_BIN" --kubeconfig "$dir/ikokamino.kubeconfig" "$@"; }

img() { # key image: --set key.image.{registry,repository,tag}
  local ref=$2 rest
  rest=${ref#*/}
  echo "--set $1.image.registry=${ref%%/*} --set $1.image.repository=${rest%:*} --set $1.image.tag=${ref##*:}"
}
# shellcheck disable=SC2046 # img prints several words on purpose
"$HELM_BIN" upgrade karmada "$KARMADA_CHART_PATH" --namespace karmada-system --kubeconfig "$dir/$host.kubeconfig" \
  --wait --timeout 15m --set apiServer.serviceType=NodePort --set apiServer.nodePort=32443 --set karmadaImageVersion="$KARMADA_VERSION" \
  $(img apiServer "$KUBE_APISERVER_IMAGE") $(img kubeControllerManager "$KUBE_CONTROLLER_MANAGER_IMAGE") $(img etcd.internal "$KARMADA_IMAGE_ETCD") \
  $(img cfssl "$KARMADA_IMAGE_CFSSL") $(img kubectl "$KARMADA_IMAGE_KUBECTL") $(img aggregatedApiServer "$KARMADA_IMAGE_AGGREGATED_API_SERVER") \
  $(img controllerManager "$KARMADA_IMAGE_CONTROLLER_MANAGER") $(img scheduler "$KARMADA_IMAGE_SCHEDULER") $(img webhook "$KARMADA_IMAGE_WEBHOOK") >/dev/null

# Until the member's Cluster is Ready again (read through the aggregated cluster API).
for _ in $(seq 1 300); do
  [ "$(kk get cluster "$member" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ] && break
  sleep 1
done
kk apply -f - >/dev/null <<YAML
apiVersion: intersystems.com/v1alpha1
kind: IrisCluster
metadata:
  name: after-upgrade
  namespace: default
spec:
  topology:
    data:
      image: $IRIS_STANDIN_IMAGE
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: after-upgrade-propagate
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: intersystems.com/v1alpha1
      kind: IrisCluster
      name: after-upgrade
  placement:
    clusterAffinity:
      clusterNames: [$member]
YAML
for _ in $(seq 1 900); do
  [ "$(km get iriscluster after-upgrade -o jsonpath='{.status.phase}' 2>/dev/null)" = Running ] && exit 0
  sleep 0.5
done
echo "kind-karmada-upgrade-recipe.sh: after-upgrade never became Running on $member" >&2
exit 1
