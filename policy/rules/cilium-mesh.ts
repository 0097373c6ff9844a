/**
 * Rule `cilium-mesh-unique-clusters` (a stack policy): the Cilium releases of a stack that join a
 * ClusterMesh (`values.clustermesh.useAPIServer: true`) must each have their own
 * `values.cluster.id` and `values.cluster.name`. Two mesh members with one id make Cilium's
 * security identities and node ids collide across the mesh (each side's agents then drop or
 * misroute the other's traffic); with one name they overwrite each other's state in KVStoreMesh.
 * Every mesh-enabled Cilium release of the stack counts as one mesh (a stack declares at most
 * one ClusterMesh). The rules are ClusterMesh's own (`checkClusterMeshMembers`), not a copy.
 *
 * A release is Cilium's when its `chart` is `cilium` (a path ending in `/cilium`, or a chart name
 * with the Cilium repository). Releases whose id or name is unknown during preview are skipped.
 */
import { checkClusterMeshMembers } from "../../components/cilium/mesh-values";
import { describe, PolicyResource, StackFinding, at, stringAt } from "./values";

export const CILIUM_MESH_UNIQUE_CLUSTERS = "cilium-mesh-unique-clusters";

/** Whether a Helm chart reference is Cilium's chart. */
export function isCiliumChart(chart: string): boolean {
  return /(^|\/)cilium(-[0-9][^/]*\.tgz)?\/?$/.test(chart);
}

/** A mesh member as a Cilium release declares it. */
interface ReleaseMember {
  r: PolicyResource;
  name: string;
  clusterId: number;
}

/** The Cilium releases that join a ClusterMesh, with their cluster name and id (when known). */
export function meshReleases(resources: PolicyResource[]): ReleaseMember[] {
  const out: ReleaseMember[] = [];
  for (const r of resources) {
    if (r.type !== "kubernetes:helm.sh/v3:Release") continue;
    const chart = stringAt(r.props, "chart");
    if (chart === undefined || !isCiliumChart(chart)) continue;
    if (at(r.props, "values", "clustermesh", "useAPIServer") !== true) continue;
    const name = stringAt(r.props, "values", "cluster", "name");
    const id = at(r.props, "values", "cluster", "id");
    if (name === undefined || typeof id !== "number") continue;
    out.push({ r, name, clusterId: id });
  }
  return out;
}

/** Findings: one per release that repeats the id or name of a member before it (by cluster name, then URN). */
export function duplicateMeshClusters(resources: PolicyResource[]): StackFinding[] {
  // The engine hands the resources over in no fixed order: judge them sorted by cluster name (then
  // URN), so the finding lands on the same release every time.
  const members = meshReleases(resources).sort(
    (a, b) => a.name.localeCompare(b.name) || a.r.urn.localeCompare(b.r.urn),
  );
  const refs = members.map((m) => `${describe(m.r)} (cluster ${JSON.stringify(m.name)})`);
  const position = (urn: string) => resources.findIndex((r) => r.urn === urn);
  const findings = checkClusterMeshMembers(
    members.map((m, i) => ({ ref: refs[i], name: m.name, clusterId: m.clusterId })),
  ).map(([field, value, problem]) => {
    const dot = field.lastIndexOf(".");
    const i = refs.indexOf(field.slice(0, dot));
    const key = field.slice(dot + 1) === "clusterId" ? "id" : "name";
    return {
      urn: members[i].r.urn,
      message: `${refs[i]} joins a Cilium ClusterMesh with values.cluster.${key} ${JSON.stringify(value)}, which ${problem}`,
    };
  });
  // Reported in the stack's order of the releases.
  return findings.sort((a, b) => position(a.urn) - position(b.urn));
}
