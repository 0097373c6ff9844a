/**
 * The cluster handle: one shape for every cluster, whatever made it (kind, an existing
 * kubeconfig, later GKE). Stack programs only ever see handles.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";

export interface ClusterHandle {
  /** The cluster's name (kind name, Karmada member name, Cilium cluster.name). */
  readonly name: string;
  /** Kubeconfig valid from the machine running Pulumi. Secret. */
  readonly kubeconfig: pulumi.Output<string>;
  /** Kubeconfig valid from pods of other clusters (e.g. a remote operator, Karmada). Secret. */
  readonly peerKubeconfig: pulumi.Output<string>;
  /** API server URL reachable from the Pulumi host. */
  readonly endpoint: pulumi.Output<string>;
  /** API server URL reachable from pods of other clusters. */
  readonly peerEndpoint: pulumi.Output<string>;
  /** Base64 PEM CA bundle of the API server (public). */
  readonly caData: pulumi.Output<string>;
  /** A Kubernetes provider for this cluster, built from `kubeconfig`. */
  readonly provider: k8s.Provider;
  /**
   * What must be ready before workloads go into the cluster (its CNI). Components installing
   * into the cluster add these to their `dependsOn`.
   */
  readonly readyGate: pulumi.Resource[];
}

/** A copy of `handle` whose ready gate also waits for `gate` (e.g. its CNI release). */
export function withReadyGate(handle: ClusterHandle, ...gate: pulumi.Resource[]): ClusterHandle {
  return { ...handle, readyGate: [...handle.readyGate, ...gate] };
}

/** The provider options every child installed into `handle`'s cluster (or the Karmada API) uses. */
export function clusterOptions(
  parent: pulumi.Resource,
  handle: Pick<ClusterHandle, "provider" | "readyGate">,
  extraDependsOn: pulumi.Resource[] = [],
): pulumi.CustomResourceOptions {
  return { parent, provider: handle.provider, dependsOn: [...handle.readyGate, ...extraDependsOn] };
}
