/**
 * Pure names and manifests both join modes share (Push: push-manifests.ts, Pull:
 * pull-manifests.ts): the join's namespace, the member-side access rules, the sync modes and the
 * Cluster object's head and placement fields, with the names `karmadactl join` and `register` use
 * (read at karmada v1.15 and again at v1.16.0 and v1.18.2).
 */
import { Namespace, PolicyRule } from "./manifests-types";
import { Cluster } from "./types";

/** Namespace of the join's objects, on the member and in the Karmada API. */
export const KARMADA_CLUSTER_NAMESPACE = "karmada-cluster";
/** Karmada's limit on Cluster names. */
export const MAX_MEMBER_NAME = 48;

/** How Karmada and a member talk: Push (Karmada calls the member's API) or Pull (karmada-agent on the member calls Karmada). */
export type SyncMode = "Push" | "Pull";
export const SYNC_MODES: readonly SyncMode[] = ["Push", "Pull"];

/** The member namespace, labelled as a Karmada system namespace. */
export function memberNamespace(): Namespace {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: KARMADA_CLUSTER_NAMESPACE, labels: { "karmada.io/system": "true" } },
  };
}

/**
 * What Karmada's controllers may do on a Push member (and, with the same rules, karmada-agent on a
 * Pull member, pull-manifests.ts):
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
