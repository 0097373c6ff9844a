/**
 * The Kubernetes core, RBAC and apps objects the joins' pure builders return (join-manifests.ts,
 * push-manifests.ts, pull-manifests.ts), typed with only the fields they set, so a misspelt field
 * does not compile. Plain types, not Pulumi inputs: tests read their fields directly, and each is
 * assignable to the matching `@pulumi/kubernetes` resource's input.
 */
import { ManifestMeta } from "../cluster/manifest";

/** Metadata of a namespaced object: its namespace is required. */
export type NamespacedMeta = ManifestMeta & { namespace: string };

/** `v1` Namespace. */
export interface Namespace {
  apiVersion: "v1";
  kind: "Namespace";
  metadata: ManifestMeta;
}

/** `v1` Secret. */
export interface Secret {
  apiVersion: "v1";
  kind: "Secret";
  metadata: NamespacedMeta;
  /** @default left out (Opaque) */
  type?: string;
  /** @default left out */
  data?: Record<string, string>;
  /** @default left out */
  stringData?: Record<string, string>;
}

/** An RBAC rule (rbac.authorization.k8s.io/v1 PolicyRule) with the fields this project sets. */
export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

/** The role a binding grants. */
export interface RoleRef<K extends "ClusterRole" | "Role" = "ClusterRole" | "Role"> {
  apiGroup: "rbac.authorization.k8s.io";
  kind: K;
  name: string;
}

/** Who a binding grants its role to. */
export interface Subject {
  kind: "ServiceAccount" | "User" | "Group";
  name: string;
  /** @default left out (required for a ServiceAccount) */
  namespace?: string;
  /** @default left out ("" for a ServiceAccount, rbac.authorization.k8s.io for a User or Group) */
  apiGroup?: string;
}

/** `rbac.authorization.k8s.io/v1` ClusterRole. */
export interface ClusterRole {
  apiVersion: "rbac.authorization.k8s.io/v1";
  kind: "ClusterRole";
  metadata: ManifestMeta;
  rules: PolicyRule[];
}

/** `rbac.authorization.k8s.io/v1` Role. */
export interface Role {
  apiVersion: "rbac.authorization.k8s.io/v1";
  kind: "Role";
  metadata: NamespacedMeta;
  rules: PolicyRule[];
}

/** `rbac.authorization.k8s.io/v1` ClusterRoleBinding (of a ClusterRole). */
export interface ClusterRoleBinding {
  apiVersion: "rbac.authorization.k8s.io/v1";
  kind: "ClusterRoleBinding";
  metadata: ManifestMeta;
  roleRef: RoleRef<"ClusterRole">;
  subjects: Subject[];
}

/** `rbac.authorization.k8s.io/v1` RoleBinding. */
export interface RoleBinding {
  apiVersion: "rbac.authorization.k8s.io/v1";
  kind: "RoleBinding";
  metadata: NamespacedMeta;
  roleRef: RoleRef;
  subjects: Subject[];
}

/** A container of a Pod template, with the fields the agent's Deployment sets. */
export interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number; protocol?: "TCP" | "UDP" | "SCTP" }[];
  livenessProbe?: {
    httpGet: { path: string; port: number | string; scheme?: "HTTP" | "HTTPS" };
    failureThreshold?: number;
    initialDelaySeconds?: number;
    periodSeconds?: number;
    timeoutSeconds?: number;
  };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

/** A Pod's spec, with the fields the agent's Deployment sets. */
export interface PodSpec {
  serviceAccountName?: string;
  containers: Container[];
  /** @default none (only Secret volumes are typed) */
  volumes?: { name: string; secret: { secretName: string } }[];
  tolerations?: {
    key?: string;
    operator?: "Exists" | "Equal";
    value?: string;
    effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  }[];
}

/** `apps/v1` DeploymentSpec, with the fields the agent's Deployment sets. */
export interface DeploymentSpec {
  replicas?: number;
  strategy?: { type: "Recreate" | "RollingUpdate" };
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
}

/** `apps/v1` Deployment. */
export interface Deployment {
  apiVersion: "apps/v1";
  kind: "Deployment";
  metadata: NamespacedMeta;
  spec: DeploymentSpec;
}
