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
  /**
   * What makes this cluster this cluster (`clusterIdentity`: its name and its API server CA's
   * fingerprint); its provider's `clusterIdentifier`, so a new cluster behind the same name
   * replaces everything the stack put on it. Public.
   */
  readonly identity: pulumi.Output<string>;
  /** How messages name the cluster, e.g. `work (kind cluster "ikowork")`. */
  readonly description: string;
  /**
   * A Kubernetes provider for this cluster, built from `kubeconfig`, identified by `identity`,
   * and configured only once the API server has answered (else the run fails naming the cluster).
   */
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

/** What an object on a cluster needs of it: its provider, and its identity. */
export type ClusterTarget = Pick<ClusterHandle, "provider" | "identity">;

/** A Helm release (no metadata: its name carries the dependency). */
export const HELM_RELEASE_TYPE = "kubernetes:helm.sh/v3:Release";

/** `value` unchanged, made to depend on `on` (a resource given it depends on what `on` depends on). */
export function dependOn<T>(value: pulumi.Input<T>, on: pulumi.Output<unknown>): pulumi.Output<T> {
  return pulumi.all([value, on]).apply(([v]) => v as T);
}

/**
 * A transformation that makes a resource depend on its cluster's `identity` without changing any
 * value: a Kubernetes object's `metadata` (through its annotations, so its name stays known in a
 * preview), a Helm release's `name`. When the cluster is replaced, Pulumi's delete-before-replace
 * of it then finds every such object among its dependents, sees that property unknown (which the
 * Kubernetes provider takes as a new name: a replacement), and deletes them in dependency order
 * while the old cluster still runs, then creates them again on the new one. The identity, not the
 * cluster's other outputs, so a new API port or credential changes nothing; and no value changes,
 * so state written before this existed gets the dependency on its next `up` with nothing replaced.
 */
export function stampIdentity(identity: pulumi.Output<string>): pulumi.ResourceTransformation {
  return ({ type, props, opts }) => {
    if (type === HELM_RELEASE_TYPE)
      return props.name === undefined ? undefined : { props: { ...props, name: dependOn(props.name, identity) }, opts };
    const md = props.metadata as pulumi.Input<Record<string, unknown>> | undefined;
    if (md === undefined) return undefined;
    const metadata =
      pulumi.Output.isInstance(md) || md instanceof Promise
        ? dependOn(md, identity)
        : { ...md, annotations: dependOn(md.annotations as pulumi.Input<unknown>, identity) };
    return { props: { ...props, metadata }, opts };
  };
}

/** The options of an object on `target`'s cluster: its provider, and a dependency on its identity. */
export function onCluster(target: ClusterTarget): pulumi.CustomResourceOptions {
  return { provider: target.provider, transformations: [stampIdentity(target.identity)] };
}

/** The provider options every child installed into `handle`'s cluster (or the Karmada API) uses. */
export function clusterOptions(
  parent: pulumi.Resource,
  handle: ClusterTarget & Pick<ClusterHandle, "readyGate">,
  extraDependsOn: pulumi.Resource[] = [],
): pulumi.CustomResourceOptions {
  return { parent, ...onCluster(handle), dependsOn: [...handle.readyGate, ...extraDependsOn] };
}

/**
 * `value` without the resources it came from: its value, known-ness and secret-ness stay, but a
 * resource given it does not depend on them. For a provider's `clusterIdentifier`: when the
 * cluster is replaced before its objects (delete-before-replace), Pulumi 3.248 diffs the old
 * provider with every input taken from the cluster made unknown and, on a replacement, closes that
 * provider while the objects still need it for their deletes ("grpc: the client connection is
 * closing"). With the identifier independent of the cluster, that diff keeps the provider; the
 * objects go by the identity stamped on them (`stampIdentity`) instead, and the provider itself
 * is replaced once the new cluster's identity is known.
 */
export function withoutDependencies<T>(value: pulumi.Output<T>): pulumi.Output<T> {
  // The Output class's constructor is internal to @pulumi/pulumi (pulumi.unsecret uses it the same
  // way), and typed as taking no arguments in its declarations.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const OutputClass = pulumi.Output as any;
  const internal = value as unknown as {
    promise(withUnknowns?: boolean): Promise<T>;
    isKnown: Promise<boolean>;
    isSecret: Promise<boolean>;
  };
  return new OutputClass(
    new Set(),
    internal.promise(true),
    internal.isKnown,
    internal.isSecret,
    Promise.resolve(new Set()),
  ) as pulumi.Output<T>;
}
