/**
 * MemberWorksGone: a Pulumi dynamic resource that holds a member's unjoin back on destroy until
 * Karmada has really removed this stack's objects from the member. It depends on the member's
 * `Cluster` (so it is deleted first) and its delete runs beside the federated objects' (they
 * depend on the Cluster, not on it): create and update only record what to wait for; delete lists the Works in `karmada-es-<member>` until none
 * carries an object of this stack, and fails after `timeoutSeconds` with one message naming the
 * member and the fix. The Cluster and its Secrets are then kept, so a later destroy (with the
 * member back) lets Karmada clean the member first.
 *
 * The Karmada credentials are a secret input and a secret output (`additionalSecretOutputs`):
 * state holds them encrypted. This module is serialised into the dynamic provider process, so the
 * provider only uses Node built-ins (and the pure functions of ./works).
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiAnswer, apiRequest } from "../cluster/api";
import type { KubeconfigCredentials } from "../kubeconfig";
import {
  PropagatedObject,
  RemainingWork,
  WorkLike,
  clusterReadyStatus,
  remainingWorks,
  waitLimitSeconds,
  workNamespace,
  worksTimeoutMessage,
  worksWaitDecision,
} from "./works";

export interface MemberWorksGoneInputs {
  /** The member's name in Karmada. */
  cluster: string;
  /** The objects this stack propagates to the member (propagatedByMember). */
  objects: PropagatedObject[];
  /** How long delete waits for the Works to go while the member is not Ready (down). */
  timeoutSeconds: number;
  /** How long delete waits while the member is Ready (Karmada's retry of a failed delete comes after at most 1000 s). */
  readyTimeoutSeconds: number;
  /** How to reach the Karmada API. Secret. */
  karmada: KubeconfigCredentials;
}

/** Seconds a destroy waits for a member's Works while it is not Ready, before it fails (keeping the member joined). */
export const DEFAULT_WORKS_TIMEOUT_SECONDS = 120;
/** Seconds it waits while the member is Ready: Karmada's longest retry delay (1000 s) and a margin. */
export const DEFAULT_WORKS_READY_TIMEOUT_SECONDS = 1020;

/** The outputs kept secret in state. */
export const WORKS_SECRET_OUTPUTS = ["karmada"];

/** An answer of the Karmada API (the shared reader's, components/cluster/api.ts). */
export type KarmadaAnswer = ApiAnswer;

/**
 * A GET of the Karmada API, or a POST of `body` (as JSON) when one is given; never throws (an
 * error is returned as text, without credentials). Any 2xx answer counts as 200.
 */
export const karmadaRequest: (k: KubeconfigCredentials, apiPath: string, body?: unknown) => Promise<ApiAnswer> =
  apiRequest;

/** The member's Works, or the error; a missing Work API (404: Karmada gone or never installed) leaves nothing to wait for. */
async function listWorks(k: KubeconfigCredentials, cluster: string): Promise<{ works?: WorkLike[]; error?: string }> {
  const r = await karmadaRequest(k, `/apis/work.karmada.io/v1alpha1/namespaces/${workNamespace(cluster)}/works`);
  if (r.status === 404) return { works: [] };
  if (r.status === 200) return { works: (r.body as { items?: WorkLike[] }).items ?? [] };
  return { error: r.error ?? `HTTP ${r.status} from ${k.server}` };
}

/** The member's Cluster Ready condition ("absent" when there is no Cluster, "Unknown" when Karmada does not answer). */
async function clusterReady(k: KubeconfigCredentials, cluster: string): Promise<string> {
  const r = await karmadaRequest(k, `/apis/cluster.karmada.io/v1alpha1/clusters/${cluster}`);
  if (r.status === 404) return "absent";
  if (r.status !== 200) return "Unknown";
  return clusterReadyStatus(r.body as Parameters<typeof clusterReadyStatus>[0]);
}

/** Polls until no Work of the member carries one of `objects`; throws the one message when the wait fails. */
export async function waitForWorksGone(inputs: MemberWorksGoneInputs, pollMs = 2000): Promise<void> {
  const start = Date.now();
  const readyTimeoutSeconds = inputs.readyTimeoutSeconds;
  let remaining: RemainingWork[] = [];
  let lastError: string | undefined;
  for (;;) {
    const res = await listWorks(inputs.karmada, inputs.cluster);
    if (res.works) {
      remaining = remainingWorks(res.works, inputs.objects);
      lastError = undefined;
    } else {
      lastError = res.error;
    }
    const unanswered = lastError !== undefined;
    const ready = remaining.length > 0 && !unanswered ? await clusterReady(inputs.karmada, inputs.cluster) : "Unknown";
    const elapsedSeconds = Math.floor((Date.now() - start) / 1000);
    const state = {
      remaining,
      ready,
      elapsedSeconds,
      timeoutSeconds: inputs.timeoutSeconds,
      readyTimeoutSeconds,
      unanswered,
    };
    const decision = worksWaitDecision(state);
    if (decision === "done") return;
    if (decision === "fail")
      throw new Error(worksTimeoutMessage(inputs.cluster, waitLimitSeconds(state), remaining, ready, lastError));
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export class MemberWorksGoneProvider implements pulumi.dynamic.ResourceProvider {
  async diff(
    _id: string,
    olds: MemberWorksGoneInputs,
    news: MemberWorksGoneInputs,
  ): Promise<pulumi.dynamic.DiffResult> {
    const keys: (keyof MemberWorksGoneInputs)[] = [
      "cluster",
      "objects",
      "timeoutSeconds",
      "readyTimeoutSeconds",
      "karmada",
    ];
    const changed = keys.some((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return { changes: changed, replaces: olds.cluster !== news.cluster ? ["cluster"] : [], deleteBeforeReplace: false };
  }

  async create(inputs: MemberWorksGoneInputs): Promise<pulumi.dynamic.CreateResult> {
    return { id: inputs.cluster, outs: inputs };
  }

  async update(
    _id: string,
    _olds: MemberWorksGoneInputs,
    news: MemberWorksGoneInputs,
  ): Promise<pulumi.dynamic.UpdateResult> {
    return { outs: news };
  }

  async read(id: string, props: MemberWorksGoneInputs): Promise<pulumi.dynamic.ReadResult> {
    // Nothing outside the state: what state holds is what exists.
    return { id, props };
  }

  async delete(_id: string, props: MemberWorksGoneInputs): Promise<void> {
    await waitForWorksGone(props);
  }
}

/** One provider object for every member (its code is serialised once per program). */
const WORKS_PROVIDER = new MemberWorksGoneProvider();

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export class MemberWorksGone extends pulumi.dynamic.Resource {
  constructor(name: string, args: Inputs<MemberWorksGoneInputs>, opts?: pulumi.CustomResourceOptions) {
    super(
      WORKS_PROVIDER,
      name,
      { ...args, karmada: pulumi.secret(args.karmada) },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...WORKS_SECRET_OUTPUTS] },
      "iko-plus-karmada",
      "MemberWorksGone",
    );
  }
}
