/**
 * Pure manifests of a Push-mode join, with the exact names and fields `karmadactl join` uses
 * (read at karmada v1.15: pkg/karmadactl/join, pkg/util/credential.go, pkg/util/names; unchanged in
 * v1.16.0 and v1.18.2, which the lab and the kind tier join with them).
 */
import { Namespace, PolicyRule, Secret } from "./manifests-types";
import { Cluster } from "./types";

/** Namespace of the join's objects, on the member and in the Karmada API. */
export const KARMADA_CLUSTER_NAMESPACE = "karmada-cluster";
/** The impersonator ServiceAccount (and its token Secret) on every member. */
export const IMPERSONATOR = "karmada-impersonator";
/** Karmada's limit on Cluster names. */
export const MAX_MEMBER_NAME = 48;

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

/** The member namespace, labelled as a Karmada system namespace. */
export function memberNamespace(): Namespace {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: KARMADA_CLUSTER_NAMESPACE, labels: { "karmada.io/system": "true" } },
  };
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

/**
 * What Karmada's controllers may do on a Push member:
 * - "scoped": what a fleet of IrisClusters needs: read nodes and pods (cluster status and resource
 *   summary), API discovery and health endpoints, and full control of the kinds this project
 *   propagates (namespaces, Secrets, ConfigMaps, IrisClusters), and nothing else;
 * - "cluster-admin": everything, as `karmadactl join` grants (needed to propagate other kinds, or
 *   when Karmada runs its unifiedAuth controller, which pushes RBAC objects to members; the Helm
 *   mode and the lab run Karmada with `--controllers=*,-unifiedAuth`).
 */
export type MemberAccess = "scoped" | "cluster-admin";

export const MEMBER_ACCESS: readonly MemberAccess[] = ["scoped", "cluster-admin"];

const ALL_VERBS = ["get", "list", "watch", "create", "update", "patch", "delete"];

/** The ClusterRole rules for Karmada's controllers on a member, by access. */
export function memberClusterRoleRules(access: MemberAccess = "scoped"): PolicyRule[] {
  if (access === "cluster-admin") {
    return [
      { apiGroups: ["*"], resources: ["*"], verbs: ["*"] },
      { nonResourceURLs: ["*"], verbs: ["get"] },
    ];
  }
  return [
    { apiGroups: [""], resources: ["nodes", "pods"], verbs: ["get", "list", "watch"] },
    { apiGroups: [""], resources: ["namespaces", "secrets", "configmaps"], verbs: ALL_VERBS },
    { apiGroups: ["intersystems.com"], resources: ["irisclusters", "irisclusters/status"], verbs: ALL_VERBS },
    {
      nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/version", "/healthz", "/readyz", "/livez"],
      verbs: ["get"],
    },
  ];
}

export interface ClusterObjectArgs {
  /** Member name in Karmada (a DNS-1123 label of at most 48 characters). */
  name: string;
  /** The member's API endpoint as Karmada's controllers reach it (https). */
  apiEndpoint: string;
  /** The UID of the member's kube-system namespace. */
  id: string;
  /** Cloud provider label for placement (e.g. "kind", "gke"). @default left out */
  provider?: string;
  /** Region for placement and spread constraints. @default left out */
  region?: string;
  /** Zones for placement and spread constraints. @default left out */
  zones?: string[];
  /** Labels on the Cluster object (placement by label selector). @default none */
  labels?: Record<string, string>;
}

/** The apiVersion, kind and metadata of a member's Cluster object, in either mode (no outputs needed). */
export function clusterHead(a: Pick<ClusterObjectArgs, "name" | "labels">): Omit<Cluster, "spec"> {
  const metadata: Cluster["metadata"] = { name: a.name };
  if (a.labels && Object.keys(a.labels).length > 0) metadata.labels = a.labels;
  return { apiVersion: "cluster.karmada.io/v1alpha1", kind: "Cluster", metadata };
}

/** The placement fields of a Cluster's spec (provider, region, zones), only those given. */
export function clusterPlacement(
  a: Pick<ClusterObjectArgs, "provider" | "region" | "zones">,
): Partial<Cluster["spec"]> {
  const p: Partial<Cluster["spec"]> = {};
  if (a.provider) p.provider = a.provider;
  if (a.region) p.region = a.region;
  if (a.zones && a.zones.length > 0) p.zones = a.zones;
  return p;
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
