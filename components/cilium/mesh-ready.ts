/**
 * ClusterMeshReady: a Pulumi dynamic resource that, on create and update, waits until the mesh
 * really carries global Services between its members, judged by Cilium itself: every agent of
 * every member holds, for the probe Service (a global Service in each member, backed by that
 * member's clustermesh-apiserver pod), the backends of every *other* member, as
 * `cilium-dbg service list` shows them (the load-balancing table the datapath uses).
 *
 * "1/1 remote clusters ready" in `cilium-dbg status` is not enough: it was seen with "0
 * global-services" while a global Service never answered from the other cluster. A Service that
 * is made global after `up` travels the same path as the probe did.
 *
 * The kubeconfig credentials are a secret input and output. Only Node built-ins and the pure
 * functions below run in the provider process.
 */
import * as pulumi from "@pulumi/pulumi";
import { apiRequest, execInPod } from "../cluster/api";
import type { KubeconfigCredentials } from "../kubeconfig";
import { CILIUM_NAMESPACE } from "./mesh-values";

/** The probe Service's name, in CILIUM_NAMESPACE of every member. */
export const MESH_PROBE_SERVICE = "iko-plus-mesh-probe";
/** The clustermesh-apiserver's etcd port, which the probe Service points at (no traffic is sent). */
export const MESH_PROBE_PORT = 2379;
/** Seconds `up` waits for the mesh to carry the probe between every pair of members. */
export const DEFAULT_MESH_READY_TIMEOUT_SECONDS = 300;
/** The wait's bounds, in seconds (ClusterMesh's `readyTimeoutSeconds`, config `mesh.readyTimeoutSeconds`). */
export const MESH_READY_TIMEOUT_RANGE = { min: 10, max: 3600 } as const;

/** The probe Service: global across the mesh, its endpoints the member's own clustermesh-apiserver. */
export function meshProbeServiceManifest() {
  return {
    metadata: {
      name: MESH_PROBE_SERVICE,
      namespace: CILIUM_NAMESPACE,
      labels: { "app.kubernetes.io/managed-by": "iko-plus" },
      annotations: { "service.cilium.io/global": "true" },
    },
    spec: {
      type: "ClusterIP",
      selector: { "k8s-app": "clustermesh-apiserver" },
      ports: [{ name: "probe", port: MESH_PROBE_PORT, targetPort: MESH_PROBE_PORT, protocol: "TCP" }],
    },
  };
}

interface ServiceListEntry {
  spec?: {
    flags?: { name?: string; namespace?: string };
    "backend-addresses"?: { ip?: string | null }[] | null;
  };
}

/**
 * The backend addresses an agent holds for a Service, from `cilium-dbg service list -o json`
 * (every frontend of the Service: its ClusterIP and any other), sorted, without repeats.
 */
export function serviceBackends(serviceList: unknown, service: { namespace: string; name: string }): string[] {
  const out = new Set<string>();
  if (!Array.isArray(serviceList)) return [];
  for (const entry of serviceList as ServiceListEntry[]) {
    const flags = entry?.spec?.flags;
    if (flags?.name !== service.name || flags?.namespace !== service.namespace) continue;
    for (const b of entry.spec?.["backend-addresses"] ?? []) if (b?.ip) out.add(b.ip);
  }
  return [...out].sort();
}

interface EndpointSliceList {
  items?: { endpoints?: { addresses?: string[]; conditions?: { ready?: boolean | null } }[] | null }[];
}

/** The ready addresses of a Service's EndpointSlices (as the API lists them), sorted. */
export function readyAddresses(list: unknown): string[] {
  const out = new Set<string>();
  for (const slice of (list as EndpointSliceList | undefined)?.items ?? [])
    for (const e of slice.endpoints ?? [])
      if (e.conditions?.ready !== false) for (const a of e.addresses ?? []) out.add(a);
  return [...out].sort();
}

/** What one agent lacks: the backends of each other member it does not hold. */
export interface AgentGap {
  member: string;
  agent: string;
  /** By the other member's name: its probe backends this agent does not hold, or why none is known. */
  missing: Record<string, string[] | string>;
}

/**
 * The gaps of `member`'s agent given what it holds and each member's own probe backends
 * (`own`: by member, its ready addresses, or why they are not known). Empty when it holds all.
 */
export function agentGap(
  member: string,
  agent: string,
  holds: string[],
  own: Record<string, string[] | string>,
): AgentGap | undefined {
  const missing: Record<string, string[] | string> = {};
  for (const [other, addresses] of Object.entries(own)) {
    if (other === member) continue;
    if (typeof addresses === "string") missing[other] = addresses;
    else if (addresses.length === 0) missing[other] = "its clustermesh-apiserver has no ready pod";
    else {
      const lacking = addresses.filter((a) => !holds.includes(a));
      if (lacking.length > 0) missing[other] = lacking;
    }
  }
  return Object.keys(missing).length > 0 ? { member, agent, missing } : undefined;
}

/** The one message of a failed wait: each agent and what it lacks, and the fix. */
export function meshReadyTimeoutMessage(seconds: number, gaps: (AgentGap | string)[]): string {
  const what = gaps
    .map((g) =>
      typeof g === "string"
        ? g
        : `${g.member}'s agent ${g.agent} holds no backend of ${Object.entries(g.missing)
            .map(([other, m]) => `${other} (${typeof m === "string" ? m : `lacks ${m.join(", ")}`})`)
            .join(", ")}`,
    )
    .join("; ");
  return (
    `the Cilium ClusterMesh did not carry the global Service ${CILIUM_NAMESPACE}/${MESH_PROBE_SERVICE} between its members within ${seconds} s: ${what}; ` +
    `check each member's clustermesh-apiserver and its kvstoremesh (kubectl -n ${CILIUM_NAMESPACE} logs deploy/clustermesh-apiserver -c kvstoremesh) ` +
    "and that every member reaches the others' clustermesh-apiserver address and NodePort, then run up again"
  );
}

export interface MeshMemberAccess {
  /** The member's Cilium cluster name. */
  name: string;
  /** How to reach its API. Secret. */
  kubeconfig: KubeconfigCredentials;
}

export interface ClusterMeshReadyInputs {
  members: MeshMemberAccess[];
  timeoutSeconds: number;
  /** Values whose change means waiting again (the members' Cilium release revisions). */
  triggers: unknown[];
}

/** One pass: each member's own backends, then what each agent lacks (or why it could not be read). */
async function meshGaps(members: MeshMemberAccess[]): Promise<(AgentGap | string)[]> {
  const own: Record<string, string[] | string> = {};
  for (const m of members) {
    const r = await apiRequest(
      m.kubeconfig,
      `/apis/discovery.k8s.io/v1/namespaces/${CILIUM_NAMESPACE}/endpointslices?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${MESH_PROBE_SERVICE}`)}`,
    );
    own[m.name] = r.status === 200 ? readyAddresses(r.body) : `its API answered ${r.status ?? r.error}`;
  }
  const gaps: (AgentGap | string)[] = [];
  for (const m of members) {
    const pods = await apiRequest(
      m.kubeconfig,
      `/api/v1/namespaces/${CILIUM_NAMESPACE}/pods?labelSelector=${encodeURIComponent("k8s-app=cilium")}`,
    );
    const agents = (
      (pods.body as { items?: { metadata?: { name?: string }; status?: { phase?: string } }[] })?.items ?? []
    )
      .filter((p) => p.status?.phase === "Running")
      .map((p) => p.metadata?.name as string);
    if (pods.status !== 200 || agents.length === 0) {
      gaps.push(`${m.name} has no running Cilium agent (${pods.status ?? pods.error})`);
      continue;
    }
    for (const agent of agents) {
      const res = await execInPod(
        m.kubeconfig,
        { namespace: CILIUM_NAMESPACE, pod: agent, container: "cilium-agent" },
        ["cilium-dbg", "service", "list", "-o", "json"],
      );
      let holds: string[];
      try {
        holds = serviceBackends(JSON.parse(res.stdout), { namespace: CILIUM_NAMESPACE, name: MESH_PROBE_SERVICE });
      } catch {
        gaps.push(
          `${m.name}'s agent ${agent}: cilium-dbg service list answered no list (${res.error ?? res.stderr.trim().slice(0, 200)})`,
        );
        continue;
      }
      const gap = agentGap(m.name, agent, holds, own);
      if (gap) gaps.push(gap);
    }
  }
  return gaps;
}

export async function waitForMesh(inputs: ClusterMeshReadyInputs, pollMs = 2000): Promise<void> {
  const start = Date.now();
  for (;;) {
    const gaps = await meshGaps(inputs.members);
    if (gaps.length === 0) return;
    if ((Date.now() - start) / 1000 >= inputs.timeoutSeconds)
      throw new Error(meshReadyTimeoutMessage(inputs.timeoutSeconds, gaps));
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export class ClusterMeshReadyProvider implements pulumi.dynamic.ResourceProvider {
  async diff(
    _id: string,
    olds: ClusterMeshReadyInputs,
    news: ClusterMeshReadyInputs,
  ): Promise<pulumi.dynamic.DiffResult> {
    const names = (i: ClusterMeshReadyInputs) => JSON.stringify((i.members ?? []).map((m) => m.name));
    const changed =
      names(olds) !== names(news) ||
      JSON.stringify(olds.triggers) !== JSON.stringify(news.triggers) ||
      olds.timeoutSeconds !== news.timeoutSeconds;
    return { changes: changed, replaces: [], deleteBeforeReplace: false };
  }

  async create(inputs: ClusterMeshReadyInputs): Promise<pulumi.dynamic.CreateResult> {
    await waitForMesh(inputs);
    return { id: "cluster-mesh-ready", outs: inputs };
  }

  async update(
    _id: string,
    _olds: ClusterMeshReadyInputs,
    news: ClusterMeshReadyInputs,
  ): Promise<pulumi.dynamic.UpdateResult> {
    await waitForMesh(news);
    return { outs: news };
  }

  async read(id: string, props: ClusterMeshReadyInputs): Promise<pulumi.dynamic.ReadResult> {
    return { id, props };
  }
}

const MESH_READY_PROVIDER = new ClusterMeshReadyProvider();

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export class ClusterMeshReady extends pulumi.dynamic.Resource {
  constructor(name: string, args: Inputs<ClusterMeshReadyInputs>, opts?: pulumi.CustomResourceOptions) {
    super(
      MESH_READY_PROVIDER,
      name,
      { ...args, members: pulumi.secret(args.members) },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "members"] },
      "iko-plus-cilium",
      "ClusterMeshReady",
    );
  }
}
