/**
 * Config of one cluster of a stack: where it comes from (kind or an existing kubeconfig) and
 * its CNI.
 */
import * as fs from "fs";
import { checkExistingClusterArgs, kubeconfigTextProblem } from "../../components/cluster";
import { KIND_DEFAULT_POD_SUBNET, checkCiliumCniArgs, checkClusterMeshMembers } from "../../components/cilium";
import { ArgProblem } from "../../components/names";
import { RegistryMirror, checkKindClusterArgs, checkRegistryMirror } from "../../components/kind";
import { Raw, Reader, configNumber } from "./read";

export interface ClusterConfig {
  /** Config key of this cluster (e.g. "home"). */
  key: string;
  name: string;
  source: "kind" | "kubeconfig" | "gke";
  /** A kubeconfig file (source kubeconfig). */
  kubeconfigPath?: string;
  /** The secret config key holding the kubeconfig contents (source kubeconfig). */
  kubeconfigSecretKey?: string;
  /**
   * Protect the cluster (kind or GKE) and its Karmada join from replacement and deletion
   * (KindCluster, GkeCluster and KarmadaMember `protect`).
   */
  protect: boolean;
  kind: {
    workers: number;
    nodeImage?: string;
    kubeProxyMode: "iptables" | "ipvs" | "nftables" | "none";
    podSubnet?: string;
    serviceSubnet?: string;
  };
  /**
   * `moduleImages`: only Cilium's images built from its Go module exist (the kind tier's
   * mirror): no Envoy, no Hubble relay/UI, images by tag (components/cilium/values.ts).
   * `dropCapabilities`: capabilities the host cannot grant, taken out of the agent's.
   */
  cilium: {
    enabled: boolean;
    clusterId: number;
    /** The chart version from Cilium's repository (CiliumCni `version`). */
    version?: string;
    chartPath?: string;
    moduleImages: boolean;
    dropCapabilities: string[];
  };
}

/** Whether Cilium replaces kube-proxy on this cluster: a kind cluster created without kube-proxy. */
export function replacesKubeProxy(c: Pick<ClusterConfig, "source" | "kind">): boolean {
  return c.source === "kind" && c.kind.kubeProxyMode === "none";
}

/** The cluster's pod subnet: as configured, else kind's default on a kind cluster, else not known. */
export function clusterPodSubnet(c: Pick<ClusterConfig, "source" | "kind">): string | undefined {
  return c.kind.podSubnet ?? (c.source === "kind" ? KIND_DEFAULT_POD_SUBNET : undefined);
}

const CLUSTER_KEYS = [
  "name",
  "source",
  "kubeconfigPath",
  "protect",
  "workers",
  "nodeImage",
  "kubeProxyMode",
  "podSubnet",
  "serviceSubnet",
  "cilium",
];
const CILIUM_KEYS = ["enabled", "clusterId", "version", "chartPath", "moduleImages", "dropCapabilities"];

/** Checks kubeconfig text (never shown) and reports its problem under `key`. */
export function checkKubeconfigText(r: Reader, key: string, text: string, secret: boolean, shown: unknown): void {
  const problem = kubeconfigTextProblem(text);
  if (problem) r.problems.add(key, shown, problem, { secret });
}

/**
 * Reads one cluster. `extraKeys` are keys the caller reads itself (they are not reported as
 * unknown); `sources` are the allowed values of `source`.
 */
export function readCluster(
  r: Reader,
  key: string,
  raw: unknown,
  defaults: { name: string; clusterId: number },
  secretKubeconfig: string | undefined,
  secretKey: string,
  opts: { extraKeys?: string[]; sources?: readonly ("kind" | "kubeconfig" | "gke")[] } = {},
): ClusterConfig {
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, [...CLUSTER_KEYS, ...(opts.extraKeys ?? [])]);
  const name = r.string(`${key}.name`, obj.name, defaults.name) as string;
  // Every stack cluster may be a kind cluster or run Cilium: its name is checked as both take it.
  r.componentProblems([...checkKindClusterArgs({ clusterName: name }), ...checkCiliumCniArgs({ clusterName: name })], {
    clusterName: `${key}.name`,
  });
  const source = r.oneOf(
    `${key}.source`,
    obj.source,
    opts.sources ?? (["kind", "kubeconfig"] as const),
    secretKubeconfig !== undefined || obj.kubeconfigPath !== undefined ? "kubeconfig" : "kind",
  );
  const kubeconfigPath = r.string(`${key}.kubeconfigPath`, obj.kubeconfigPath);
  if (source === "kubeconfig") {
    // ExistingCluster's rules (one source, a usable file); with neither, the config's own fix.
    const problems = checkExistingClusterArgs({ kubeconfig: secretKubeconfig, kubeconfigPath });
    if (problems.some(([, v]) => v === undefined)) {
      r.problems.add(
        `${key}.source`,
        source,
        `needs a kubeconfig; set ${key}.kubeconfigPath or \`pulumi config set --secret ${secretKey} "$(cat <file>)"\``,
      );
    } else {
      r.componentProblems(problems, { kubeconfigPath: `${key}.kubeconfigPath` });
    }
    if (kubeconfigPath === undefined && secretKubeconfig !== undefined)
      checkKubeconfigText(r, secretKey, secretKubeconfig, true, secretKubeconfig);
  } else if (kubeconfigPath !== undefined) {
    r.problems.add(
      `${key}.kubeconfigPath`,
      kubeconfigPath,
      `is set but ${key}.source is "${source}"; set ${key}.source to "kubeconfig" or remove the path`,
    );
  }
  const nodeImage = r.string(`${key}.nodeImage`, obj.nodeImage);
  const podSubnet = r.string(`${key}.podSubnet`, obj.podSubnet);
  const serviceSubnet = r.string(`${key}.serviceSubnet`, obj.serviceSubnet);
  r.componentProblems(checkKindClusterArgs({ nodeImage, podSubnet, serviceSubnet }), {
    nodeImage: `${key}.nodeImage`,
    podSubnet: `${key}.podSubnet`,
    serviceSubnet: `${key}.serviceSubnet`,
  });
  const ciliumRaw = r.object(`${key}.cilium`, obj.cilium);
  if (source === "gke" && (ciliumRaw.enabled === true || ciliumRaw.enabled === "true")) {
    r.problems.add(
      `${key}.cilium.enabled`,
      ciliumRaw.enabled,
      "is true for a GKE cluster, which runs Dataplane V2 (Cilium-based) already; remove it",
    );
  }
  r.unknownKeys(`${key}.cilium`, ciliumRaw, CILIUM_KEYS);
  const givenId = configNumber(ciliumRaw.clusterId);
  const idProblems = checkCiliumCniArgs({ clusterId: givenId });
  r.componentProblems(idProblems, { clusterId: [`${key}.cilium.clusterId`, ciliumRaw.clusterId] });
  const clusterId = givenId === undefined || idProblems.length > 0 ? defaults.clusterId : givenId;
  const chartPath = r.string(`${key}.cilium.chartPath`, ciliumRaw.chartPath);
  if (chartPath !== undefined && !fs.existsSync(chartPath)) {
    r.problems.add(
      `${key}.cilium.chartPath`,
      chartPath,
      "does not exist; point it at a local Cilium 1.18.6 chart directory or .tgz",
    );
  }
  const version = r.string(`${key}.cilium.version`, ciliumRaw.version);
  r.componentProblems(checkCiliumCniArgs({ version, chartPath }), { version: `${key}.cilium.version` });
  const dropRaw = ciliumRaw.dropCapabilities ?? [];
  const dropCapabilities =
    Array.isArray(dropRaw) && dropRaw.every((c) => typeof c === "string") ? (dropRaw as string[]) : [];
  if (dropCapabilities !== dropRaw) {
    r.problems.add(
      `${key}.cilium.dropCapabilities`,
      dropRaw,
      'must be a list of capability names, e.g. ["SYS_RESOURCE"]',
    );
  } else {
    r.componentProblems(checkCiliumCniArgs({ dropCapabilities }), {
      dropCapabilities: `${key}.cilium.dropCapabilities`,
    });
  }
  const givenWorkers = configNumber(obj.workers);
  const workerProblems = checkKindClusterArgs({ workers: givenWorkers });
  r.componentProblems(workerProblems, { workers: [`${key}.workers`, obj.workers] });
  const workers = givenWorkers === undefined || workerProblems.length > 0 ? 1 : givenWorkers;
  return {
    key,
    name,
    source,
    kubeconfigPath,
    kubeconfigSecretKey: source === "kubeconfig" && secretKubeconfig !== undefined ? secretKey : undefined,
    protect: r.boolean(`${key}.protect`, obj.protect, false),
    kind: {
      workers,
      nodeImage,
      kubeProxyMode: r.oneOf(
        `${key}.kubeProxyMode`,
        obj.kubeProxyMode,
        ["iptables", "ipvs", "nftables", "none"] as const,
        "iptables",
      ),
      podSubnet,
      serviceSubnet,
    },
    cilium: {
      enabled: r.boolean(`${key}.cilium.enabled`, ciliumRaw.enabled, source === "kind") && source !== "gke",
      clusterId,
      version,
      chartPath,
      moduleImages: r.boolean(`${key}.cilium.moduleImages`, ciliumRaw.moduleImages, false),
      dropCapabilities,
    },
  };
}

/**
 * Cross-cluster rules: unique names, unique Cilium ids (between clusters that run Cilium), pod
 * subnets apart. The rules are ClusterMesh's own (`checkClusterMeshMembers`), reported under each
 * cluster's keys.
 */
export function checkClusterSet(r: Reader, clusters: ClusterConfig[]): void {
  reportMemberProblems(
    r,
    clusters,
    checkClusterMeshMembers(
      clusters.map((c) => ({
        ref: c.key,
        name: c.name,
        clusterId: c.cilium.enabled ? c.cilium.clusterId : undefined,
        podSubnet: c.kind.podSubnet,
      })),
    ),
  );
}

/**
 * Reports `checkClusterMeshMembers` problems (fields `<cluster key>.<field>`) under config keys:
 * `clusterId` is `<key>.cilium.clusterId`; `fieldKeys` maps other fields (e.g. a mesh entry's
 * `nodePort`). A key that has a problem already gets no second one.
 */
export function reportMemberProblems(
  r: Reader,
  clusters: ClusterConfig[],
  problems: ArgProblem[],
  fieldKeys: Record<string, string> = {},
): void {
  for (const [field, value, problem] of problems) {
    const dot = field.lastIndexOf(".");
    const [ref, name] = [field.slice(0, dot), field.slice(dot + 1)];
    const key =
      fieldKeys[field] ??
      (name === "clusterId" && clusters.some((c) => c.key === ref) ? `${ref}.cilium.clusterId` : field);
    if (!r.problems.has(key)) r.problems.add(key, value, problem);
  }
}

/**
 * Reads the stack's `registryMirror` (every kind cluster of the stack pulls through it); the rules
 * are KindCluster's own (`checkRegistryMirror`), reported under this key.
 */
export function readRegistryMirror(r: Reader, raw: unknown): RegistryMirror | undefined {
  if (raw === undefined) return undefined;
  const obj = r.object("registryMirror", raw);
  r.unknownKeys("registryMirror", obj, ["endpoint", "registries"]);
  const endpoint = r.string("registryMirror.endpoint", obj.endpoint);
  if (endpoint === undefined) {
    r.problems.add(
      "registryMirror.endpoint",
      obj.endpoint,
      "is required; set the mirror as kind nodes reach it, e.g. http://iko-plus-registry:5000",
    );
    return undefined;
  }
  let registries: string[] | undefined;
  if (obj.registries !== undefined) {
    if (Array.isArray(obj.registries) && obj.registries.every((x) => typeof x === "string"))
      registries = obj.registries as string[];
    else
      r.problems.add(
        "registryMirror.registries",
        obj.registries,
        "must be a list of registry host names, e.g. [docker.io, quay.io]",
      );
  }
  const mirror: RegistryMirror = registries ? { endpoint, registries } : { endpoint };
  for (const [field, value, problem] of checkRegistryMirror(mirror))
    r.problems.add(`registryMirror.${field}`, value, problem);
  return mirror;
}

export type { Raw };
