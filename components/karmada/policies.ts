/**
 * Pure builders of Karmada policies (policy.karmada.io/v1alpha1).
 */
import { Obj } from "./join";

export interface ResourceSelector {
  apiVersion: string;
  kind: string;
  /** @default every object of the kind in the policy's namespace */
  name?: string;
  /** @default the policy's namespace (namespaced policies select only their own namespace) */
  namespace?: string;
}

export interface ClusterTarget {
  /** Members by name. @default no name filter */
  clusterNames?: string[];
  /** Members by Cluster labels (matchLabels). @default no label filter */
  labels?: Record<string, string>;
}

export interface SpreadConstraint {
  spreadByField: "cluster" | "region" | "zone" | "provider";
  /** @default left out (Karmada's default) */
  maxGroups?: number;
  /** @default left out (Karmada's default) */
  minGroups?: number;
}

export interface Placement extends ClusterTarget {
  /**
   * Ordered fallback groups (`clusterAffinities`): Karmada tries the first, then the next when
   * the first cannot host the object (failover). Exclusive with clusterNames/labels.
   * @default none: a single clusterAffinity from clusterNames/labels
   */
  affinities?: ({ name: string } & ClusterTarget)[];
  /** @default none */
  spreadConstraints?: SpreadConstraint[];
}

export function clusterAffinity(t: ClusterTarget): Obj {
  const a: Obj = {};
  if (t.clusterNames && t.clusterNames.length > 0) a.clusterNames = [...t.clusterNames];
  if (t.labels && Object.keys(t.labels).length > 0) a.labelSelector = { matchLabels: { ...t.labels } };
  return a;
}

export function placement(p: Placement): Obj {
  const out: Obj = {};
  if (p.affinities && p.affinities.length > 0) {
    out.clusterAffinities = p.affinities.map((a) => ({ affinityName: a.name, ...clusterAffinity(a) }));
  } else {
    out.clusterAffinity = clusterAffinity(p);
  }
  if (p.spreadConstraints && p.spreadConstraints.length > 0) {
    out.spreadConstraints = p.spreadConstraints.map((s) => {
      const c: Obj = { spreadByField: s.spreadByField };
      if (s.maxGroups !== undefined) c.maxGroups = s.maxGroups;
      if (s.minGroups !== undefined) c.minGroups = s.minGroups;
      return c;
    });
  }
  return out;
}

export interface PropagationPolicyArgs {
  name: string;
  namespace: string;
  resourceSelectors: ResourceSelector[];
  placement: Placement;
  /** Propagate what the objects depend on (needs a dependency interpreter for CRs). @default false */
  propagateDeps?: boolean;
  /** Karmada's conflict handling when the object already exists on a member. @default Abort (left out) */
  conflictResolution?: "Abort" | "Overwrite";
}

export function propagationPolicy(a: PropagationPolicyArgs): Obj {
  const spec: Obj = {
    resourceSelectors: a.resourceSelectors.map((s) => ({ ...s })),
    placement: placement(a.placement),
  };
  if (a.propagateDeps) spec.propagateDeps = true;
  if (a.conflictResolution) spec.conflictResolution = a.conflictResolution;
  return { apiVersion: "policy.karmada.io/v1alpha1", kind: "PropagationPolicy", metadata: { name: a.name, namespace: a.namespace }, spec };
}

export interface PlaintextOverride {
  /** JSON pointer into the object, e.g. /spec/storageClassName. */
  path: string;
  operator: "add" | "remove" | "replace";
  value?: unknown;
}

export interface OverridePolicyArgs {
  name: string;
  namespace: string;
  resourceSelectors: ResourceSelector[];
  /** The members the overrides apply to. */
  target: ClusterTarget;
  /** JSON-patch-like changes (Karmada's plaintext overrider). */
  plaintext: PlaintextOverride[];
}

export function overridePolicy(a: OverridePolicyArgs): Obj {
  return {
    apiVersion: "policy.karmada.io/v1alpha1",
    kind: "OverridePolicy",
    metadata: { name: a.name, namespace: a.namespace },
    spec: {
      resourceSelectors: a.resourceSelectors.map((s) => ({ ...s })),
      overrideRules: [{
        targetCluster: clusterAffinity(a.target),
        overriders: { plaintext: a.plaintext.map((p) => (p.operator === "remove" ? { path: p.path, operator: p.operator } : { ...p })) },
      }],
    },
  };
}
