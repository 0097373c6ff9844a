/**
 * Pure: the changes of a preview that destroy a cluster or a Karmada join, and what they take
 * with them: the objects replaced or deleted through that cluster's Kubernetes provider (the
 * component's `<name>-k8s` beside its `<name>-kind` or `<name>-gke`).
 */
import type { PreviewJson, StateJson } from "./summary";

/** A cluster or join that a preview replaces or deletes, and what goes with it. */
export interface DestructiveChange {
  /** The resource's name (last URN segment). */
  name: string;
  type: string;
  op: "replace" | "delete";
  /** What it is, in words. */
  what: string;
  /** The IrisClusters replaced or deleted with it, by resource name. */
  irisClusters: string[];
  /** How many other objects are replaced or deleted with it. */
  others: number;
}

/** The resource types whose replacement or deletion destroys what is on them, in words. */
export const DESTRUCTIVE_TYPES: Record<string, string> = {
  "pulumi-nodejs:dynamic/kind:Cluster": "kind cluster",
  "gcp:container/cluster:Cluster": "GKE cluster",
  "kubernetes:cluster.karmada.io/v1alpha1:Cluster": "Karmada join",
};

const IRIS_CLUSTER_TYPE = "kubernetes:intersystems.com/v1alpha1:IrisCluster";
const JOIN_TYPE = "kubernetes:cluster.karmada.io/v1alpha1:Cluster";

/** The URN of the Kubernetes provider a cluster resource's component made beside it, if it has one. */
export function providerUrnOf(urn: string, type: string): string | undefined {
  const forType: Record<string, [string, RegExp]> = {
    "pulumi-nodejs:dynamic/kind:Cluster": ["$pulumi-nodejs:dynamic/kind:Cluster::", /-kind$/],
    "gcp:container/cluster:Cluster": ["$gcp:container/cluster:Cluster::", /-gke$/],
  };
  const t = forType[type];
  if (!t || !urn.includes(t[0]) || !t[1].test(urn)) return undefined;
  return urn.replace(t[0], "$pulumi:providers:kubernetes::").replace(t[1], "-k8s");
}

/** The cluster name a kind or GKE resource, or a join's Cluster object, stands for. */
function clusterName(type: string, state: StateJson | null | undefined): string | undefined {
  const inputs = state?.inputs ?? {};
  if (type === JOIN_TYPE) return (inputs.metadata as { name?: string } | undefined)?.name;
  return typeof inputs.name === "string" ? inputs.name : undefined;
}

const last = (urn: string) => urn.split("::").pop() ?? urn;

/** The clusters and joins a preview replaces or deletes, each with what goes with it, in the preview's order. */
export function destructiveChanges(preview: PreviewJson): DestructiveChange[] {
  const gone = new Map<string, { op: "replace" | "delete"; type: string; old?: StateJson | null }>();
  for (const step of preview.steps ?? []) {
    const op =
      step.op === "delete"
        ? "delete"
        : ["replace", "create-replacement", "delete-replaced"].includes(step.op)
          ? "replace"
          : undefined;
    if (!op) continue;
    const type = step.oldState?.type ?? step.newState?.type ?? "";
    const prior = gone.get(step.urn);
    gone.set(step.urn, { op, type, old: prior?.old ?? step.oldState });
  }
  const out: DestructiveChange[] = [];
  const destroyedClusters = new Set<string>();
  for (const [urn, g] of gone) {
    const what = DESTRUCTIVE_TYPES[g.type];
    if (!what || g.type === JOIN_TYPE) continue;
    const provider = providerUrnOf(urn, g.type);
    const carried = [...gone].filter(
      ([other, o]) => other !== urn && provider !== undefined && (o.old?.provider ?? "").startsWith(`${provider}::`),
    );
    const irisClusters = carried
      .filter(([, o]) => o.type === IRIS_CLUSTER_TYPE)
      .map(([u]) => last(u))
      .sort();
    const name = clusterName(g.type, g.old);
    if (name) destroyedClusters.add(name);
    out.push({
      name: last(urn),
      type: g.type,
      op: g.op,
      what,
      irisClusters,
      others: carried.length - irisClusters.length,
    });
  }
  // A join on its own (a member left or re-joined); one made again because its member cluster is
  // replaced is part of that cluster's line.
  for (const [urn, g] of gone) {
    if (g.type !== JOIN_TYPE || destroyedClusters.has(clusterName(g.type, g.old) ?? "")) continue;
    out.push({ name: last(urn), type: g.type, op: g.op, what: DESTRUCTIVE_TYPES[g.type], irisClusters: [], others: 0 });
  }
  return out;
}

/** One line of the PR comment for a destructive change. */
export function destructiveLine(d: DestructiveChange): string {
  const verb = d.op === "replace" ? "is replaced" : "is deleted";
  const iris = d.irisClusters.length
    ? `${d.irisClusters.length} IrisCluster${d.irisClusters.length === 1 ? "" : "s"} (${d.irisClusters.map((n) => `\`${n}\``).join(", ")})`
    : "";
  const others = d.others ? `${d.others} other object${d.others === 1 ? "" : "s"}` : "";
  const what =
    d.type === "kubernetes:cluster.karmada.io/v1alpha1:Cluster"
      ? "Karmada removes what it propagated to that member"
      : [iris, others].filter(Boolean).join(" and ") || "nothing else the stack owns";
  const takes = d.type === "kubernetes:cluster.karmada.io/v1alpha1:Cluster" ? what : `it takes with it ${what}`;
  const data = d.irisClusters.length ? "; data on the old cluster's volumes is lost" : "";
  return `- **Destructive:** \`${d.name}\` (${d.what}) ${verb}: ${takes}${data}.`;
}
