/**
 * Pure manifests of a Push-mode join, with the exact names and fields `karmadactl join` uses
 * (read at karmada v1.15: pkg/karmadactl/join, pkg/util/credential.go, pkg/util/names; unchanged in
 * v1.16.0 and v1.18.2, which the lab and the kind tier join with them). What both modes share is
 * in join-manifests.ts.
 */
import { ClusterObjectArgs, KARMADA_CLUSTER_NAMESPACE, clusterHead, clusterPlacement } from "./join-manifests";
import { Secret } from "./manifests-types";
import { Cluster } from "./types";

/** The impersonator ServiceAccount (and its token Secret) on every member. */
export const IMPERSONATOR = "karmada-impersonator";

/** ServiceAccount (and token Secret) Karmada's controllers use on the member. */
export function memberServiceAccountName(cluster: string): string {
  return `karmada-${cluster}`;
}

/** ClusterRole and ClusterRoleBinding name on the member. */
export function memberClusterRoleName(cluster: string): string {
  return `karmada-controller-manager:${memberServiceAccountName(cluster)}`;
}

/** Karmada-side Secret holding the impersonator token. */
export function impersonatorSecretName(cluster: string): string {
  return `${cluster}-impersonator`;
}

/** A long-lived token Secret for a ServiceAccount on the member. */
export function tokenSecret(serviceAccount: string): Secret {
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: "kubernetes.io/service-account-token",
    metadata: {
      name: serviceAccount,
      namespace: KARMADA_CLUSTER_NAMESPACE,
      annotations: { "kubernetes.io/service-account.name": serviceAccount },
    },
  };
}

/** The spec of a Push-mode member's Cluster: its endpoint, id, the join's Secrets and placement fields. */
export function pushClusterSpec(a: Omit<ClusterObjectArgs, "labels">): Cluster["spec"] {
  return {
    syncMode: "Push",
    apiEndpoint: a.apiEndpoint,
    id: a.id,
    secretRef: { namespace: KARMADA_CLUSTER_NAMESPACE, name: a.name },
    impersonatorSecretRef: { namespace: KARMADA_CLUSTER_NAMESPACE, name: impersonatorSecretName(a.name) },
    ...clusterPlacement(a),
  };
}

/** The `cluster.karmada.io/v1alpha1` Cluster object of a Push-mode member. */
export function clusterObject(a: ClusterObjectArgs): Cluster {
  return { ...clusterHead(a), spec: pushClusterSpec(a) };
}
