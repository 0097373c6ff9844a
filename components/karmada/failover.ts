/**
 * Cluster failover (Karmada v1.14+): Karmada's cluster controller only puts NoSchedule taints on
 * a Cluster that is not ready; eviction needs a NoExecute taint, which a ClusterTaintPolicy adds
 * from the Cluster's conditions. With the Failover feature gate and
 * `--enable-no-execute-taint-eviction`, the taint manager then evicts the Cluster from every
 * binding, and the scheduler places the objects again (with ordered clusterAffinities: on the
 * next group). The webhook accepts NoExecute in a ClusterTaintPolicy only with
 * `--allow-no-execute-taint-policy=true`.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { onCluster } from "../cluster/handle";
import { customResource } from "../cluster/manifest";
import { KarmadaHandle } from "./control-plane";
import { clusterAffinity } from "./policies";
import { ClusterTarget } from "./selectors";
import { ClusterTaintPolicy } from "./types";

/** The taint Karmada's controllers and docs use for a Cluster whose Ready condition is not True. */
export const NOT_READY_TAINT_KEY = "cluster.karmada.io/not-ready";

export interface NotReadyTaintPolicyArgs {
  /** ClusterTaintPolicy name (cluster-scoped). */
  name: string;
  /** The Clusters it watches. @default every Cluster (targetClusters left out) */
  target?: ClusterTarget;
}

/**
 * A ClusterTaintPolicy that puts `cluster.karmada.io/not-ready:NoExecute` on a Cluster while its
 * Ready condition is not True (False or Unknown) and takes it off when Ready is True again.
 */
export function notReadyTaintPolicy(a: NotReadyTaintPolicyArgs): ClusterTaintPolicy {
  const spec: ClusterTaintPolicy["spec"] = {
    addOnConditions: [{ conditionType: "Ready", operator: "NotIn", statusValues: ["True"] }],
    removeOnConditions: [{ conditionType: "Ready", operator: "In", statusValues: ["True"] }],
    taints: [{ key: NOT_READY_TAINT_KEY, effect: "NoExecute" }],
  };
  const target = a.target ? clusterAffinity(a.target) : {};
  if (Object.keys(target).length > 0) spec.targetClusters = target;
  return { apiVersion: "policy.karmada.io/v1alpha1", kind: "ClusterTaintPolicy", metadata: { name: a.name }, spec };
}

/** Declares the not-ready ClusterTaintPolicy in the Karmada API. */
export function declareNotReadyTaintPolicy(
  resourceName: string,
  karmada: KarmadaHandle,
  args: NotReadyTaintPolicyArgs,
  opts: { parent?: pulumi.Resource; dependsOn?: pulumi.Resource[] } = {},
): k8s.apiextensions.CustomResource {
  return customResource(resourceName, notReadyTaintPolicy(args), {
    parent: opts.parent,
    ...onCluster(karmada),
    dependsOn: [...karmada.readyGate, ...(opts.dependsOn ?? [])],
  });
}
