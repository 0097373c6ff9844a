/**
 * Config of one cluster of a stack: where it comes from (its source, stacks/sources: kind, an
 * existing kubeconfig, GKE) and its CNI.
 */
import * as fs from "fs";
import { checkCiliumCniArgs, checkClusterMeshMembers } from "../../components/cilium";
import { ArgProblem } from "../../components/names";
import { RegistryMirror, checkKindClusterArgs, checkRegistryMirror } from "../../components/kind";
import { ClusterEntry, SettingsContext, SourceEntry, SourceSettings, clusterSource, clusterSources } from "../sources";
import { checkKubeconfigText } from "../sources/kubeconfig";
import { ProgramName } from "./project";
import { Raw, Reader, configNumber } from "./read";

/** One cluster of a stack; its sources' entry keys add their fields (SourceEntry, e.g. `kubeconfigPath`). */
export interface ClusterConfig extends SourceEntry {
  /** Config key of this cluster (e.g. "home"). */
  key: string;
  name: string;
  /** Where the cluster comes from: a registered source's name (stacks/sources), e.g. "kind". */
  source: string;
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

/**
 * Whether Cilium replaces kube-proxy on this cluster: one the stack creates with its
 * `kubeProxyMode` (a kind cluster), created without kube-proxy.
 */
export function replacesKubeProxy(c: Pick<ClusterConfig, "source" | "kind">): boolean {
  return clusterSource(c.source).traits.createsWithKubeProxyMode === true && c.kind.kubeProxyMode === "none";
}

/** The cluster's pod subnet: as configured, else its source's default (kind's), else not known. */
export function clusterPodSubnet(c: Pick<ClusterConfig, "source" | "kind">): string | undefined {
  return c.kind.podSubnet ?? clusterSource(c.source).traits.defaultPodSubnet;
}

/** The keys of every cluster entry: `name`, `source`, then the sources' entry keys, then these. */
const CLUSTER_KEYS = ["protect", "workers", "nodeImage", "kubeProxyMode", "podSubnet", "serviceSubnet", "cilium"];
const CILIUM_KEYS = ["enabled", "clusterId", "version", "chartPath", "moduleImages", "dropCapabilities"];

export { checkKubeconfigText };

/**
 * Reads one cluster. `extraKeys` are keys the caller reads itself (they are not reported as
 * unknown); `program` is the stack program reading it (default "wfh"): `source` allows the
 * sources its clusters may come from.
 */
export function readCluster(
  r: Reader,
  key: string,
  raw: unknown,
  defaults: { name: string; clusterId: number },
  secretKubeconfig: string | undefined,
  secretKey: string,
  opts: { extraKeys?: string[]; program?: ProgramName } = {},
): ClusterConfig {
  const obj = r.object(key, raw);
  const sources = clusterSources();
  const program = opts.program ?? "wfh";
  r.unknownKeys(key, obj, [
    "name",
    "source",
    ...sources.entryKeys(program),
    ...CLUSTER_KEYS,
    ...(opts.extraKeys ?? []),
  ]);
  const name = r.string(`${key}.name`, obj.name, defaults.name) as string;
  // Every stack cluster may be a kind cluster or run Cilium: its name is checked as both take it.
  r.componentProblems([...checkKindClusterArgs({ clusterName: name }), ...checkCiliumCniArgs({ clusterName: name })], {
    clusterName: `${key}.name`,
  });
  const entry: ClusterEntry = { key, entry: obj, secretKubeconfig, secretKey };
  const source = r.oneOf(`${key}.source`, obj.source, sources.names(program), sources.implied(entry));
  const traits = sources.get(source).traits;
  // Each source's own keys: read under its source, a problem under another.
  const settings: SourceEntry = {};
  for (const s of sources.forProgram(program)) Object.assign(settings, s.readEntry?.(r, { ...entry, source }));
  const nodeImage = r.string(`${key}.nodeImage`, obj.nodeImage);
  const podSubnet = r.string(`${key}.podSubnet`, obj.podSubnet);
  const serviceSubnet = r.string(`${key}.serviceSubnet`, obj.serviceSubnet);
  r.componentProblems(checkKindClusterArgs({ nodeImage, podSubnet, serviceSubnet }), {
    nodeImage: `${key}.nodeImage`,
    podSubnet: `${key}.podSubnet`,
    serviceSubnet: `${key}.serviceSubnet`,
  });
  const ciliumRaw = r.object(`${key}.cilium`, obj.cilium);
  if (traits.ownCni !== undefined && (ciliumRaw.enabled === true || ciliumRaw.enabled === "true")) {
    r.problems.add(`${key}.cilium.enabled`, ciliumRaw.enabled, `is true for ${traits.ownCni}; remove it`);
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
    ...settings,
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
      enabled:
        r.boolean(`${key}.cilium.enabled`, ciliumRaw.enabled, traits.ciliumByDefault === true) &&
        traits.ownCni === undefined,
      clusterId,
      version,
      chartPath,
      moduleImages: r.boolean(`${key}.cilium.moduleImages`, ciliumRaw.moduleImages, false),
      dropCapabilities,
    },
  };
}

/**
 * Reads the program-level settings (e.g. `<key>.gke`) of a fleet or region entry: each source's
 * own, read under its source and a problem under another.
 */
export function readSourceSettings(r: Reader, ctx: SettingsContext): SourceSettings {
  const settings: SourceSettings = {};
  for (const s of clusterSources().all) Object.assign(settings, s.readSettings?.(r, ctx));
  return settings;
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
