/**
 * The status view of a stack (`npm run status`): what was read from its clusters, as one typed
 * report, judged and rendered by pure functions. Nothing here holds a credential: the collector
 * (collect.ts) reads the kubeconfig outputs and keeps them to itself.
 */
import { IrisCondition, IrisStatus, describeIris, irisHealthy } from "../../components/iris/health";

export { describeIris, irisHealthy };
export type { IrisStatus };
/** A Kubernetes condition as the report keeps it. */
export type Condition = IrisCondition;

export interface IrisClusterReport {
  namespace: string;
  name: string;
  /** Undefined when the object has no status yet. */
  status?: IrisStatus;
}

export interface NodeReport {
  name: string;
  ready: boolean;
}

/** A DaemonSet or Deployment: how many of its pods are ready of how many it wants. */
export interface WorkloadReport {
  namespace: string;
  name: string;
  ready: number;
  desired: number;
}

export interface ClusterReport {
  /** The cluster's name in the stack (`home`, `work` for wfh stacks, else its configured name). */
  name: string;
  /** The API server the Pulumi host reaches it at. */
  server: string;
  reachable: boolean;
  /** Why it could not be read (no credential in it). */
  error?: string;
  nodes: NodeReport[];
  /** The CNI's DaemonSet, when one is found (cilium in kube-system, else kindnet). */
  cni?: WorkloadReport;
  /** IKO operators found on the cluster (Deployments labelled app=iris-operator-amd). */
  operators: WorkloadReport[];
  /** Every IrisCluster on the cluster; undefined when the IrisCluster CRD is not installed. */
  irisClusters?: IrisClusterReport[];
}

export interface MemberReport {
  name: string;
  syncMode?: string;
  /** The Cluster's Ready condition ("True", "False", "Unknown") or undefined when it has none. */
  ready?: string;
  /** What Karmada propagates to it: `<kind> <namespace>/<name>` of each Work's manifests. */
  propagated: string[];
}

export interface FederatedReport {
  namespace: string;
  name: string;
  policy: string;
  /** The template's status in the Karmada API (aggregated from the members). */
  status?: IrisStatus;
  /** The members its ResourceBinding schedules it to. */
  scheduledTo: string[];
  /** Karmada's per-member view of it (ResourceBinding status.aggregatedStatus). */
  perMember: { clusterName: string; applied?: boolean; health?: string }[];
}

export interface KarmadaReport {
  server: string;
  reachable: boolean;
  error?: string;
  members: MemberReport[];
  federated: FederatedReport[];
}

export interface StatusReport {
  stack: string;
  program: string;
  clusters: ClusterReport[];
  /** wfh: the operator at home and the cluster its kubeconfig points it at. */
  operator?: { cluster: string; namespace: string; deployment: string; reconciles: string; server: string };
  karmada?: KarmadaReport;
}

const workload = (w: WorkloadReport) => `${w.namespace}/${w.name} ${w.ready}/${w.desired} ready`;

/** What is unhealthy, one line each; empty when everything is. */
export function problems(r: StatusReport): string[] {
  const out: string[] = [];
  for (const c of r.clusters) {
    if (!c.reachable) {
      out.push(`cluster ${c.name}: not reachable at ${c.server}${c.error ? ` (${c.error})` : ""}`);
      continue;
    }
    const notReady = c.nodes.filter((n) => !n.ready).map((n) => n.name);
    if (c.nodes.length === 0) out.push(`cluster ${c.name}: no nodes`);
    if (notReady.length) out.push(`cluster ${c.name}: nodes not Ready: ${notReady.join(", ")}`);
    if (c.cni && c.cni.ready < c.cni.desired) out.push(`cluster ${c.name}: CNI ${workload(c.cni)}`);
    for (const o of c.operators)
      if (o.ready < o.desired || o.desired === 0) out.push(`cluster ${c.name}: operator ${workload(o)}`);
    for (const i of c.irisClusters ?? [])
      if (!irisHealthy(i.status))
        out.push(`cluster ${c.name}: IrisCluster ${i.namespace}/${i.name}: ${describeIris(i.status)}`);
  }
  if (r.operator) {
    const home = r.clusters.find((c) => c.name === r.operator?.cluster);
    const found = home?.operators.find(
      (o) => o.namespace === r.operator?.namespace && o.name === r.operator?.deployment,
    );
    if (home?.reachable && !found)
      out.push(`cluster ${r.operator.cluster}: operator ${r.operator.namespace}/${r.operator.deployment} not found`);
  }
  const k = r.karmada;
  if (k && !k.reachable) out.push(`karmada: not reachable at ${k.server}${k.error ? ` (${k.error})` : ""}`);
  if (k?.reachable) {
    for (const m of k.members) if (m.ready !== "True") out.push(`member ${m.name}: Ready=${m.ready ?? "unknown"}`);
    for (const f of k.federated) {
      if (!irisHealthy(f.status)) out.push(`federated IrisCluster ${f.namespace}/${f.name}: ${describeIris(f.status)}`);
      for (const p of f.perMember)
        if (p.applied === false || (p.health !== undefined && p.health !== "Healthy"))
          out.push(
            `federated IrisCluster ${f.namespace}/${f.name} on ${p.clusterName}: ${p.applied === false ? "not applied" : `health ${p.health}`}`,
          );
    }
  }
  return out;
}

/** The report as text, one block per cluster, then the fleet, then the verdict. */
export function renderText(r: StatusReport): string {
  const lines: string[] = [`stack ${r.stack} (program ${r.program})`];
  for (const c of r.clusters) {
    lines.push(
      "",
      `cluster ${c.name}  ${c.server}  ${c.reachable ? "reachable" : `NOT REACHABLE${c.error ? `: ${c.error}` : ""}`}`,
    );
    if (!c.reachable) continue;
    const ready = c.nodes.filter((n) => n.ready).length;
    lines.push(
      `  nodes     ${ready}/${c.nodes.length} Ready${c.nodes.length ? `: ${c.nodes.map((n) => `${n.name}${n.ready ? "" : " (NotReady)"}`).join(", ")}` : ""}`,
    );
    lines.push(`  cni       ${c.cni ? workload(c.cni) : "no cilium or kindnet DaemonSet found"}`);
    for (const o of c.operators) {
      const wfh = r.operator && r.operator.cluster === c.name && r.operator.namespace === o.namespace;
      lines.push(
        `  operator  ${workload(o)}${wfh ? `, reconciles ${r.operator?.reconciles} (${r.operator?.server})` : ""}`,
      );
    }
    if (c.irisClusters === undefined) lines.push("  iris      the IrisCluster CRD is not installed");
    for (const i of c.irisClusters ?? []) lines.push(`  iris      ${i.namespace}/${i.name}: ${describeIris(i.status)}`);
  }
  const k = r.karmada;
  if (k) {
    lines.push(
      "",
      `karmada  ${k.server}  ${k.reachable ? "reachable" : `NOT REACHABLE${k.error ? `: ${k.error}` : ""}`}`,
    );
    for (const m of k.members) {
      lines.push(
        `  member    ${m.name}: ${m.syncMode ?? "?"} mode, Ready=${m.ready ?? "unknown"}, ${m.propagated.length} propagated`,
      );
      for (const p of m.propagated) lines.push(`              ${p}`);
    }
    for (const f of k.federated) {
      lines.push(
        `  federated ${f.namespace}/${f.name} (policy ${f.policy}): ${describeIris(f.status)}; scheduled to ${f.scheduledTo.join(", ") || "no member"}`,
      );
      for (const m of f.status?.members ?? []) lines.push(`              ${m.clusterName}: ${m.phase}`);
    }
  }
  const found = problems(r);
  lines.push("", found.length ? `UNHEALTHY (${found.length}):` : "healthy");
  for (const p of found) lines.push(`  - ${p}`);
  return `${lines.join("\n")}\n`;
}

/** The report for `--json`: the report itself with the verdict. */
export function renderJson(r: StatusReport): string {
  const found = problems(r);
  return `${JSON.stringify({ ...r, healthy: found.length === 0, problems: found }, null, 2)}\n`;
}
