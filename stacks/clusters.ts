/**
 * Turns a validated cluster config into a cluster handle (kind or existing), with its CNI.
 */
import * as pulumi from "@pulumi/pulumi";
import { CiliumCni } from "../components/cilium";
import { ClusterHandle, ExistingCluster } from "../components/cluster";
import { GkeCluster } from "../components/gcp";
import { KindCluster, RegistryMirror } from "../components/kind";
import { ClusterConfig, FleetClusterConfig } from "./config";

/** Options shared by every cluster of a stack. */
export interface ClusterEnv {
  /** Secret config values by key (e.g. workKubeconfig). */
  secrets: Record<string, pulumi.Output<string>>;
  /** The stack's registry mirror: every kind cluster pulls its images through it. */
  registryMirror?: RegistryMirror;
}

/** Declares the cluster and, when enabled, Cilium on it; returns the handle gated on the CNI. */
export function declareCluster(c: ClusterConfig & Partial<Pick<FleetClusterConfig, "gke" | "extraPortMappings">>, env: ClusterEnv): ClusterHandle {
  let handle: ClusterHandle;
  if (c.source === "gke" && c.gke) {
    return new GkeCluster(c.name, {
      project: c.gke.project, location: c.gke.location, nodeCount: c.gke.nodeCount, machineType: c.gke.machineType,
      deletionProtection: c.gke.deletionProtection,
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
    });
  } else {
    handle = new ExistingCluster(c.name, c.kubeconfigPath !== undefined
      ? { kubeconfigPath: c.kubeconfigPath }
      : { kubeconfig: env.secrets[c.kubeconfigSecretKey as string] });
  }
  if (!c.cilium.enabled) return handle;
  return new CiliumCni(`${c.name}-cni`, {
    cluster: handle,
    clusterId: c.cilium.clusterId,
    chartPath: c.cilium.chartPath,
    moduleImages: c.cilium.moduleImages,
    dropCapabilities: c.cilium.dropCapabilities,
    kubeProxyReplacement: c.source === "kind" && c.kind.kubeProxyMode === "none",
  }).handle;
}
