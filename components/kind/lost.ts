/**
 * Kind clusters lost behind a stack's back (`kind delete cluster`, a Docker reset): which
 * resources of the state went with them. A lost cluster's objects cannot be read or deleted
 * through their provider (its API server is gone), so `up` could neither see them missing nor
 * replace them; the recovery (`scripts/lost-clusters.ts`, run by `npm run up`) drops exactly these
 * from the state, and the `up` after it recreates the cluster and everything on it.
 */

/** The fields of a resource in `pulumi stack export` that the search reads. */
export interface StateResource {
  urn: string;
  type: string;
  provider?: string;
  parent?: string;
  inputs?: Record<string, unknown>;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
}

/** A kind cluster the state holds. */
export interface KindClusterInState {
  /** URN of the dynamic resource (`pulumi-nodejs:dynamic/kind:Cluster`). */
  urn: string;
  /** The kind cluster name. */
  name: string;
  /** The kind executable it was made with. */
  kindCommand: string;
  /** The docker executable kind drove. */
  dockerCommand: string;
}

/** The type of KindCluster's dynamic resource in state. */
export const KIND_CLUSTER_TYPE = "pulumi-nodejs:dynamic/kind:Cluster";

/** Every kind cluster of a state, in state order. */
export function kindClustersInState(resources: StateResource[]): KindClusterInState[] {
  const out: KindClusterInState[] = [];
  for (const r of resources) {
    if (r.type !== KIND_CLUSTER_TYPE) continue;
    const name = r.inputs?.name;
    if (typeof name !== "string") continue;
    const kindCommand = typeof r.inputs?.kindCommand === "string" ? r.inputs.kindCommand : "kind";
    const dockerCommand = typeof r.inputs?.dockerCommand === "string" ? r.inputs.dockerCommand : "docker";
    out.push({ urn: r.urn, name, kindCommand, dockerCommand });
  }
  return out;
}

/**
 * What to say of a kind cluster whose control-plane container is in `status` (`docker inspect`'s
 * `.State.Status`), or `undefined` when it runs.
 */
export function stoppedClusterWarning(name: string, status: string): string | undefined {
  if (status === "running") return undefined;
  const fix =
    status === "paused"
      ? `\`docker unpause ${name}-control-plane\``
      : `\`docker start\` its node containers (\`docker ps -a --filter label=io.x-k8s.kind.cluster=${name}\`)`;
  return `kind cluster "${name}" is ${status || "not running"}: nothing on it can be read or changed until it runs again; ${fix}`;
}

/** The URN part of a provider reference (`<urn>::<id>`). */
function providerUrn(ref: string): string {
  const at = ref.lastIndexOf("::");
  return at < 0 ? ref : ref.slice(0, at);
}

/**
 * The URNs that went with the clusters `lost` (URNs of their dynamic resources), in state order:
 * those clusters, and every resource managed by a Kubernetes provider whose inputs come from
 * something already lost (the cluster's own provider, and a provider of an API it served, such as
 * Karmada's on a lost host), until nothing more is found. The providers themselves stay: the next
 * `up` replaces them with the new cluster's identity. Resources elsewhere that only read a lost
 * cluster's outputs (a Secret on another cluster holding its credentials) stay too and are updated.
 */
export function lostResourceUrns(resources: StateResource[], lost: string[]): string[] {
  const gone = new Set(lost);
  const lostProviders = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of resources) {
      if (r.type.startsWith("pulumi:providers:kubernetes") && !lostProviders.has(r.urn)) {
        const deps = [...(r.dependencies ?? []), ...Object.values(r.propertyDependencies ?? {}).flat()];
        if (deps.some((d) => gone.has(d))) {
          lostProviders.add(r.urn);
          changed = true;
        }
      } else if (!gone.has(r.urn) && r.provider && lostProviders.has(providerUrn(r.provider))) {
        gone.add(r.urn);
        changed = true;
      }
    }
  }
  return resources.filter((r) => gone.has(r.urn)).map((r) => r.urn);
}
