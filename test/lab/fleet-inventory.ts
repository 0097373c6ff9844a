/**
 * What a fleet stack should have put where, and what is really there: generated fleet stacks on
 * the lab (members, federated IrisClusters with license Secrets, fleet Secrets), the expected
 * objects per cluster, the live objects per cluster, and the stack's own record of them
 * (`pulumi stack export`). Used by the fault and scale lab tests.
 */
import * as fs from "fs";
import * as YAML from "yaml";
import { Clients, labKubeconfigPath, maybe } from "./kube";
import { PulumiCli } from "./pulumi-cli";
import { LabStack, labKarmada } from "./stacks";

export const IRIS = { group: "intersystems.com", version: "v1alpha1", plural: "irisclusters" };
export const CLUSTERS = { group: "cluster.karmada.io", version: "v1alpha1", plural: "clusters" };
export const POLICIES = { group: "policy.karmada.io", version: "v1alpha1", plural: "propagationpolicies" };
export const IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";

export type Obj = Record<string, unknown> & {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};

export interface FederatedSpec {
  name: string;
  /** Members it must reach (the test's expectation; placement is by clusterNames or labels). */
  members: string[];
  placement: Record<string, unknown>;
  /** License key in a secret config key (`<name>-license` Secret propagated with it). */
  licenseKeyConfig?: string;
}

export interface FleetSecretSpec {
  name: string;
  members: string[];
  clusterNames?: string[];
  labels?: Record<string, string>;
  dataKey: string;
}

export interface FleetSpec {
  /** Joined members, each with Cluster labels (placement by label). */
  members: { name: string; labels: Record<string, string>; iko?: boolean }[];
  federated: FederatedSpec[];
  fleetSecrets: FleetSecretSpec[];
  /** Secret config values by key (license keys, fleet Secret data as JSON). */
  secrets: Record<string, string>;
}

/** The stack config of `spec` on the lab: the lab's Karmada (existing), the stand-in IKO chart and CRD. */
export function fleetConfig(spec: FleetSpec): Record<string, unknown> {
  return {
    "iko-plus:clusters": spec.members.map((m) => ({
      name: m.name,
      kubeconfigPath: labKubeconfigPath(m.name),
      iko: m.iko ?? false,
      join: { provider: "lab", region: "local", labels: m.labels },
    })),
    "iko-plus:karmada": labKarmada(),
    "iko-plus:federatedIrisClusters": spec.federated.map((f) => ({
      name: f.name,
      image: IMAGE,
      placement: f.placement,
      ...(f.licenseKeyConfig ? { licenseKeyConfig: f.licenseKeyConfig } : {}),
    })),
    "iko-plus:fleetSecrets": spec.fleetSecrets.map((s) => ({
      name: s.name,
      dataKey: s.dataKey,
      ...(s.clusterNames ? { clusterNames: s.clusterNames } : {}),
      ...(s.labels ? { labels: s.labels } : {}),
    })),
  };
}

/** A fleet stack on the lab for `spec`, initialised, its secret config set. */
export async function fleetStack(cli: PulumiCli, name: string, spec: FleetSpec): Promise<LabStack> {
  const stack = new LabStack(cli, name, "Pulumi.lab-fleet.yaml", fleetConfig(spec));
  await stack.init();
  // One `config set-all` for every secret (50 separate `config set` runs would take minutes).
  const args = Object.entries(spec.secrets).flatMap(([k, v]) => ["--secret", `${k}=${v}`]);
  if (args.length) await cli.ok(["config", "set-all", "--stack", stack.name, ...args]);
  return stack;
}

/** Per cluster ("karmada" or a member), per kind, the set of names expected in namespace default. */
export type Expected = Record<string, { irisclusters: Set<string>; secrets: Set<string> }>;

/** Where each object of `spec` must be: templates and Secrets in Karmada, clones on their members. */
export function expectedObjects(spec: FleetSpec, allMembers: string[]): Expected {
  const out: Expected = {};
  for (const c of ["karmada", ...allMembers]) out[c] = { irisclusters: new Set(), secrets: new Set() };
  for (const f of spec.federated) {
    out.karmada.irisclusters.add(f.name);
    if (f.licenseKeyConfig) out.karmada.secrets.add(`${f.name}-license`);
    for (const m of f.members) {
      out[m].irisclusters.add(f.name);
      if (f.licenseKeyConfig) out[m].secrets.add(`${f.name}-license`);
    }
  }
  for (const s of spec.fleetSecrets) {
    out.karmada.secrets.add(s.name);
    for (const m of s.members) out[m].secrets.add(s.name);
  }
  return out;
}

/** Names in namespace default starting with `prefix`: IrisClusters and Secrets, as the cluster has them. */
export async function liveObjects(c: Clients, prefix: string): Promise<{ irisclusters: string[]; secrets: string[] }> {
  const iris = await maybe(
    () => c.custom.listNamespacedCustomObject({ ...IRIS, namespace: "default" }) as Promise<{ items: Obj[] }>,
  );
  const secrets = await c.core.listNamespacedSecret({ namespace: "default" });
  const names = (items: { metadata?: { name?: string } }[]) =>
    items
      .map((o) => o.metadata?.name ?? "")
      .filter((n) => n.startsWith(prefix))
      .sort();
  return { irisclusters: names(iris?.items ?? []), secrets: names(secrets.items) };
}

export interface Mismatch {
  cluster: string;
  kind: string;
  /** Expected but absent. */
  missing: string[];
  /** Present but not expected (orphans, or objects on a member they must not reach). */
  extra: string[];
}

/** Compares live objects with the expectation; [] when every cluster holds exactly what it must. */
export async function compare(
  clients: Record<string, Clients>,
  expected: Expected,
  prefix: string,
): Promise<Mismatch[]> {
  const out: Mismatch[] = [];
  for (const [cluster, want] of Object.entries(expected)) {
    const live = await liveObjects(clients[cluster], prefix);
    for (const kind of ["irisclusters", "secrets"] as const) {
      const missing = [...want[kind]].filter((n) => !live[kind].includes(n)).sort();
      const extra = live[kind].filter((n) => !want[kind].has(n));
      if (missing.length || extra.length) out.push({ cluster, kind, missing, extra });
    }
  }
  return out;
}

export function describeMismatches(ms: Mismatch[]): string {
  return ms
    .map((m) => `${m.cluster} ${m.kind}: missing [${m.missing.join(", ")}] extra [${m.extra.join(", ")}]`)
    .join("; ");
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  provider?: string;
}

export interface StackState {
  resources: StateResource[];
  pendingOperations: unknown[];
}

/** The stack's checkpoint (`pulumi stack export`): its resources and pending operations. */
export async function stackState(stack: LabStack): Promise<StackState> {
  const doc = JSON.parse(await stack.exportState()) as {
    deployment?: { resources?: StateResource[]; pending_operations?: unknown[] };
  };
  return { resources: doc.deployment?.resources ?? [], pendingOperations: doc.deployment?.pending_operations ?? [] };
}

/**
 * Kubernetes objects the state records more than once (same provider, type and id): after an
 * interrupted run, a resource recreated beside its old record would show here.
 */
export function duplicateIds(state: StackState): string[] {
  const seen = new Map<string, number>();
  for (const r of state.resources) {
    if (!r.type.startsWith("kubernetes:") || r.type === "pulumi:providers:kubernetes" || !r.id) continue;
    const key = `${(r.provider ?? "").replace(/::[^:]*$/, "")} ${r.type} ${r.id}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} x${n}`);
}

/** Names (last URN part) of the stack's resources of a type, sorted. */
export function namesOfType(state: StackState, type: string): string[] {
  return state.resources
    .filter((r) => r.type === type)
    .map((r) => r.urn.split("::").pop() as string)
    .sort();
}

/** Whether a Karmada Cluster object reports Ready=True. */
export function clusterReady(c: Obj | undefined): boolean {
  return ((c?.status?.conditions ?? []) as { type: string; status: string }[]).some(
    (x) => x.type === "Ready" && x.status === "True",
  );
}

/** The Ready condition of a Karmada Cluster ("True", "False", "Unknown", or "absent"). */
export function clusterReadyStatus(c: Obj | undefined): string {
  return (
    ((c?.status?.conditions ?? []) as { type: string; status: string }[]).find((x) => x.type === "Ready")?.status ??
    "absent"
  );
}

/** Reads a secret-free view of a lab kubeconfig's client key (to prove it never reaches output). */
export function clientKeyOf(name: string): string {
  return (YAML.parse(fs.readFileSync(labKubeconfigPath(name), "utf8")) as { users: { user: Record<string, string> }[] })
    .users[0].user["client-key-data"];
}

export const seconds = (sinceMs: number): number => Math.round((Date.now() - sinceMs) / 100) / 10;
