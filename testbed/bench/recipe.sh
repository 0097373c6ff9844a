#!/usr/bin/env bash
# The Kamino article's manual steps, typed as a user would, against a running lab: apply the
# IrisCluster CRD in Karmada (the article exports it from a member; the benchmark creates it there
# beforehand, and on the members, where the article's IKO has created it, see testbed/bench/lab-runs.ts),
# join each member with karmadactl, apply the IrisCluster and the PropagationPolicy, then wait until
# the IrisCluster exists on every member. Usage: testbed/bench/recipe.sh <member>...
# Needs IKO_LAB_DIR (the lab folder) and IKO_LAB_BIN_DIR (kubectl, karmadactl).
set -euo pipefail
lab=${IKO_LAB_DIR:?}; bin=${IKO_LAB_BIN_DIR:?}
here=$(cd "$(dirname "$0")" && pwd)
crd=$here/../../test/fixtures/crds/irisclusters.intersystems.com.yaml
kamino=$lab/karmada/kubeconfig
members=("$@")

"$bin/kubectl" --kubeconfig "$kamino" apply -f "$crd" >/dev/null

for m in "${members[@]}"; do
  "$bin/karmadactl" join "$m" --kubeconfig "$kamino" --cluster-kubeconfig "$lab/$m/kubeconfig" >/dev/null
done

clusters=$(printf '        - %s\n' "${members[@]}")
"$bin/kubectl" --kubeconfig "$kamino" apply -f - >/dev/null <<YAML
apiVersion: intersystems.com/v1alpha1
kind: IrisCluster
metadata:
  name: federated-iris
  namespace: default
spec:
  topology:
    data:
      image: containers.intersystems.com/intersystems/iris-community:2025.1
  serviceTemplate:
    spec:
      type: LoadBalancer
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
  placement:
    clusterAffinity:
      clusterNames:
$clusters
YAML

for m in "${members[@]}"; do
  until "$bin/kubectl" --kubeconfig "$lab/$m/kubeconfig" get iriscluster federated-iris -n default >/dev/null 2>&1; do sleep 0.2; done
done
