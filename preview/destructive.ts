/**
 * Pure: the changes of a preview that destroy a cluster or a Karmada join, and what they take
 * with them. Every object the stack puts on a cluster carries that cluster's identity (the
 * `iko-plus.io/cluster-identity` annotation, or a Helm release's description: components/cluster
 * `stampIdentity`), so the objects replaced or deleted with a cluster are those whose old stamp
 * names the cluster's old identity.
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
const IDENTITY_ANNOTATION = "iko-plus.io/cluster-identity";
const RELEASE_PREFIX = "iko-plus cluster ";

/** The cluster identity stamped on a resource's old inputs, if any. */
export function stampOf(state: StateJson | null | undefined): string | undefined {
  const inputs = state?.inputs ?? {};
  if (typeof inputs.description === "string" && inputs.description.startsWith(RELEASE_PREFIX))
    return inputs.description.slice(RELEASE_PREFIX.length);
  const md = inputs.metadata as { annotations?: Record<string, unknown> } | undefined;
  const stamp = md?.annotations?.[IDENTITY_ANNOTATION];
  return typeof stamp === "string" ? stamp : undefined;
}

/** The identity a destroyed cluster or join stamped on what it carried. */
function identityOf(type: string, state: StateJson | null | undefined): string | undefined {
  if (type === "pulumi-nodejs:dynamic/kind:Cluster") {
    const outs = state?.outputs ?? {};
    if (typeof outs.identity === "string") return outs.identity;
    // A cluster made before identities existed: its name.
    return typeof state?.inputs?.name === "string" ? state.inputs.name : undefined;
  }
  // A join: what it stamped in Karmada is `<member> in <karmada>`; the member's own objects carry `<member>`.
  if (type === "kubernetes:cluster.karmada.io/v1alpha1:Cluster") return stampOf(state)?.split(" in ")[0];
  return undefined;
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
  for (const [urn, g] of gone) {
    const what = DESTRUCTIVE_TYPES[g.type];
    if (!what) continue;
    const identity = identityOf(g.type, g.old);
    const carried = [...gone]
      .filter(([other]) => other !== urn)
      .filter(([, o]) => {
        const stamp = stampOf(o.old);
        return (
          identity !== undefined && stamp !== undefined && (stamp === identity || stamp.startsWith(`${identity} in `))
        );
      });
    const irisClusters = carried
      .filter(([, o]) => o.type === IRIS_CLUSTER_TYPE)
      .map(([u]) => last(u))
      .sort();
    out.push({
      name: last(urn),
      type: g.type,
      op: g.op,
      what,
      irisClusters,
      others: carried.length - irisClusters.length,
      identity,
    } as DestructiveChange & { identity?: string });
  }
  // A join made again because its member cluster is replaced is part of that cluster's line.
  const clusters = new Set(
    (out as (DestructiveChange & { identity?: string })[])
      .filter((d) => d.type !== "kubernetes:cluster.karmada.io/v1alpha1:Cluster")
      .map((d) => d.identity),
  );
  return (out as (DestructiveChange & { identity?: string })[])
    .filter((d) => d.type !== "kubernetes:cluster.karmada.io/v1alpha1:Cluster" || !clusters.has(d.identity))
    .map(({ identity: _identity, ...d }) => d);
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
