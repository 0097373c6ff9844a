/**
 * KarmadaApiReady: a Pulumi dynamic resource that, on create and update, waits until a Karmada
 * API installed by the chart is ready for what comes next, judged through that API (so it works
 * for any host cluster). The release does not wait for the chart's Deployments; two of these do:
 * - until the apiserver answers, so CRDs can go in before the controller-manager starts (its
 *   resource discovery runs at start, then every 30 s);
 * - until it serves the groups joins and policies need, its controllers hold their leader Leases
 *   and its webhook admits a policy. The chart's static-resource Job applies the CRDs and the
 *   APIService `v1alpha1.cluster.karmada.io`, and karmada-aggregated-apiserver serves `clusters`
 *   only once that APIService is Available: a Cluster created before fails with `no matches for
 *   kind "Cluster"` (seen on kind with chart v1.16.0; Karmada #3175).
 *
 * The credentials are a secret input and output, as in MemberWorksGone. Only Node built-ins and
 * the pure functions below run in the provider process.
 */
import * as crypto from "crypto";
import * as pulumi from "@pulumi/pulumi";
import type { KubeconfigCredentials } from "../kubeconfig";
import { karmadaRequest } from "./works-provider";

/** The API groups (and versions) a Karmada API must serve before anything goes into it. */
export const KARMADA_API_GROUPS = [
  "cluster.karmada.io/v1alpha1",
  "policy.karmada.io/v1alpha1",
  "work.karmada.io/v1alpha2",
  "config.karmada.io/v1alpha1",
];

/** The group the early wait needs: the Karmada apiserver itself answers (CRDs can go in). */
export const KARMADA_APISERVER_GROUPS = ["apiextensions.k8s.io/v1"];

/**
 * The leader-election Leases, in the Karmada API, of the chart's controllers (the
 * controller-manager, the scheduler, and the kube-controller-manager that issues token Secrets):
 * each has a holder once its component runs.
 */
export const KARMADA_CONTROLLER_LEASES = [
  "karmada-system/karmada-controller-manager",
  "karmada-system/karmada-scheduler",
  "kube-system/kube-controller-manager",
];

/** The chart's webhook configurations; a policy is admitted only once karmada-webhook answers them. */
export const KARMADA_WEBHOOK_CONFIGURATIONS = ["mutating-config", "validating-config"];

/** Seconds to wait for them. */
export const DEFAULT_API_READY_TIMEOUT_SECONDS = 300;

export interface KarmadaApiReadyInputs {
  /** How to reach the Karmada API. Secret. */
  karmada: KubeconfigCredentials;
  /** group/version paths to wait for. */
  groups: string[];
  /** Leases ("namespace/name") that must have a holder. Without it, no Lease is waited for. */
  leases?: string[];
  /**
   * Wait until the Karmada webhook admits a PropagationPolicy (its configurations exist and a
   * dry-run create succeeds). Without it, admission is not waited for.
   */
  admission?: boolean;
  /**
   * Wait until every Deployment and StatefulSet in `namespace` of the host cluster (Karmada's
   * chart's) has rolled out: its current spec observed, every replica updated and available. The
   * chart is installed without Helm's wait, so after an upgrade the old pods may still serve the
   * checks above. Without it, no rollout is waited for.
   */
  rollout?: { host: KubeconfigCredentials; namespace: string };
  /**
   * What the wait is for: a hash of the chart and its values (`releaseRevision`). A new one (an
   * upgrade, a values change) makes the next `up` wait again. Without it, only a change of the
   * checks does.
   */
  revision?: string;
  timeoutSeconds: number;
}

/** What a wait checks, by key: each group, `lease <namespace>/<name>`, and `admission`. */
export function apiReadyChecks(
  inputs: Pick<KarmadaApiReadyInputs, "groups" | "leases" | "admission" | "rollout">,
): string[] {
  return [
    ...(inputs.rollout ? ["rollout"] : []),
    ...inputs.groups,
    ...(inputs.leases ?? []).map((l) => `lease ${l}`),
    ...(inputs.admission ? ["admission"] : []),
  ];
}

/** A short hash of a Helm release's chart and values: the `revision` of its waits. */
export function releaseRevision(chart: unknown, values: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify({ chart, values })).digest("hex").slice(0, 16);
}

interface Workload {
  metadata?: { name?: string; generation?: number };
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    readyReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
  };
}

/**
 * 200 when every Deployment and StatefulSet (as the API listed them) has rolled out: its current
 * generation observed, every replica updated and available (a StatefulSet: ready, and its current
 * revision the update revision); else what the first one that has not is doing.
 */
export function rolloutStatus(deployments: unknown, statefulSets: unknown): number | string {
  const items = (list: unknown) => ((list as { items?: Workload[] } | undefined)?.items ?? []) as Workload[];
  for (const [kind, w] of [
    ...items(deployments).map((d) => ["deployment", d] as const),
    ...items(statefulSets).map((d) => ["statefulset", d] as const),
  ]) {
    const want = w.spec?.replicas ?? 1;
    const st = w.status ?? {};
    const name = `${kind} ${w.metadata?.name}`;
    if ((st.observedGeneration ?? 0) < (w.metadata?.generation ?? 0)) return `${name}: its new spec not yet observed`;
    if ((st.updatedReplicas ?? 0) < want) return `${name}: ${st.updatedReplicas ?? 0} of ${want} replicas updated`;
    const available = kind === "deployment" ? st.availableReplicas : st.readyReplicas;
    if ((available ?? 0) < want || (st.replicas ?? 0) > want)
      return `${name}: ${available ?? 0} of ${want} replicas available, ${st.replicas ?? 0} running`;
    if (kind === "statefulset" && st.currentRevision !== st.updateRevision)
      return `${name}: rolling to ${st.updateRevision}`;
  }
  return 200;
}

/** The checks of `checks` whose answer was anything but 200 (by `status`: check → HTTP status or what went wrong). */
export function missingGroups(checks: string[], status: Record<string, number | string | undefined>): string[] {
  return checks.filter((g) => status[g] !== 200);
}

/** 200 when a Lease (as the API returned it) has a holder, else why not. */
export function leaseStatus(lease: unknown): number | string {
  const holder = (lease as { spec?: { holderIdentity?: string } } | undefined)?.spec?.holderIdentity;
  return holder ? 200 : "no holder yet";
}

/** The APIService that serves a group/version: "cluster.karmada.io/v1alpha1" → "v1alpha1.cluster.karmada.io". */
export function apiServiceName(groupVersion: string): string {
  const [group, version] = groupVersion.split("/");
  return `${version}.${group}`;
}

/**
 * Why an APIService (as the API returned it) is not Available: its Available condition's reason and
 * message, e.g. `FailedDiscoveryCheck: failing or missing response from https://…: dial tcp: lookup
 * … no such host`. Undefined when it is Available or its status says nothing.
 */
export function apiServiceProblem(apiService: unknown): string | undefined {
  const conditions = (
    apiService as { status?: { conditions?: { type?: string; status?: string; reason?: string; message?: string }[] } }
  )?.status?.conditions;
  const available = conditions?.find((c) => c.type === "Available");
  if (!available || available.status === "True") return undefined;
  return [available.reason, available.message].filter((t) => t).join(": ") || `Available ${available.status}`;
}

/** The dry-run PropagationPolicy the admission check posts (nothing is stored). */
export const ADMISSION_PROBE = {
  apiVersion: "policy.karmada.io/v1alpha1",
  kind: "PropagationPolicy",
  metadata: { name: "iko-plus-admission-probe", namespace: "default" },
  spec: {
    resourceSelectors: [{ apiVersion: "v1", kind: "ConfigMap", name: "iko-plus-admission-probe" }],
    placement: { clusterAffinity: { clusterNames: ["iko-plus-admission-probe"] } },
  },
};

/** The one message of a failed wait: which checks, what they answered, and the fix. */
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
  // An HTTP answer to the APIService's discovery check that is not the aggregated apiserver's own
  // (its Service is headless, see postrender.ts): something else answered at that address.
  const foreign = missing.some(
    (g) => typeof status[g] === "string" && /bad status from https:\/\//.test(status[g] as string),
  );
  return (
    `the Karmada API at ${server} was not ready within ${seconds} s of the chart's install or upgrade: ${what}; ` +
    (foreign
      ? "a server other than karmada-aggregated-apiserver answered its discovery check (a proxy or host on the network answering for that address, or a Service that is not headless as KarmadaControlPlane makes it); check `kubectl -n karmada-host get svc karmada-aggregated-apiserver` shows CLUSTER-IP None and that its pod is Ready, then run up again"
      : "check the chart's karmada-static-resource Job, karmada-aggregated-apiserver, the controllers and karmada-webhook on the host (kubectl -n karmada-host get jobs,pods), then run up again")
  );
}

async function checkOnce(
  k: KubeconfigCredentials,
  check: string,
  rollout?: KarmadaApiReadyInputs["rollout"],
): Promise<number | string | undefined> {
  if (check === "rollout" && rollout) {
    const ns = rollout.namespace;
    const d = await karmadaRequest(rollout.host, `/apis/apps/v1/namespaces/${ns}/deployments`);
    const s = await karmadaRequest(rollout.host, `/apis/apps/v1/namespaces/${ns}/statefulsets`);
    if (d.status !== 200) return d.status ?? d.error;
    if (s.status !== 200) return s.status ?? s.error;
    return rolloutStatus(d.body, s.body);
  }
  if (check.startsWith("lease ")) {
    const [ns, name] = check.slice("lease ".length).split("/");
    const r = await karmadaRequest(k, `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${name}`);
    return r.status === 200 ? leaseStatus(r.body) : (r.status ?? r.error);
  }
  if (check === "admission") {
    for (const c of KARMADA_WEBHOOK_CONFIGURATIONS) {
      const kind = c.startsWith("mutating") ? "mutating" : "validating";
      const r = await karmadaRequest(k, `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations/${c}`);
      if (r.status === 404) return `no ${kind} webhook configuration ${c} yet`;
      if (r.status !== 200) return r.status ?? r.error;
    }
    const r = await karmadaRequest(
      k,
      "/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies?dryRun=All",
      ADMISSION_PROBE,
    );
    return r.status ?? r.error;
  }
  const r = await karmadaRequest(k, `/apis/${check}`);
  if (r.status === 200 || r.status === undefined) return r.status ?? r.error;
  // A group an APIService serves (cluster.karmada.io, by karmada-aggregated-apiserver) answers 503
  // while the apiserver cannot reach its backend: the APIService's status says why.
  const name = apiServiceName(check);
  const svc = await karmadaRequest(k, `/apis/apiregistration.k8s.io/v1/apiservices/${name}`);
  const problem = svc.status === 200 ? apiServiceProblem(svc.body) : undefined;
  return problem ? `HTTP ${r.status}; APIService ${name}: ${problem}` : r.status;
}

export async function waitForKarmadaApi(inputs: KarmadaApiReadyInputs, pollMs = 1000): Promise<void> {
  const start = Date.now();
  const checks = apiReadyChecks(inputs);
  const status: Record<string, number | string | undefined> = {};
  for (;;) {
    for (const c of missingGroups(checks, status)) status[c] = await checkOnce(inputs.karmada, c, inputs.rollout);
    const missing = missingGroups(checks, status);
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
    const changed = (
      ["karmada", "groups", "leases", "admission", "rollout", "revision", "timeoutSeconds"] as const
    ).some((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
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
      { ...args, karmada: pulumi.secret(args.karmada), rollout: args.rollout && pulumi.secret(args.rollout) },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "karmada", "rollout"] },
      "iko-plus-karmada",
      "KarmadaApiReady",
    );
  }
}
