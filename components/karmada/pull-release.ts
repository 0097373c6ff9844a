/**
 * PullMemberRelease: a Pulumi dynamic resource that lets a Pull member's Cluster go when the member
 * cluster itself is being replaced. In Pull mode only the member's agent removes the finalizers of
 * the Works in `karmada-es-<member>`; when Karmada deletes that namespace with the Cluster, the
 * agent's Role there goes at once and the agent can no longer update its Works, so the Cluster
 * would stay Terminating for good. Its delete deletes the Cluster and releases the Works that are
 * being deleted (their objects go with the old member cluster anyway), until the Cluster is gone.
 *
 * It depends on the Cluster and the unjoin wait (MemberWorksGone) depends on it: on destroy or
 * unjoin the Works are gone before it is deleted (nothing to release); when the member cluster is
 * replaced (a new `memberIdentity`) it goes first, ahead of the Cluster. Only Node built-ins:
 * serialised into the dynamic provider process.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiAnswer, apiCall } from "../cluster/api";
import type { KubeconfigCredentials } from "../kubeconfig";
import { workNamespace } from "./works";

export interface PullMemberReleaseInputs {
  /** The member's name in Karmada. */
  cluster: string;
  /** The member cluster's identity: a new one replaces this resource (and its delete releases the old Cluster). */
  memberIdentity: string;
  /** How long delete waits for the Cluster to go. */
  timeoutSeconds: number;
  /** How to reach the Karmada API. Secret. */
  karmada: KubeconfigCredentials;
}

/** Seconds delete waits for the Cluster to go. */
export const DEFAULT_RELEASE_TIMEOUT_SECONDS = 300;

/** A Work as this module reads it. */
export interface ReleasableWork {
  metadata?: { name?: string; deletionTimestamp?: string; finalizers?: string[] };
}

/** The Works being deleted that still hold a finalizer: those only the (old) agent would release. */
export function worksToRelease(works: ReleasableWork[]): string[] {
  return works
    .filter((w) => w.metadata?.deletionTimestamp && (w.metadata.finalizers ?? []).length > 0)
    .map((w) => w.metadata?.name ?? "")
    .filter((n) => n.length > 0)
    .sort();
}

/** The one message when the Cluster does not go in time. */
export function releaseTimeoutMessage(cluster: string, seconds: number, last: string): string {
  return (
    `Karmada Cluster "${cluster}" (Pull mode) was not gone ${seconds} s after its member cluster's replacement began ` +
    `(${last}); check \`kubectl get cluster ${cluster}\` and the Works in ${workNamespace(cluster)} in the Karmada API, ` +
    `then run up again`
  );
}

/** Deletes the Cluster and releases its Works until it is gone. */
export async function releaseCluster(
  inputs: PullMemberReleaseInputs,
  call: (
    k: KubeconfigCredentials,
    method: "GET" | "PATCH" | "DELETE",
    path: string,
    body?: unknown,
  ) => Promise<ApiAnswer> = apiCall,
  pollMs = 2000,
): Promise<void> {
  const clusterPath = `/apis/cluster.karmada.io/v1alpha1/clusters/${inputs.cluster}`;
  const worksPath = `/apis/work.karmada.io/v1alpha1/namespaces/${workNamespace(inputs.cluster)}/works`;
  const start = Date.now();
  let last = "no answer yet";
  const first = await call(inputs.karmada, "DELETE", clusterPath);
  if (first.status === 404) return;
  for (;;) {
    const cluster = await call(inputs.karmada, "GET", clusterPath);
    if (cluster.status === 404) return;
    last = cluster.error ?? `the Cluster is still there (HTTP ${cluster.status})`;
    const works = await call(inputs.karmada, "GET", worksPath);
    if (works.status === 200) {
      const names = worksToRelease((works.body as { items?: ReleasableWork[] }).items ?? []);
      for (const name of names)
        await call(inputs.karmada, "PATCH", `${worksPath}/${name}`, { metadata: { finalizers: null } });
      if (names.length > 0) last = `released ${names.length} Works`;
    }
    const elapsed = Math.floor((Date.now() - start) / 1000);
    if (elapsed >= inputs.timeoutSeconds) throw new Error(releaseTimeoutMessage(inputs.cluster, elapsed, last));
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export class PullMemberReleaseProvider implements pulumi.dynamic.ResourceProvider {
  async diff(
    _id: string,
    olds: PullMemberReleaseInputs,
    news: PullMemberReleaseInputs,
  ): Promise<pulumi.dynamic.DiffResult> {
    const keys: (keyof PullMemberReleaseInputs)[] = ["cluster", "memberIdentity", "timeoutSeconds", "karmada"];
    const changed = keys.some((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    const replaces = (["cluster", "memberIdentity"] as const).filter((k) => olds[k] !== news[k]);
    return { changes: changed, replaces, deleteBeforeReplace: false };
  }

  async create(inputs: PullMemberReleaseInputs): Promise<pulumi.dynamic.CreateResult> {
    return { id: inputs.cluster, outs: inputs };
  }

  async update(
    _id: string,
    _olds: PullMemberReleaseInputs,
    news: PullMemberReleaseInputs,
  ): Promise<pulumi.dynamic.UpdateResult> {
    return { outs: news };
  }

  async read(id: string, props: PullMemberReleaseInputs): Promise<pulumi.dynamic.ReadResult> {
    return { id, props };
  }

  async delete(_id: string, props: PullMemberReleaseInputs): Promise<void> {
    await releaseCluster(props);
  }
}

/** One provider object for every Pull member (its code is serialised once per program). */
const RELEASE_PROVIDER = new PullMemberReleaseProvider();

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export class PullMemberRelease extends pulumi.dynamic.Resource {
  constructor(name: string, args: Inputs<PullMemberReleaseInputs>, opts?: pulumi.CustomResourceOptions) {
    super(
      RELEASE_PROVIDER,
      name,
      { ...args, karmada: pulumi.secret(args.karmada) },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "karmada"] },
      "iko-plus-karmada",
      "PullMemberRelease",
    );
  }
}
