/**
 * IrisClusterReady: a Pulumi dynamic resource that, on create and update, waits until the
 * operator reports an IrisCluster running (components/iris/health.ts), so `up` does not succeed
 * over an IrisCluster that will never run. It fails early when a pod of the IrisCluster cannot
 * pull its image (ErrImagePull, ImagePullBackOff, …) for PULL_FAILURE_GRACE_SECONDS, naming the
 * pod, the image, the registry mirror the cluster pulls through (when the stack has one) and
 * the kubelet's error; else after its timeout, with the last status seen.
 *
 * The kubeconfig credentials are a secret input and output. Only Node built-ins and the pure
 * functions below run in the provider process.
 */
import * as pulumi from "@pulumi/pulumi";
import { apiRequest } from "../cluster/api";
import type { KubeconfigCredentials } from "../kubeconfig";
import { describeIris, irisHealthy, irisStatusOf } from "./health";

/** Seconds `up` waits for an IrisCluster to run, by default. */
export const DEFAULT_IRIS_READY_TIMEOUT_SECONDS = 600;
/** The wait's bounds, in seconds (`readyTimeoutSeconds`). */
export const IRIS_READY_TIMEOUT_RANGE = { min: 10, max: 3600 } as const;
/** How long a pod may fail to pull its image before the wait gives up on it (the kubelet retries in between). */
export const PULL_FAILURE_GRACE_SECONDS = 30;
/** The kubelet's waiting reasons that mean an image cannot be had. */
export const PULL_FAILURE_REASONS = ["ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull"];

/** A container of the IrisCluster's pods that cannot pull its image. */
export interface PullFailure {
  pod: string;
  container: string;
  image: string;
  reason: string;
  message: string;
}

interface PodList {
  items?: {
    metadata?: { name?: string };
    spec?: { containers?: { name: string; image?: string }[]; initContainers?: { name: string; image?: string }[] };
    status?: {
      containerStatuses?: ContainerStatus[];
      initContainerStatuses?: ContainerStatus[];
    };
  }[];
}
interface ContainerStatus {
  name: string;
  image?: string;
  state?: { waiting?: { reason?: string; message?: string } };
}

/**
 * The image pull failures among an IrisCluster's pods (those named `<IrisCluster name>-…`, as IKO
 * names the StatefulSets it makes), from a pod list; sorted by pod and container.
 */
export function pullFailures(podList: unknown, irisName: string): PullFailure[] {
  const out: PullFailure[] = [];
  for (const pod of (podList as PodList)?.items ?? []) {
    const name = pod.metadata?.name ?? "";
    if (!name.startsWith(`${irisName}-`)) continue;
    const specs = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
    for (const cs of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
      const reason = cs.state?.waiting?.reason;
      if (!reason || !PULL_FAILURE_REASONS.includes(reason)) continue;
      out.push({
        pod: name,
        container: cs.name,
        image: specs.find((c) => c.name === cs.name)?.image ?? cs.image ?? "?",
        reason,
        message: (cs.state?.waiting?.message ?? "").slice(0, 400),
      });
    }
  }
  return out.sort((a, b) => `${a.pod}/${a.container}`.localeCompare(`${b.pod}/${b.container}`));
}

export interface IrisClusterReadyInputs {
  /** The cluster the IrisCluster is on, in messages. */
  clusterName: string;
  /** How to reach its API. Secret. */
  kubeconfig: KubeconfigCredentials;
  namespace: string;
  name: string;
  timeoutSeconds: number;
  /** The registry mirror the cluster pulls through, for messages (a kind cluster with `registryMirror`). */
  mirror?: string;
  /** Values whose change means waiting again (the IrisCluster's spec). */
  triggers: unknown[];
}

/** Every `image` value under an IrisCluster's spec (the images its pods should run). */
export function specImages(obj: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, key?: string) => {
    if (typeof v === "string" && key === "image") out.add(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk((obj as { spec?: unknown } | undefined)?.spec);
  return [...out].sort();
}

/**
 * The error when pods cannot pull their image: each pod, image and the kubelet's words, and the
 * fix. A pod whose image is no longer in the IrisCluster's spec (`specImages`, when known) is one
 * a StatefulSet will not replace because it never became Ready: the fix is to delete it.
 */
export function pullFailureMessage(
  i: Pick<IrisClusterReadyInputs, "clusterName" | "namespace" | "name" | "mirror">,
  failures: PullFailure[],
  specImages?: string[],
): string {
  const stale = specImages?.length ? failures.filter((f) => !specImages.includes(f.image)) : [];
  if (stale.length)
    return (
      `IrisCluster ${i.namespace}/${i.name} on ${i.clusterName} cannot start: ` +
      stale
        .map((f) => `pod ${f.pod} still has the image ${f.image}, which its spec no longer names (${f.reason})`)
        .join("; ") +
      `; a StatefulSet does not replace a pod that never became Ready: delete ${stale.length === 1 ? "it" : "them"} ` +
      `(kubectl -n ${i.namespace} delete pod ${[...new Set(stale.map((f) => f.pod))].join(" ")}) and run up again`
    );
  const what = failures
    .map(
      (f) =>
        `pod ${f.pod} (container ${f.container}) cannot pull ${f.image}: ${f.reason}${f.message ? `: ${f.message}` : ""}`,
    )
    .join("; ");
  const images = [...new Set(failures.map((f) => f.image))].join(", ");
  const through = i.mirror
    ? `${i.clusterName} pulls through the registry mirror ${i.mirror}: push ${images} there (or fix the image in irisClusters), then run up again`
    : `check that ${images} exists and that ${i.clusterName} can reach its registry (or give the IrisCluster an image it can pull), then run up again`;
  return `IrisCluster ${i.namespace}/${i.name} on ${i.clusterName} cannot start: ${what}; ${through}`;
}

/** The error when the IrisCluster did not run in time: its last status. */
export function irisReadyTimeoutMessage(
  i: Pick<IrisClusterReadyInputs, "clusterName" | "namespace" | "name" | "timeoutSeconds">,
  last: string,
): string {
  return (
    `IrisCluster ${i.namespace}/${i.name} on ${i.clusterName} was not running within ${i.timeoutSeconds} s: ${last}; ` +
    "check that the operator runs and reconciles that cluster (npm run status), and the IrisCluster's pods " +
    `(kubectl -n ${i.namespace} get pods,events), then run up again`
  );
}

/** Waits for the IrisCluster to run; throws pullFailureMessage or irisReadyTimeoutMessage. */
export async function waitForIrisCluster(
  inputs: IrisClusterReadyInputs,
  pollMs = 2000,
  graceSeconds = PULL_FAILURE_GRACE_SECONDS,
): Promise<void> {
  const start = Date.now();
  const firstSeen = new Map<string, number>();
  const ns = encodeURIComponent(inputs.namespace);
  let last = "not read yet";
  for (;;) {
    const ic = await apiRequest(
      inputs.kubeconfig,
      `/apis/intersystems.com/v1alpha1/namespaces/${ns}/irisclusters/${encodeURIComponent(inputs.name)}`,
    );
    if (ic.status === 200) {
      const status = irisStatusOf(ic.body);
      if (irisHealthy(status)) return;
      last = describeIris(status);
    } else {
      last = `reading it answered ${ic.status ?? ic.error}`;
    }
    const pods = await apiRequest(inputs.kubeconfig, `/api/v1/namespaces/${ns}/pods`);
    if (pods.status === 200) {
      const failing = pullFailures(pods.body, inputs.name);
      const now = Date.now();
      const keys = new Set(failing.map((f) => `${f.pod}/${f.container}`));
      for (const k of [...firstSeen.keys()]) if (!keys.has(k)) firstSeen.delete(k);
      for (const k of keys) if (!firstSeen.has(k)) firstSeen.set(k, now);
      const stuck = failing.filter(
        (f) =>
          f.reason === "InvalidImageName" ||
          now - (firstSeen.get(`${f.pod}/${f.container}`) ?? now) >= graceSeconds * 1000,
      );
      if (stuck.length)
        throw new Error(pullFailureMessage(inputs, stuck, ic.status === 200 ? specImages(ic.body) : undefined));
    }
    if ((Date.now() - start) / 1000 >= inputs.timeoutSeconds) throw new Error(irisReadyTimeoutMessage(inputs, last));
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export class IrisClusterReadyProvider implements pulumi.dynamic.ResourceProvider {
  async diff(
    _id: string,
    olds: IrisClusterReadyInputs,
    news: IrisClusterReadyInputs,
  ): Promise<pulumi.dynamic.DiffResult> {
    // A new cluster (another server or CA: work recreated) waits again, as does a changed spec.
    const where = (i: IrisClusterReadyInputs) => JSON.stringify([i.kubeconfig?.server, i.kubeconfig?.ca]);
    const changed =
      where(olds) !== where(news) ||
      (["namespace", "name", "timeoutSeconds", "triggers"] as const).some(
        (k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
      );
    return { changes: changed, replaces: [], deleteBeforeReplace: false };
  }

  async create(inputs: IrisClusterReadyInputs): Promise<pulumi.dynamic.CreateResult> {
    await waitForIrisCluster(inputs);
    return { id: `${inputs.namespace}/${inputs.name}`, outs: inputs };
  }

  async update(
    _id: string,
    _olds: IrisClusterReadyInputs,
    news: IrisClusterReadyInputs,
  ): Promise<pulumi.dynamic.UpdateResult> {
    await waitForIrisCluster(news);
    return { outs: news };
  }

  async read(id: string, props: IrisClusterReadyInputs): Promise<pulumi.dynamic.ReadResult> {
    return { id, props };
  }
}

const IRIS_READY_PROVIDER = new IrisClusterReadyProvider();

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Waits, on create and on every change of `triggers`, until the IrisCluster runs (see the module). */
export class IrisClusterReady extends pulumi.dynamic.Resource {
  constructor(name: string, args: Inputs<IrisClusterReadyInputs>, opts?: pulumi.CustomResourceOptions) {
    super(
      IRIS_READY_PROVIDER,
      name,
      { ...args, kubeconfig: pulumi.secret(args.kubeconfig) },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "kubeconfig"] },
      "iko-plus-iris",
      "IrisClusterReady",
    );
  }
}
