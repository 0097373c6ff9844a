/**
 * A GKE cluster's settings (`<key>.gke`) as the fleet and region stacks read them: one mapping onto
 * GkeCluster's args, checked by the component's own `checkGkeClusterArgs`.
 */
import { checkGkeClusterArgs } from "../../../components/gcp";
import { Raw, Reader, configNumber } from "../../config/read";

export interface GkeConfig {
  /** The Google Cloud project. Default: the provider's (gcp:project). */
  project?: string;
  /** A region (regional cluster) or zone. Default: the region stack's region; required elsewhere. */
  location: string;
  /** Nodes per zone of the node pool. Default: 1. */
  nodeCount: number;
  /** The nodes' machine type. Default: e2-standard-4. */
  machineType: string;
  /** GKE's own deletion protection. Default: true. */
  deletionProtection: boolean;
}

export const GKE_KEYS = ["project", "location", "nodeCount", "machineType", "deletionProtection"];

/**
 * Reads `<key>.gke` of the cluster named `clusterName`. `defaultLocation` gives the location when
 * none is set (the region stack's region) and the config key it comes from: when that key already
 * has a problem, the location it would give is not judged again. Without it, a location is required.
 */
export function readGke(
  r: Reader,
  key: string,
  raw: unknown,
  clusterName: string,
  defaultLocation?: { key: string; value: string | undefined },
): GkeConfig {
  const g: Raw = r.object(`${key}.gke`, raw);
  r.unknownKeys(`${key}.gke`, g, GKE_KEYS);
  const location = r.string(`${key}.gke.location`, g.location, defaultLocation?.value || undefined);
  const machineType = r.string(`${key}.gke.machineType`, g.machineType, "e2-standard-4") as string;
  const nodeCount = configNumber(g.nodeCount);
  const inherited = g.location === undefined && defaultLocation !== undefined && r.problems.has(defaultLocation.key);
  const problems = checkGkeClusterArgs({ clusterName, location, nodeCount, machineType }).filter(
    ([field]) => !(inherited && field === "location"),
  );
  r.componentProblems(problems, {
    clusterName: `${key}.name`,
    location: `${key}.gke.location`,
    nodeCount: [`${key}.gke.nodeCount`, g.nodeCount],
    machineType: `${key}.gke.machineType`,
  });
  return {
    project: r.string(`${key}.gke.project`, g.project),
    location: location ?? "",
    nodeCount: nodeCount === undefined || problems.some(([f]) => f === "nodeCount") ? 1 : nodeCount,
    machineType,
    deletionProtection: r.boolean(`${key}.gke.deletionProtection`, g.deletionProtection, true),
  };
}
