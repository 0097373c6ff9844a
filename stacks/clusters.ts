/**
 * Turns a validated cluster config into a cluster handle (kind or existing), with its CNI.
 */
import * as pulumi from "@pulumi/pulumi";
import { CiliumCni, ClusterMesh, MeshCniArgs } from "../components/cilium";
import { ClusterHandle, ExistingCluster, withReadyGate } from "../components/cluster";
import { GkeCluster } from "../components/gcp";
import { KindCluster, RegistryMirror } from "../components/kind";
import { kindControlPlaneHost } from "../components/names";
import { ClusterConfig, FleetClusterConfig, MeshConfig, clusterPodSubnet, replacesKubeProxy } from "./config";

/** Options shared by every cluster of a stack. */
export interface ClusterEnv {
  /** Secret config values by key (e.g. workKubeconfig). */
  secrets: Record<string, pulumi.Output<string>>;
  /** The stack's registry mirror: every kind cluster pulls its images through it. */
  registryMirror?: RegistryMirror;
}

type StackCluster = ClusterConfig & Partial<Pick<FleetClusterConfig, "gke" | "extraPortMappings">>;

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
          // A kind cluster's control-plane container, known before it exists (a fresh preview shows it).
          address: m.address ?? (c.source === "kind" ? kindControlPlaneHost(c.name) : undefined),
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

/** The cluster itself (kind, existing or GKE), before its CNI. */
function declareBareCluster(c: StackCluster, env: ClusterEnv): ClusterHandle {
  let handle: ClusterHandle;
  if (c.source === "gke" && c.gke) {
    return new GkeCluster(c.name, {
      project: c.gke.project,
      location: c.gke.location,
      nodeCount: c.gke.nodeCount,
      machineType: c.gke.machineType,
      deletionProtection: c.gke.deletionProtection,
      protect: c.protect,
      role: c.key,
    });
  }
  if (c.source === "kind") {
    handle = new KindCluster(c.name, {
      workers: c.kind.workers,
      nodeImage: c.kind.nodeImage,
      kubeProxyMode: c.kind.kubeProxyMode,
      podSubnet: c.kind.podSubnet,
      serviceSubnet: c.kind.serviceSubnet,
      disableDefaultCNI: c.cilium.enabled,
      extraPortMappings: c.extraPortMappings,
      registryMirror: env.registryMirror,
      protect: c.protect,
      role: c.key,
    });
  } else {
    handle = new ExistingCluster(
      c.name,
      c.kubeconfigPath !== undefined
        ? { kubeconfigPath: c.kubeconfigPath, role: c.key }
        : { kubeconfig: env.secrets[c.kubeconfigSecretKey as string], role: c.key },
    );
  }
  return handle;
}

/** Cilium on a cluster when enabled (with its ClusterMesh values and Secrets when a member). */
function declareCni(
  c: StackCluster,
  handle: ClusterHandle,
  mesh?: MeshCniArgs,
): { handle: ClusterHandle; release?: CiliumCni["release"] } {
  if (!c.cilium.enabled || c.source === "gke") return { handle };
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
