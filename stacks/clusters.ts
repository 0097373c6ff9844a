/**
 * Turns a validated cluster config into a cluster handle (as its source declares it), with its CNI.
 */
import * as pulumi from "@pulumi/pulumi";
import { CiliumCni, ClusterMesh, MeshCniArgs } from "../components/cilium";
import { ClusterHandle, withReadyGate } from "../components/cluster";
import { MeshConfig, clusterPodSubnet, replacesKubeProxy } from "./config";
import { ClusterEnv, StackCluster, clusterSource } from "./sources";

export type { ClusterEnv, StackCluster };

/** Declares the cluster and, when enabled, Cilium on it; returns the handle gated on the CNI. */
export function declareCluster(c: StackCluster, env: ClusterEnv): ClusterHandle {
  return declareCni(c, declareBareCluster(c, env)).handle;
}

/**
 * Declares every cluster, then (with `mesh`) the Cilium ClusterMesh between its members, then
 * Cilium on each: a member's Cilium release carries its mesh values and waits for its mesh
 * Secrets; then the wait until the mesh carries global Services between every pair of members.
 * Returns the handles by name, each gated on its CNI (a mesh member's also on that wait), and
 * the mesh.
 */
export function declareClusters(
  configs: StackCluster[],
  env: ClusterEnv,
  mesh?: MeshConfig,
): { handles: Map<string, ClusterHandle>; mesh?: ClusterMesh } {
  const bare = new Map(configs.map((c) => [c.name, declareBareCluster(c, env)] as const));
  let clusterMesh: ClusterMesh | undefined;
  if (mesh && mesh.members.length > 0) {
    clusterMesh = new ClusterMesh("mesh", {
      ca: { generate: { generation: mesh.caGeneration } },
      readyTimeoutSeconds: mesh.readyTimeoutSeconds,
      members: mesh.members.map((m) => {
        const c = configs.find((x) => x.name === m.name) as StackCluster;
        return {
          cluster: bare.get(c.name) as ClusterHandle,
          clusterId: c.cilium.clusterId,
          podSubnet: clusterPodSubnet(c),
          // Known before the cluster exists for some sources (a fresh preview shows it).
          address: m.address ?? clusterSource(c.source).traits.controlPlaneAddress?.(c.name),
          nodePort: m.nodePort,
          kubeProxyReplacement: replacesKubeProxy(c),
        };
      }),
    });
  }
  const handles = new Map<string, ClusterHandle>();
  const meshMembers: Record<string, { handle: ClusterHandle; release?: CiliumCni["release"] }> = {};
  for (const c of configs) {
    const member = clusterMesh?.memberNames.includes(c.name) ? clusterMesh.cniArgs(c.name) : undefined;
    const declared = declareCni(c, bare.get(c.name) as ClusterHandle, member);
    handles.set(c.name, declared.handle);
    if (member) meshMembers[c.name] = declared;
  }
  if (clusterMesh) {
    const ready = clusterMesh.declareReadiness(meshMembers);
    for (const name of Object.keys(meshMembers))
      handles.set(name, withReadyGate(handles.get(name) as ClusterHandle, ready));
  }
  return { handles, mesh: clusterMesh };
}

/** The stack output of a ClusterMesh. */
export interface ClusterMeshOutputs {
  /** The members' Cilium cluster names. */
  members: string[];
  /** The mesh CA's certificate (PEM, public). */
  caCertificate: pulumi.Output<string>;
}

export function meshOutputs(mesh: ClusterMesh | undefined): ClusterMeshOutputs | undefined {
  return mesh ? { members: mesh.memberNames, caCertificate: mesh.caCertificate } : undefined;
}

/** The cluster itself, as its source declares it, before its CNI. */
function declareBareCluster(c: StackCluster, env: ClusterEnv): ClusterHandle {
  return clusterSource(c.source).declare(c, env);
}

/** Cilium on a cluster when enabled (with its ClusterMesh values and Secrets when a member). */
function declareCni(
  c: StackCluster,
  handle: ClusterHandle,
  mesh?: MeshCniArgs,
): { handle: ClusterHandle; release?: CiliumCni["release"] } {
  if (!c.cilium.enabled || clusterSource(c.source).traits.ownCni !== undefined) return { handle };
  const cni = new CiliumCni(`${c.name}-cni`, {
    cluster: handle,
    clusterId: c.cilium.clusterId,
    version: c.cilium.version,
    chartPath: c.cilium.chartPath,
    moduleImages: c.cilium.moduleImages,
    dropCapabilities: c.cilium.dropCapabilities,
    kubeProxyReplacement: replacesKubeProxy(c),
    clusterMesh: mesh?.clusterMesh,
    dependsOn: mesh?.dependsOn,
  });
  return { handle: cni.handle, release: cni.release };
}
