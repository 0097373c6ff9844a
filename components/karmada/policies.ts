/**
 * Pure builders of Karmada policies (policy.karmada.io/v1alpha1).
 */
import { ClusterTarget } from "./selectors";
import {
  ApplicationFailoverSpec,
  ClusterAffinity,
  FailoverBehaviorSpec,
  LabelSelector,
  OverridePolicy,
  PlacementSpec,
  PropagationPolicy,
  SpreadConstraintSpec,
} from "./types";

export interface ResourceSelector {
  apiVersion: string;
  kind: string;
  /** @default every object of the kind in the policy's namespace */
  name?: string;
  /**
   * Only the policy's own namespace: Karmada v1.17+ denies a (namespaced) PropagationPolicy or
   * OverridePolicy whose selector names another namespace (pkg/util/validation
   * validateResourceSelectors), and earlier versions never matched one. The builders below throw on it.
   * @default the policy's namespace (Karmada's mutating webhook fills it in)
   */
  namespace?: string;
}

/**
 * Problems of a namespaced policy's resourceSelectors: one message per selector that names a
 * namespace other than the policy's (Karmada v1.17+ denies the policy with "namespace of resource
 * selector must be the same as the namespace of the policy"; v1.16 accepted it and selected nothing).
 */
export function resourceSelectorProblems(policyNamespace: string, selectors: ResourceSelector[]): string[] {
  return selectors.flatMap((s, i) =>
    s.namespace !== undefined && s.namespace !== policyNamespace
      ? [
          `resourceSelectors[${i}] (${s.kind} ${s.name ?? "*"}) names namespace "${s.namespace}", not the policy's "${policyNamespace}"; a namespaced policy selects only its own namespace (leave namespace out)`,
        ]
      : [],
  );
}

function checkSelectors(kind: string, name: string, namespace: string, selectors: ResourceSelector[]): void {
  const problems = resourceSelectorProblems(namespace, selectors);
  if (problems.length > 0) throw new Error(`${kind} ${namespace}/${name}: ${problems.join("; ")}`);
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

export function clusterAffinity(t: ClusterTarget): ClusterAffinity {
  const a: ClusterAffinity = {};
  if (t.clusterNames && t.clusterNames.length > 0) a.clusterNames = [...t.clusterNames];
  const labelSelector: LabelSelector = {};
  if (t.labels && Object.keys(t.labels).length > 0) labelSelector.matchLabels = { ...t.labels };
  if (t.matchExpressions && t.matchExpressions.length > 0) {
    labelSelector.matchExpressions = t.matchExpressions.map((e) =>
      e.values && e.values.length > 0
        ? { key: e.key, operator: e.operator, values: [...e.values] }
        : { key: e.key, operator: e.operator },
    );
  }
  if (Object.keys(labelSelector).length > 0) a.labelSelector = labelSelector;
  if (t.regions && t.regions.length > 0)
    a.fieldSelector = { matchExpressions: [{ key: "region", operator: "In", values: [...t.regions] }] };
  return a;
}

export function placement(p: Placement): PlacementSpec {
  const out: PlacementSpec = {};
  if (p.affinities && p.affinities.length > 0) {
    out.clusterAffinities = p.affinities.map((a) => ({ affinityName: a.name, ...clusterAffinity(a) }));
  } else {
    out.clusterAffinity = clusterAffinity(p);
  }
  if (p.spreadConstraints && p.spreadConstraints.length > 0) {
    out.spreadConstraints = p.spreadConstraints.map((s) => {
      const c: SpreadConstraintSpec = { spreadByField: s.spreadByField };
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
  /**
   * Propagate what the objects depend on (needs a dependency interpreter for CRs).
   * @default false, but true whenever failover.application is set (Karmada requires it)
   */
  propagateDeps?: boolean;
  /** Karmada's conflict handling when the object already exists on a member. @default Abort (left out) */
  conflictResolution?: "Abort" | "Overwrite";
  /** `spec.failover`: when and how Karmada moves the objects off a member. @default none (left out) */
  failover?: Failover;
}

/** Application failover: Karmada moves an object that stays unhealthy on a member (health from the interpreter). */
export interface ApplicationFailover {
  /** Seconds the object may stay unhealthy before Karmada moves it. @default 300 (Karmada's default, written out) */
  tolerationSeconds?: number;
  /**
   * What happens to the old copy: `Gracefully` keeps it until the new one is healthy (or
   * gracePeriodSeconds pass), `Directly` deletes it first, `Never` leaves it. @default Gracefully
   */
  purgeMode?: "Directly" | "Gracefully" | "Never";
  /** Only with purgeMode Gracefully: the longest wait before the old copy goes. @default 600 (Karmada's, written out) */
  gracePeriodSeconds?: number;
}

/** `spec.failover` of a (Cluster)PropagationPolicy (policy.karmada.io/v1alpha1, Karmada v1.15 to v1.18, unchanged). */
export interface Failover {
  /** Application failover. @default off (left out) */
  application?: ApplicationFailover;
  /**
   * Cluster failover purge mode for this policy (NoExecute taint eviction). @default left out:
   * the controller's --no-execute-taint-eviction-purge-mode (Gracefully) decides
   */
  cluster?: { purgeMode?: "Directly" | "Gracefully" };
}

/** Karmada's defaults, written out so a preview shows what will happen. */
export const FAILOVER_DEFAULTS = { tolerationSeconds: 300, purgeMode: "Gracefully", gracePeriodSeconds: 600 } as const;

/** The `spec.failover` object; gracePeriodSeconds only with Gracefully (Karmada's webhook rejects it otherwise). */
export function failoverBehavior(f: Failover): FailoverBehaviorSpec {
  const out: FailoverBehaviorSpec = {};
  if (f.application) {
    const a = f.application;
    const purgeMode = a.purgeMode ?? FAILOVER_DEFAULTS.purgeMode;
    const app: ApplicationFailoverSpec = {
      decisionConditions: { tolerationSeconds: a.tolerationSeconds ?? FAILOVER_DEFAULTS.tolerationSeconds },
      purgeMode,
    };
    if (purgeMode === "Gracefully")
      app.gracePeriodSeconds = a.gracePeriodSeconds ?? FAILOVER_DEFAULTS.gracePeriodSeconds;
    out.application = app;
  }
  if (f.cluster) out.cluster = f.cluster.purgeMode ? { purgeMode: f.cluster.purgeMode } : {};
  return out;
}

export function propagationPolicy(a: PropagationPolicyArgs): PropagationPolicy {
  checkSelectors("PropagationPolicy", a.name, a.namespace, a.resourceSelectors);
  const spec: PropagationPolicy["spec"] = {
    resourceSelectors: a.resourceSelectors.map((s) => ({ ...s })),
    placement: placement(a.placement),
  };
  // Karmada's webhook requires propagateDeps with application failover (dependencies move along).
  if (a.propagateDeps || a.failover?.application) spec.propagateDeps = true;
  if (a.conflictResolution) spec.conflictResolution = a.conflictResolution;
  if (a.failover && (a.failover.application || a.failover.cluster)) spec.failover = failoverBehavior(a.failover);
  return {
    apiVersion: "policy.karmada.io/v1alpha1",
    kind: "PropagationPolicy",
    metadata: { name: a.name, namespace: a.namespace },
    spec,
  };
}

export interface PlaintextOverride {
  /** JSON pointer into the object, e.g. /spec/storageClassName. */
  path: string;
  operator: "add" | "remove" | "replace";
  value?: unknown;
}

/**
 * The only overrider written: `plaintext`. Karmada v1.18's webhook requires a `fieldOverrider` to set
 * `json` or `yaml` (exactly one); none is written here, so nothing changes for v1.18.
 */
export interface OverridePolicyArgs {
  name: string;
  namespace: string;
  resourceSelectors: ResourceSelector[];
  /** The members the overrides apply to. */
  target: ClusterTarget;
  /** JSON-patch-like changes (Karmada's plaintext overrider). */
  plaintext: PlaintextOverride[];
}

export function overridePolicy(a: OverridePolicyArgs): OverridePolicy {
  checkSelectors("OverridePolicy", a.name, a.namespace, a.resourceSelectors);
  return {
    apiVersion: "policy.karmada.io/v1alpha1",
    kind: "OverridePolicy",
    metadata: { name: a.name, namespace: a.namespace },
    spec: {
      resourceSelectors: a.resourceSelectors.map((s) => ({ ...s })),
      overrideRules: [
        {
          targetCluster: clusterAffinity(a.target),
          overriders: {
            plaintext: a.plaintext.map((p) =>
              p.operator === "remove" ? { path: p.path, operator: p.operator } : { ...p },
            ),
          },
        },
      ],
    },
  };
}
