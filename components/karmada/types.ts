/**
 * The Karmada API objects this project writes (Karmada v1.18.2 and v1.16.0: the same fields), typed with only the fields it
 * sets, so a misspelt field does not compile. Written from the CRDs of the Go module
 * (`charts/karmada/_crds/bases`) and the Cluster type (`pkg/apis/cluster/v1alpha1`), and checked
 * against those CRDs' schemas, closed to unknown fields, in test/unit/karmada-schema.test.ts.
 */
import { Manifest } from "../cluster/manifest";

export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  /** @default left out (Exists and DoesNotExist take none) */
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** `fieldSelector` of a ClusterAffinity: Karmada matches provider, region and zone. */
export interface FieldSelector {
  matchExpressions: { key: "provider" | "region" | "zone"; operator: "In" | "NotIn"; values: string[] }[];
}

export interface ClusterAffinity {
  clusterNames?: string[];
  exclude?: string[];
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
}

/** One ordered group of `placement.clusterAffinities`. */
export interface ClusterAffinityTerm extends ClusterAffinity {
  affinityName: string;
}

export interface SpreadConstraintSpec {
  spreadByField: "cluster" | "region" | "zone" | "provider";
  maxGroups?: number;
  minGroups?: number;
}

export interface PlacementSpec {
  clusterAffinity?: ClusterAffinity;
  clusterAffinities?: ClusterAffinityTerm[];
  spreadConstraints?: SpreadConstraintSpec[];
}

export interface ResourceSelectorSpec {
  apiVersion: string;
  kind: string;
  name?: string;
  namespace?: string;
}

export interface ApplicationFailoverSpec {
  decisionConditions: { tolerationSeconds: number };
  purgeMode: "Directly" | "Gracefully" | "Never";
  gracePeriodSeconds?: number;
}

export interface FailoverBehaviorSpec {
  application?: ApplicationFailoverSpec;
  cluster?: { purgeMode?: "Directly" | "Gracefully" };
}

export interface PropagationPolicy extends Manifest {
  apiVersion: "policy.karmada.io/v1alpha1";
  kind: "PropagationPolicy";
  spec: {
    resourceSelectors: ResourceSelectorSpec[];
    placement: PlacementSpec;
    propagateDeps?: boolean;
    conflictResolution?: "Abort" | "Overwrite";
    failover?: FailoverBehaviorSpec;
  };
}

export interface PlaintextOverrider {
  path: string;
  operator: "add" | "remove" | "replace";
  value?: unknown;
}

export interface OverridePolicy extends Manifest {
  apiVersion: "policy.karmada.io/v1alpha1";
  kind: "OverridePolicy";
  spec: {
    resourceSelectors: ResourceSelectorSpec[];
    overrideRules: { targetCluster: ClusterAffinity; overriders: { plaintext: PlaintextOverrider[] } }[];
  };
}

export interface MatchCondition {
  conditionType: string;
  operator: "In" | "NotIn";
  statusValues: ("True" | "False" | "Unknown")[];
}

export interface ClusterTaintPolicy extends Manifest {
  apiVersion: "policy.karmada.io/v1alpha1";
  kind: "ClusterTaintPolicy";
  spec: {
    targetClusters?: ClusterAffinity;
    addOnConditions: MatchCondition[];
    removeOnConditions: MatchCondition[];
    taints: { key: string; value?: string; effect: "NoSchedule" | "NoExecute" }[];
  };
}

export interface ResourceInterpreterCustomization extends Manifest {
  apiVersion: "config.karmada.io/v1alpha1";
  kind: "ResourceInterpreterCustomization";
  spec: {
    target: { apiVersion: string; kind: string };
    customizations: Partial<
      Record<
        | "retention"
        | "replicaResource"
        | "replicaRevision"
        | "statusReflection"
        | "statusAggregation"
        | "healthInterpretation"
        | "dependencyInterpretation",
        { luaScript: string }
      >
    >;
  };
}

/** A reference to a Secret in the Karmada API. */
export interface SecretRef {
  namespace: string;
  name: string;
}

/** `cluster.karmada.io/v1alpha1` Cluster (served by karmada-aggregated-apiserver, no CRD). */
export interface Cluster extends Manifest {
  apiVersion: "cluster.karmada.io/v1alpha1";
  kind: "Cluster";
  spec: {
    syncMode: "Push" | "Pull";
    apiEndpoint?: string;
    id?: string;
    secretRef?: SecretRef;
    impersonatorSecretRef?: SecretRef;
    provider?: string;
    region?: string;
    zones?: string[];
  };
}
