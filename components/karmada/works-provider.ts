/**
 * MemberWorksGone: a Pulumi dynamic resource that holds a member's unjoin back on destroy until
 * Karmada has really removed this stack's objects from the member. It sits between the member's
 * `Cluster` (it depends on it) and the federated objects (they depend on it): create and update
 * only record what to wait for; delete lists the Works in `karmada-es-<member>` until none
 * carries an object of this stack, and fails after `timeoutSeconds` with one message naming the
 * member and the fix. The Cluster and its Secrets are then kept, so a later destroy (with the
 * member back) lets Karmada clean the member first.
 *
 * The Karmada credentials are a secret input and a secret output (`additionalSecretOutputs`):
 * state holds them encrypted. This module is serialised into the dynamic provider process, so the
 * provider only uses Node built-ins (and the pure functions of ./works).
 */
import * as pulumi from "@pulumi/pulumi";
import type { KubeconfigCredentials } from "../kubeconfig";
import { PropagatedObject, RemainingWork, WorkLike, remainingWorks, workNamespace, worksTimeoutMessage } from "./works";

export interface MemberWorksGoneInputs {
  /** The member's name in Karmada. */
  cluster: string;
  /** The objects this stack propagates to the member (propagatedByMember). */
  objects: PropagatedObject[];
  /** How long delete waits for the Works to go. */
  timeoutSeconds: number;
  /** How to reach the Karmada API. Secret. */
  karmada: KubeconfigCredentials;
}

/** Seconds a destroy waits for a member's Works before it fails (and keeps the member joined). */
export const DEFAULT_WORKS_TIMEOUT_SECONDS = 120;

/** The outputs kept secret in state. */
export const WORKS_SECRET_OUTPUTS = ["karmada"];

interface ListResult { works?: WorkLike[]; error?: string }

/** GET of the member's Works; never throws (an error is returned as text, without credentials). */
function listWorks(k: KubeconfigCredentials, cluster: string): Promise<ListResult> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const https: typeof import("https") = require("https");
  const url = new URL(`/apis/work.karmada.io/v1alpha1/namespaces/${workNamespace(cluster)}/works`, k.server);
  return new Promise((resolve) => {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (k.token) headers.Authorization = `Bearer ${k.token}`;
    const req = https.request(url, {
      method: "GET", headers, ca: k.ca, cert: k.cert, key: k.key, rejectUnauthorized: !k.insecure, timeout: 10_000,
    }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d: string) => { body += d; });
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        // No Work API (Karmada gone, or never installed): nothing can be left to wait for.
        if (status === 404) return resolve({ works: [] });
        if (status !== 200) return resolve({ error: `HTTP ${status} from ${k.server}` });
        try {
          resolve({ works: (JSON.parse(body) as { items?: WorkLike[] }).items ?? [] });
        } catch {
          resolve({ error: `an unreadable answer from ${k.server}` });
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 10 s")));
    req.on("error", (err: Error) => resolve({ error: `${k.server}: ${err.message}` }));
    req.end();
  });
}

/** Polls until no Work of the member carries one of `objects`; throws the timeout message. */
export async function waitForWorksGone(inputs: MemberWorksGoneInputs, pollMs = 2000): Promise<void> {
  const deadline = Date.now() + inputs.timeoutSeconds * 1000;
  let remaining: RemainingWork[] = [];
  let lastError: string | undefined;
  for (;;) {
    const res = await listWorks(inputs.karmada, inputs.cluster);
    if (res.works) {
      remaining = remainingWorks(res.works, inputs.objects);
      lastError = undefined;
      if (remaining.length === 0) return;
    } else {
      lastError = res.error;
    }
    if (Date.now() >= deadline) throw new Error(worksTimeoutMessage(inputs.cluster, inputs.timeoutSeconds, remaining, lastError));
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export class MemberWorksGoneProvider implements pulumi.dynamic.ResourceProvider {
  async diff(_id: string, olds: MemberWorksGoneInputs, news: MemberWorksGoneInputs): Promise<pulumi.dynamic.DiffResult> {
    const keys: (keyof MemberWorksGoneInputs)[] = ["cluster", "objects", "timeoutSeconds", "karmada"];
    const changed = keys.some((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return { changes: changed, replaces: olds.cluster !== news.cluster ? ["cluster"] : [], deleteBeforeReplace: false };
  }

  async create(inputs: MemberWorksGoneInputs): Promise<pulumi.dynamic.CreateResult> {
    return { id: inputs.cluster, outs: inputs };
  }

  async update(_id: string, _olds: MemberWorksGoneInputs, news: MemberWorksGoneInputs): Promise<pulumi.dynamic.UpdateResult> {
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
    super(WORKS_PROVIDER, name, { ...args, karmada: pulumi.secret(args.karmada) },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...WORKS_SECRET_OUTPUTS] }, "iko-plus-karmada", "MemberWorksGone");
  }
}
