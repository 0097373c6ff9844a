/**
 * Config of a stack's Cilium ClusterMesh (`mesh`, in the wfh and fleet stacks): which of the
 * stack's clusters are meshed, their clustermesh-apiserver NodePorts and addresses, the CA.
 * The rules are ClusterMesh's own (components/cilium/mesh-values.ts), reported under config keys.
 */
import { CLUSTERMESH_NODE_PORT, checkClusterMeshMembers, checkNodePort } from "../../components/cilium";
import { DEFAULT_MESH_READY_TIMEOUT_SECONDS, MESH_READY_TIMEOUT_RANGE } from "../../components/cilium/mesh-ready";
import { ClusterConfig, clusterPodSubnet, replacesKubeProxy, reportMemberProblems } from "./cluster";
import { Reader, configNumber } from "./read";

export interface MeshMemberConfig {
  /** A cluster of the stack (its `name`). */
  name: string;
  /** The clustermesh-apiserver's NodePort on this cluster. */
  nodePort: number;
  /** Where the other members reach that NodePort. Unset: a kind cluster's control-plane container, else the host of its peer endpoint. */
  address?: string;
}

export interface MeshConfig {
  members: MeshMemberConfig[];
  /** Raise by one to generate a new mesh CA (and so new certificates everywhere). */
  caGeneration: number;
  /** Seconds `up` waits for the mesh to carry global Services between its members (ClusterMesh's arg). */
  readyTimeoutSeconds: number;
}

export const MESH_KEYS = ["clusters", "ca", "readyTimeoutSeconds"];
const MEMBER_KEYS = ["name", "nodePort", "address"];

/**
 * Reads `mesh`: `{clusters: [<name> | {name, nodePort, address}], ca: {generation}}`. Each entry
 * names a cluster of this stack that runs Cilium, once; between members the cross-cluster rules
 * apply with kind's default pod subnet for a kind cluster that sets none.
 */
export function readMesh(r: Reader, raw: unknown, clusters: ClusterConfig[]): MeshConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  const obj = r.object("mesh", raw);
  r.unknownKeys("mesh", obj, MESH_KEYS);
  const ca = r.object("mesh.ca", obj.ca);
  r.unknownKeys("mesh.ca", ca, ["generation"]);
  const caGeneration = r.integer(
    "mesh.ca.generation",
    ca.generation,
    1,
    1,
    1_000_000,
    " (raise it by one to generate a new mesh CA)",
  );
  const readyTimeoutSeconds = r.integer(
    "mesh.readyTimeoutSeconds",
    obj.readyTimeoutSeconds,
    DEFAULT_MESH_READY_TIMEOUT_SECONDS,
    MESH_READY_TIMEOUT_RANGE.min,
    MESH_READY_TIMEOUT_RANGE.max,
  );
  const list = Array.isArray(obj.clusters) ? obj.clusters : null;
  if (list === null || list.length === 0) {
    r.problems.add(
      "mesh.clusters",
      obj.clusters,
      `must be a non-empty list of this stack's clusters, e.g. [${clusters.map((c) => c.name).join(", ")}]`,
    );
    return { members: [], caGeneration, readyTimeoutSeconds };
  }
  const members: MeshMemberConfig[] = [];
  const memberClusters: ClusterConfig[] = [];
  const keys: string[] = [];
  list.forEach((entry, i) => {
    const key = `mesh.clusters[${i}]`;
    const e = typeof entry === "string" ? { name: entry } : r.object(key, entry);
    if (typeof entry !== "string") r.unknownKeys(key, e, MEMBER_KEYS);
    const name = r.string(typeof entry === "string" ? key : `${key}.name`, e.name);
    if (name === undefined) return;
    const cluster = clusters.find((c) => c.name === name);
    if (!cluster) {
      r.problems.add(key, name, `is not one of this stack's clusters (${clusters.map((c) => c.name).join(", ")})`);
      return;
    }
    if (members.some((m) => m.name === name)) {
      r.problems.add(key, name, "is listed twice; list each cluster once");
      return;
    }
    if (!cluster.cilium.enabled)
      r.problems.add(
        key,
        name,
        `runs no Cilium (${cluster.key}.cilium.enabled is false); set it to true or leave the cluster out of the mesh`,
      );
    const givenPort = configNumber(e.nodePort);
    const portProblem = givenPort === undefined ? undefined : checkNodePort(givenPort);
    if (portProblem) r.problems.add(`${key}.nodePort`, e.nodePort, portProblem);
    const nodePort = givenPort === undefined || portProblem ? CLUSTERMESH_NODE_PORT : givenPort;
    members.push({ name, nodePort, address: r.string(`${key}.address`, e.address) });
    memberClusters.push(cluster);
    keys.push(key);
  });
  const nodePortKeys: Record<string, string> = {};
  memberClusters.forEach((c, i) => {
    nodePortKeys[`${c.key}.nodePort`] = `${keys[i]}.nodePort`;
  });
  reportMemberProblems(
    r,
    memberClusters,
    checkClusterMeshMembers(
      memberClusters.map((c, i) => ({
        ref: c.key,
        name: c.name,
        clusterId: c.cilium.clusterId,
        podSubnet: clusterPodSubnet(c),
        nodePort: members[i].nodePort,
        kubeProxyReplacement: replacesKubeProxy(c),
      })),
    ),
    nodePortKeys,
  );
  return { members, caGeneration, readyTimeoutSeconds };
}
