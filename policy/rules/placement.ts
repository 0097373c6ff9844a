/**
 * Rule `placement-names-joined-clusters` (a stack policy): every cluster name in a Karmada
 * PropagationPolicy / ClusterPropagationPolicy placement (`clusterAffinity.clusterNames`,
 * `clusterAffinities[].clusterNames`) and in an OverridePolicy / ClusterOverridePolicy target
 * (`overrideRules[].targetCluster.clusterNames`, `targetCluster.clusterNames`) must be the
 * name of a Karmada `Cluster` (cluster.karmada.io) declared in the same stack, through the same
 * provider (Karmada API). A name that is not joined places nothing, silently.
 */
import { describe, joinPath, listAt, objectRef, PolicyResource, PolicyValue, StackFinding, stringAt } from "./values";

export const PLACEMENT_NAMES_JOINED_CLUSTERS = "placement-names-joined-clusters";

const CLUSTER_TYPE = /^kubernetes:cluster\.karmada\.io\/[^:]+:Cluster$/;
const PROPAGATION_TYPE = /^kubernetes:policy\.karmada\.io\/[^:]+:(Cluster)?PropagationPolicy$/;
const OVERRIDE_TYPE = /^kubernetes:policy\.karmada\.io\/[^:]+:(Cluster)?OverridePolicy$/;

/** Every cluster name a policy places on or overrides for, with its property path. */
export function placedClusterNames(r: PolicyResource): { path: string; name: string }[] {
  const lists: { path: string; values: PolicyValue[] }[] = [];
  if (PROPAGATION_TYPE.test(r.type)) {
    lists.push({ path: "spec.placement.clusterAffinity.clusterNames", values: listAt(r.props, "spec", "placement", "clusterAffinity", "clusterNames") });
    listAt(r.props, "spec", "placement", "clusterAffinities").forEach((a, i) =>
      lists.push({ path: `spec.placement.clusterAffinities[${i}].clusterNames`, values: listAt(a, "clusterNames") }));
  } else if (OVERRIDE_TYPE.test(r.type)) {
    lists.push({ path: "spec.targetCluster.clusterNames", values: listAt(r.props, "spec", "targetCluster", "clusterNames") });
    listAt(r.props, "spec", "overrideRules").forEach((rule, i) =>
      lists.push({ path: `spec.overrideRules[${i}].targetCluster.clusterNames`, values: listAt(rule, "targetCluster", "clusterNames") }));
  }
  return lists.flatMap((l) => l.values.flatMap((v, i) => (typeof v === "string" ? [{ path: joinPath(l.path, i), name: v }] : [])));
}

/** Findings of the rule over all resources of a stack. */
export function unjoinedPlacements(resources: PolicyResource[]): StackFinding[] {
  const clusters = resources.filter((r) => CLUSTER_TYPE.test(r.type));
  const out: StackFinding[] = [];
  for (const r of resources) {
    const names = placedClusterNames(r);
    if (names.length === 0) continue;
    const joined = clusters
      .filter((c) => c.provider === undefined || r.provider === undefined || c.provider === r.provider)
      .map((c) => stringAt(c.props, "metadata", "name"))
      .filter((n): n is string => n !== undefined);
    const joinedText = joined.length > 0 ? `joined: ${[...new Set(joined)].sort().join(", ")}` : "no Cluster is joined in this stack";
    for (const { path, name } of names) {
      if (joined.includes(name)) continue;
      out.push({ urn: r.urn, message: `${describe(r)} (${objectRef(r.props)}): ${path} is ${JSON.stringify(name)}, ` +
        `which is not a Karmada Cluster joined in this stack through the same Karmada (${joinedText}); ` +
        "join that cluster in this stack (clusters[].join) or remove the name" });
    }
  }
  return out;
}
