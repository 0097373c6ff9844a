/**
 * KarmadaApiReady: a Pulumi dynamic resource that, on create and update, waits until a Karmada
 * API installed by the chart serves the groups joins and policies need. `helm install --wait`
 * (what the Release waits for) returns once the Deployments are Available, but the chart's
 * static-resource Job, a plain Job the wait does not cover, applies the CRDs and the APIService
 * `v1alpha1.cluster.karmada.io` into the Karmada API later, and karmada-aggregated-apiserver
 * serves `clusters` only once that APIService is Available: a Cluster created before fails with
 * `no matches for kind "Cluster"` (seen on kind with chart v1.16.0; Karmada #3175).
 *
 * The credentials are a secret input and output, as in MemberWorksGone. Only Node built-ins and
 * the pure functions below run in the provider process.
 */
import * as pulumi from "@pulumi/pulumi";
import type { KubeconfigCredentials } from "../kubeconfig";
import { karmadaGet } from "./works-provider";

/** The API groups (and versions) a Karmada API must serve before anything goes into it. */
export const KARMADA_API_GROUPS = [
  "cluster.karmada.io/v1alpha1",
  "policy.karmada.io/v1alpha1",
  "work.karmada.io/v1alpha2",
  "config.karmada.io/v1alpha1",
];

/** Seconds to wait for them. */
export const DEFAULT_API_READY_TIMEOUT_SECONDS = 300;

export interface KarmadaApiReadyInputs {
  /** How to reach the Karmada API. Secret. */
  karmada: KubeconfigCredentials;
  /** group/version paths to wait for. */
  groups: string[];
  timeoutSeconds: number;
}

/** The groups of `groups` whose discovery answered anything but 200 (by `status`: group → HTTP status or error). */
export function missingGroups(groups: string[], status: Record<string, number | string | undefined>): string[] {
  return groups.filter((g) => status[g] !== 200);
}

/** The one message of a failed wait: which groups, what they answered, and the fix. */
export function apiReadyTimeoutMessage(
  server: string,
  seconds: number,
  missing: string[],
  status: Record<string, number | string | undefined>,
): string {
  const what = missing
    .map(
      (g) =>
        `${g} (${status[g] === undefined ? "no answer" : typeof status[g] === "number" ? `HTTP ${status[g]}` : status[g]})`,
    )
    .join(", ");
  return (
    `the Karmada API at ${server} did not serve ${what} within ${seconds} s of the chart's install; ` +
    "check the chart's karmada-static-resource Job and karmada-aggregated-apiserver on the host (kubectl -n karmada-host get jobs,pods), then run up again"
  );
}

export async function waitForKarmadaApi(inputs: KarmadaApiReadyInputs, pollMs = 2000): Promise<void> {
  const start = Date.now();
  const status: Record<string, number | string | undefined> = {};
  for (;;) {
    for (const g of missingGroups(inputs.groups, status)) {
      const r = await karmadaGet(inputs.karmada, `/apis/${g}`);
      status[g] = r.status ?? r.error;
    }
    const missing = missingGroups(inputs.groups, status);
    if (missing.length === 0) return;
    const elapsed = (Date.now() - start) / 1000;
    if (elapsed >= inputs.timeoutSeconds)
      throw new Error(apiReadyTimeoutMessage(inputs.karmada.server, inputs.timeoutSeconds, missing, status));
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export class KarmadaApiReadyProvider implements pulumi.dynamic.ResourceProvider {
  async diff(
    _id: string,
    olds: KarmadaApiReadyInputs,
    news: KarmadaApiReadyInputs,
  ): Promise<pulumi.dynamic.DiffResult> {
    const changed = (["karmada", "groups", "timeoutSeconds"] as const).some(
      (k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
    );
    return { changes: changed, replaces: [], deleteBeforeReplace: false };
  }

  async create(inputs: KarmadaApiReadyInputs): Promise<pulumi.dynamic.CreateResult> {
    await waitForKarmadaApi(inputs);
    return { id: "karmada-api", outs: inputs };
  }

  async update(
    _id: string,
    _olds: KarmadaApiReadyInputs,
    news: KarmadaApiReadyInputs,
  ): Promise<pulumi.dynamic.UpdateResult> {
    await waitForKarmadaApi(news);
    return { outs: news };
  }

  async read(id: string, props: KarmadaApiReadyInputs): Promise<pulumi.dynamic.ReadResult> {
    return { id, props };
  }
}

const API_READY_PROVIDER = new KarmadaApiReadyProvider();

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export class KarmadaApiReady extends pulumi.dynamic.Resource {
  constructor(name: string, args: Inputs<KarmadaApiReadyInputs>, opts?: pulumi.CustomResourceOptions) {
    super(
      API_READY_PROVIDER,
      name,
      { ...args, karmada: pulumi.secret(args.karmada) },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "karmada"] },
      "iko-plus-karmada",
      "KarmadaApiReady",
    );
  }
}
