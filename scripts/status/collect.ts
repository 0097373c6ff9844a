/**
 * Reads a stack's clusters for the status view: given the stack's outputs (kubeconfigs included,
 * which stay in this process and never reach the report), asks each cluster and the Karmada API
 * what runs there. Every read has a deadline, so a cluster that does not answer is reported as
 * not reachable instead of hanging the view.
 */
import * as k8s from "@kubernetes/client-node";
import { parseKubeconfig } from "../../components/kubeconfig";
import {
  ClusterReport,
  Condition,
  FederatedReport,
  IrisClusterReport,
  KarmadaReport,
  MemberReport,
  StatusReport,
  WorkloadReport,
} from "./report";
import { irisStatusOf } from "../../components/iris/health";

/** The outputs the view uses, as `pulumi stack output --json --show-secrets` prints them. */
export interface StackOutputs {
  program?: string;
  homeKubeconfig?: string;
  workKubeconfig?: string;
  operatorTargetKubeconfig?: string;
  operatorNamespace?: string;
  operatorDeployment?: string;
  clusterKubeconfigs?: Record<string, string>;
  karmadaKubeconfig?: string;
  federatedIrisClusters?: { name: string; namespace: string; policy: string }[];
  memberKubeconfig?: string;
  joinedMember?: string;
}

/** How long one read may take before the cluster counts as not reachable. */
export const READ_TIMEOUT_MS = 8_000;

function deadline<T>(p: Promise<T>, what: string, ms = READ_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** The server a kubeconfig's current context points at. */
const kubeconfigServer = (text: string): string => parseKubeconfig(text, "a kubeconfig output").server;

/** A read error in words, without anything of the request (no header, no credential). */
function reason(e: unknown): string {
  const err = e as { code?: number | string; message?: string; body?: unknown };
  if (typeof err.code === "number") return `HTTP ${err.code}`;
  const msg = (err.message ?? String(e)).split("\n")[0];
  return msg.length > 200 ? `${msg.slice(0, 200)}…` : msg;
}

const isNotFound = (e: unknown) => (e as { code?: number }).code === 404;

interface Obj {
  metadata?: { name?: string; namespace?: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const byName = <T extends { namespace?: string; name: string }>(a: T, b: T) =>
  `${a.namespace ?? ""}/${a.name}`.localeCompare(`${b.namespace ?? ""}/${b.name}`);

/** What one cluster runs. */
export async function readCluster(name: string, kubeconfig: string): Promise<ClusterReport> {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(kubeconfig);
  const server = kc.getCurrentCluster()?.server ?? "";
  const report: ClusterReport = { name, server, reachable: false, nodes: [], operators: [] };
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const apps = kc.makeApiClient(k8s.AppsV1Api);
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  try {
    const nodes = await deadline(core.listNode(), `${name}: list nodes`);
    report.reachable = true;
    report.nodes = nodes.items
      .map((n) => ({
        name: n.metadata?.name ?? "",
        ready: (n.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True"),
      }))
      .sort(byName);
  } catch (e) {
    report.error = reason(e);
    return report;
  }
  const daemonSets = await deadline(apps.listNamespacedDaemonSet({ namespace: "kube-system" }), `${name}: DaemonSets`);
  const cni = ["cilium", "kindnet"]
    .map((n) => daemonSets.items.find((d) => d.metadata?.name === n))
    .find((d) => d !== undefined);
  if (cni)
    report.cni = {
      namespace: "kube-system",
      name: cni.metadata?.name ?? "",
      ready: cni.status?.numberReady ?? 0,
      desired: cni.status?.desiredNumberScheduled ?? 0,
    };
  const operators = await deadline(
    apps.listDeploymentForAllNamespaces({ labelSelector: "app=iris-operator-amd" }),
    `${name}: operator Deployments`,
  );
  report.operators = operators.items
    .map(
      (d): WorkloadReport => ({
        namespace: d.metadata?.namespace ?? "",
        name: d.metadata?.name ?? "",
        ready: d.status?.readyReplicas ?? 0,
        desired: d.spec?.replicas ?? 1,
      }),
    )
    .sort(byName);
  try {
    const list = (await deadline(
      custom.listClusterCustomObject({ group: "intersystems.com", version: "v1alpha1", plural: "irisclusters" }),
      `${name}: IrisClusters`,
    )) as { items: Obj[] };
    report.irisClusters = list.items
      .map(
        (o): IrisClusterReport => ({
          namespace: o.metadata?.namespace ?? "",
          name: o.metadata?.name ?? "",
          status: irisStatusOf(o),
        }),
      )
      .sort(byName);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  return report;
}

/** Karmada's view: each member Cluster and what it propagates, and each federated IrisCluster. */
export async function readKarmada(
  kubeconfig: string,
  federated: { name: string; namespace: string; policy: string }[],
): Promise<KarmadaReport> {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(kubeconfig);
  const server = kc.getCurrentCluster()?.server ?? "";
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const report: KarmadaReport = { server, reachable: false, members: [], federated: [] };
  let clusters: Obj[];
  try {
    clusters = (
      (await deadline(
        custom.listClusterCustomObject({ group: "cluster.karmada.io", version: "v1alpha1", plural: "clusters" }),
        "karmada: Clusters",
      )) as { items: Obj[] }
    ).items;
    report.reachable = true;
  } catch (e) {
    report.error = reason(e);
    return report;
  }
  const works = (
    (await deadline(
      custom.listClusterCustomObject({ group: "work.karmada.io", version: "v1alpha1", plural: "works" }),
      "karmada: Works",
    )) as { items: Obj[] }
  ).items;
  report.members = clusters
    .map((c): MemberReport => {
      const name = c.metadata?.name ?? "";
      const ready = ((c.status?.conditions ?? []) as Condition[]).find((x) => x.type === "Ready")?.status;
      const propagated = works
        .filter((w) => w.metadata?.namespace === `karmada-es-${name}`)
        .flatMap(
          (w) =>
            ((w.spec?.workload as { manifests?: Obj[] & { kind?: string }[] })?.manifests ?? []) as (Obj & {
              kind?: string;
            })[],
        )
        .map(
          (m) =>
            `${m.kind ?? "?"} ${m.metadata?.namespace ? `${m.metadata.namespace}/` : ""}${m.metadata?.name ?? "?"}`,
        )
        .sort();
      return { name, syncMode: c.spec?.syncMode as string | undefined, ready, propagated };
    })
    .sort(byName);
  for (const f of federated) {
    const entry: FederatedReport = { ...f, scheduledTo: [], perMember: [] };
    try {
      const template = (await deadline(
        custom.getNamespacedCustomObject({
          group: "intersystems.com",
          version: "v1alpha1",
          namespace: f.namespace,
          plural: "irisclusters",
          name: f.name,
        }),
        `karmada: IrisCluster ${f.namespace}/${f.name}`,
      )) as Obj;
      entry.status = irisStatusOf(template);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    try {
      const binding = (await deadline(
        custom.getNamespacedCustomObject({
          group: "work.karmada.io",
          version: "v1alpha2",
          namespace: f.namespace,
          plural: "resourcebindings",
          name: `${f.name}-iriscluster`,
        }),
        `karmada: ResourceBinding ${f.namespace}/${f.name}-iriscluster`,
      )) as Obj;
      entry.scheduledTo = ((binding.spec?.clusters ?? []) as { name: string }[]).map((c) => c.name).sort();
      entry.perMember = (
        (binding.status?.aggregatedStatus ?? []) as { clusterName: string; applied?: boolean; health?: string }[]
      )
        .map((a) => ({ clusterName: a.clusterName, applied: a.applied, health: a.health }))
        .sort((a, b) => a.clusterName.localeCompare(b.clusterName));
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    report.federated.push(entry);
  }
  return report;
}

/** The whole report of a stack from its outputs. */
export async function collect(stack: string, outputs: StackOutputs): Promise<StatusReport> {
  const program = outputs.program ?? "unknown";
  const clusters: [string, string][] = [];
  if (outputs.homeKubeconfig) clusters.push(["home", outputs.homeKubeconfig]);
  if (outputs.workKubeconfig) clusters.push(["work", outputs.workKubeconfig]);
  for (const [name, kc] of Object.entries(outputs.clusterKubeconfigs ?? {})) clusters.push([name, kc]);
  if (outputs.memberKubeconfig) clusters.push([outputs.joinedMember ?? "member", outputs.memberKubeconfig]);
  const report: StatusReport = {
    stack,
    program,
    clusters: await Promise.all(
      clusters.map(([name, kc]) =>
        readCluster(name, kc).catch(
          (e): ClusterReport => ({
            name,
            server: kubeconfigServer(kc),
            reachable: false,
            error: reason(e),
            nodes: [],
            operators: [],
          }),
        ),
      ),
    ),
  };
  if (outputs.operatorNamespace && outputs.operatorDeployment)
    report.operator = {
      cluster: "home",
      namespace: outputs.operatorNamespace,
      deployment: outputs.operatorDeployment,
      reconciles: outputs.operatorTargetKubeconfig ? "work" : "home",
      server: outputs.operatorTargetKubeconfig ? kubeconfigServer(outputs.operatorTargetKubeconfig) : "in-cluster",
    };
  if (outputs.karmadaKubeconfig)
    report.karmada = await readKarmada(outputs.karmadaKubeconfig, outputs.federatedIrisClusters ?? []).catch(
      (e): KarmadaReport => ({
        server: kubeconfigServer(outputs.karmadaKubeconfig ?? ""),
        reachable: false,
        error: reason(e),
        members: [],
        federated: [],
      }),
    );
  return report;
}
