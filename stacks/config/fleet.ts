/**
 * The `fleet` stack's config (Kamino): clusters, the Karmada API, IKO on members, federated
 * IrisClusters and fleet Secrets. Secret values (kubeconfigs, license keys, Secret data) live in
 * their own secret config keys, which the entries name.
 */
import { Problems } from "../problems";
import { isSecretConfigKey } from "../../components/names/secrets";
import { RegistryMirror } from "../../components/kind";
import { MeshConfig, readMesh } from "./mesh";
import { ClusterConfig, checkClusterSet, readRegistryMirror } from "./cluster";
import { IkoConfig, readIko } from "./iko";
import { IrisClusterConfig, readIrisClusters } from "./iris";
import {
  OverrideConfig,
  overrideKeys,
  placementKeys,
  readLabels,
  readOverrides,
  readPlacement,
  readTarget,
} from "./placement";
import { ClusterFailoverConfig, failoverKeys, readClusterFailover, readFailover } from "./failover";
import { Raw, Reader, isObject } from "./read";
import {
  ClusterTarget,
  Failover,
  MEMBER_ACCESS,
  MemberAccess,
  Placement,
  SYNC_MODES,
  SyncMode,
  checkFederatedIrisClusterArgs,
  checkFleetSecretArgs,
  checkKarmadaMemberArgs,
} from "../../components/karmada";
import { readSourceSettings } from "./cluster";
import { checkCrdMirrorArgs } from "../../components/iko";
import { PROJECT } from "./project";
import { FleetTlsConfig, readFleetTls, readIrisTls } from "./tls";
import { TlsComponent } from "../../components/tls";
import { KarmadaConfig, readKarmada } from "./karmada";
import { readClusterWithSecret, readSecretRef } from "./secret-ref";
import { SourceSettings, clusterSources } from "../sources";

export { KarmadaConfig } from "./karmada";
export { readClusterWithSecret, readSecretRef } from "./secret-ref";

/** A fleet cluster; its sources' settings keys add their fields (SourceSettings, e.g. `gke`). */
export interface FleetClusterConfig extends ClusterConfig, SourceSettings {
  iko: boolean;
  join?: {
    provider?: string;
    region?: string;
    zones?: string[];
    labels?: Record<string, string>;
    access: MemberAccess;
    /** Push (Karmada calls the member) or Pull (karmada-agent on the member calls Karmada). */
    syncMode: SyncMode;
    /** Pull mode: the karmada-agent image. */
    agentImage?: string;
  };
  extraPortMappings: { containerPort: number; hostPort: number }[];
}

export interface FederatedIrisConfig extends IrisClusterConfig {
  policyName: string;
  placement: Placement;
  /** The policy's spec.failover (DR: with ordered affinities). */
  failover?: Failover;
  overrides: OverrideConfig[];
  /** Secret config key holding the license key. */
  licenseKeyConfig?: string;
  secrets: string[];
  configMaps: string[];
  /** IRIS components whose spec.tls mounts the fleet CA's certificate (`tls`). */
  tls?: TlsComponent[];
}

export interface FleetSecretConfig {
  name: string;
  namespace: string;
  dataKey: string;
  placement: ClusterTarget;
}

export interface FleetConfig {
  program: "fleet";
  clusters: FleetClusterConfig[];
  karmada: KarmadaConfig;
  iko?: IkoConfig;
  crdManifestPath?: string;
  federatedIrisClusters: FederatedIrisConfig[];
  fleetSecrets: FleetSecretConfig[];
  /** Fleet TLS: one CA, cert-manager and certificates on its members. */
  fleetTls?: FleetTlsConfig;
  /** Cluster failover: a ClusterTaintPolicy tainting not-ready Clusters NoExecute. */
  clusterFailover?: ClusterFailoverConfig;
  /** Every kind cluster of the stack pulls its images through this mirror. */
  registryMirror?: RegistryMirror;
  /** Cilium ClusterMesh between chosen clusters. */
  mesh?: MeshConfig;
}

const FLEET_KEYS = [
  "program",
  "clusters",
  "karmada",
  "iko",
  "federatedIrisClusters",
  "fleetSecrets",
  "fleetTls",
  "clusterFailover",
  "registryMirror",
  "mesh",
];
/** A fleet entry's keys beside a cluster's, with the sources' settings keys after `join`. */
const fleetClusterKeys = () => [
  "iko",
  "join",
  ...clusterSources().settingsKeys("fleet"),
  "extraPortMappings",
  "kubeconfigSecret",
];

function readFleetCluster(
  r: Reader,
  i: number,
  item: unknown,
  raw: Raw,
  secretKeys: string[],
  referenced: Set<string>,
): FleetClusterConfig {
  const key = `clusters[${i}]`;
  const obj = isObject(item) ? item : {};
  const base = readClusterWithSecret(
    r,
    key,
    item,
    { name: `cluster-${i}`, clusterId: i + 1 },
    raw,
    secretKeys,
    referenced,
    { extraKeys: fleetClusterKeys(), program: "fleet" },
  );
  let join: FleetClusterConfig["join"];
  if (obj.join !== undefined && obj.join !== false) {
    const j = obj.join === true ? {} : r.object(`${key}.join`, obj.join);
    r.unknownKeys(`${key}.join`, j, ["provider", "region", "zones", "labels", "access", "syncMode", "agentImage"]);
    const syncMode = r.oneOf(`${key}.join.syncMode`, j.syncMode, SYNC_MODES, "Push");
    const agentImage = r.string(`${key}.join.agentImage`, j.agentImage);
    r.componentProblems(checkKarmadaMemberArgs({ clusterName: base.name, syncMode, agentImage }), {
      clusterName: `${key}.name`,
      agentImage: `${key}.join.agentImage`,
    });
    const zones =
      j.zones === undefined
        ? undefined
        : Array.isArray(j.zones) && j.zones.every((z) => typeof z === "string")
          ? (j.zones as string[])
          : undefined;
    if (j.zones !== undefined && zones === undefined)
      r.problems.add(`${key}.join.zones`, j.zones, "must be a list of zone names, e.g. [us-central1-a]");
    const labels = readLabels(r, `${key}.join.labels`, j.labels);
    const access = r.oneOf(`${key}.join.access`, j.access, MEMBER_ACCESS, "scoped");
    join = {
      provider: r.string(`${key}.join.provider`, j.provider),
      region: r.string(`${key}.join.region`, j.region),
      zones,
      labels,
      access,
      syncMode,
    };
    if (agentImage !== undefined) join.agentImage = agentImage;
  }
  const settings = readSourceSettings(r, { key, entry: obj, source: base.source, clusterName: base.name });
  const mappings =
    obj.extraPortMappings === undefined ? [] : Array.isArray(obj.extraPortMappings) ? obj.extraPortMappings : null;
  if (mappings === null)
    r.problems.add(`${key}.extraPortMappings`, obj.extraPortMappings, "must be a list of {containerPort, hostPort}");
  const extraPortMappings = (mappings ?? []).map((m, j) => {
    const mo = r.object(`${key}.extraPortMappings[${j}]`, m);
    return {
      containerPort: r.integer(`${key}.extraPortMappings[${j}].containerPort`, mo.containerPort, 0, 1, 65535),
      hostPort: r.integer(`${key}.extraPortMappings[${j}].hostPort`, mo.hostPort, 0, 1, 65535),
    };
  });
  return { ...base, iko: r.boolean(`${key}.iko`, obj.iko, true), join, ...settings, extraPortMappings };
}

/** Validates a fleet stack's raw config; `secretKeys` are the full keys stored as secrets. */
export function validateFleetConfig(raw: Raw, secretKeys: string[] = []): FleetConfig {
  const isSecret = (k: string) => isSecretConfigKey(k, secretKeys, PROJECT);
  const problems = new Problems(PROJECT, isSecret);
  const r = new Reader(problems);
  const referenced = new Set<string>();
  const clusters: FleetClusterConfig[] = [];
  // An existing Karmada may have no clusters of its own here: region stacks join its members (DR).
  const memberless = raw.clusters === undefined || (Array.isArray(raw.clusters) && raw.clusters.length === 0);
  const existingKarmada =
    typeof raw.karmada === "object" && raw.karmada !== null && (raw.karmada as Raw).mode === "existing";
  if (!Array.isArray(raw.clusters) || raw.clusters.length === 0) {
    if (!(memberless && existingKarmada))
      problems.add(
        "clusters",
        raw.clusters,
        "must be a non-empty list of clusters, e.g. [{name: ikofett}, {name: ikoclone, join: true}]",
      );
  } else {
    raw.clusters.forEach((c, i) => clusters.push(readFleetCluster(r, i, c, raw, secretKeys, referenced)));
  }
  checkClusterSet(r, clusters);
  const karmada = readKarmada(r, raw.karmada, clusters, raw, secretKeys, referenced);
  const joined = clusters.filter((c) => c.join).map((c) => c.name);
  const needsIko = clusters.some((c) => c.iko);
  const iko = needsIko || raw.iko !== undefined ? readIko(r, raw.iko, false) : undefined;
  const crdManifestPath = iko?.crdManifestPath;
  // The CRD goes into Karmada and onto every member by CrdMirror: its rules, under the iko key.
  if (crdManifestPath !== undefined)
    r.componentProblems(checkCrdMirrorArgs({ manifestPath: crdManifestPath }), { manifestPath: "iko.crdManifestPath" });
  const crdGiven = isObject(raw.iko) && raw.iko.crdManifestPath !== undefined && raw.iko.crdManifestPath !== null;
  if (crdManifestPath === undefined && !crdGiven && raw.federatedIrisClusters !== undefined) {
    problems.add(
      "iko.crdManifestPath",
      undefined,
      "is required: the IrisCluster CRD must exist in the Karmada API and on every member; point it at the CRD's YAML",
    );
  }
  const fleetTls = readFleetTls(r, raw.fleetTls, {
    clusters: clusters.map((c) => c.name),
    joined,
    raw,
    secretKeys,
    referenced,
  });
  const federatedRaw = raw.federatedIrisClusters === undefined ? [] : raw.federatedIrisClusters;
  const federatedExtra = ["policyName", "placement", "failover", "overrides", "secrets", "configMaps", "tls"];
  const plain = readIrisClusters(r, federatedRaw, "federatedIrisClusters", "licenseKeyConfig", federatedExtra);
  const federatedIrisClusters: FederatedIrisConfig[] = [];
  if (Array.isArray(federatedRaw)) {
    federatedRaw.forEach((f, i) => {
      const k = `federatedIrisClusters[${i}]`;
      const o = isObject(f) ? f : {};
      const ic = plain.find((p) => p.name === o.name);
      const givenPolicy = r.string(`${k}.policyName`, o.policyName);
      const policyName = givenPolicy ?? `${String(o.name)}-propagate`;
      const placement = readPlacement(r, `${k}.placement`, o.placement, joined);
      const overrides = readOverrides(r, `${k}.overrides`, o.overrides, joined);
      const failover = readFailover(r, `${k}.failover`, o.failover);
      const licenseKeyConfig =
        o.licenseKeyConfig === undefined
          ? undefined
          : readSecretRef(r, `${k}.licenseKeyConfig`, o.licenseKeyConfig, raw, secretKeys, referenced, "license key");
      const names = (v: unknown, field: string) => {
        if (v === undefined) return [];
        if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) {
          r.problems.add(`${k}.${field}`, v, "must be a list of names");
          return [];
        }
        return v as string[];
      };
      const secrets = names(o.secrets, "secrets");
      const configMaps = names(o.configMaps, "configMaps");
      // FederatedIrisCluster's own rules (names, placement, overrides, failover), under this entry's keys.
      r.componentProblems(
        checkFederatedIrisClusterArgs({
          irisCluster: ic ? { metadata: { name: ic.name, namespace: ic.namespace } } : undefined,
          policyName: givenPolicy ?? (ic ? policyName : undefined),
          placement,
          failover,
          overrides,
          secrets,
          configMaps,
        }),
        {
          "irisCluster.metadata.name": `${k}.name`,
          "irisCluster.metadata.namespace": `${k}.namespace`,
          policyName: `${k}.policyName`,
          secrets: `${k}.secrets`,
          configMaps: `${k}.configMaps`,
          ...placementKeys("placement", `${k}.placement`, o.placement),
          ...failoverKeys("failover", `${k}.failover`, o.failover),
          ...overrideKeys("overrides", `${k}.overrides`, o.overrides),
        },
      );
      const tls = readIrisTls(r, k, o, placement, fleetTls);
      if (ic)
        federatedIrisClusters.push({
          ...ic,
          policyName,
          placement,
          failover,
          overrides,
          licenseKeyConfig,
          secrets,
          configMaps,
          tls,
        });
    });
  }
  const fleetSecrets: FleetSecretConfig[] = [];
  if (raw.fleetSecrets !== undefined && !Array.isArray(raw.fleetSecrets))
    problems.add(
      "fleetSecrets",
      raw.fleetSecrets,
      "must be a list of {name, dataKey, clusterNames|labels|matchExpressions}",
    );
  (Array.isArray(raw.fleetSecrets) ? raw.fleetSecrets : []).forEach((s, i) => {
    const k = `fleetSecrets[${i}]`;
    const o = r.object(k, s);
    r.unknownKeys(k, o, ["name", "namespace", "dataKey", "clusterNames", "labels", "matchExpressions"]);
    const name = r.string(`${k}.name`, o.name, "") as string;
    const namespace = r.string(`${k}.namespace`, o.namespace, "default") as string;
    const dataKey = readSecretRef(
      r,
      `${k}.dataKey`,
      o.dataKey,
      raw,
      secretKeys,
      referenced,
      "JSON object of Secret keys to values",
    );
    if (
      dataKey !== undefined &&
      raw[dataKey] !== undefined &&
      (!isObject(raw[dataKey]) || Object.values(raw[dataKey] as Raw).some((v) => typeof v !== "string"))
    ) {
      problems.add(dataKey, raw[dataKey], 'must be an object of string values, e.g. {"password": "..."}', {
        secret: true,
      });
    }
    const placement = readTarget(r, k, o, joined);
    // FleetSecret's own rules (its names, somewhere to go), under this entry's keys.
    r.componentProblems(checkFleetSecretArgs({ name, namespace, placement }), {
      name: [`${k}.name`, o.name],
      namespace: `${k}.namespace`,
      placement: [k, "{...}"],
    });
    if (fleetSecrets.some((f) => f.name === name && f.namespace === namespace))
      r.problems.add(`${k}.name`, name, `is used twice in namespace ${namespace}`);
    fleetSecrets.push({ name, namespace, dataKey: dataKey ?? "", placement });
  });
  const clusterFailover = readClusterFailover(r, raw.clusterFailover);
  const registryMirror = readRegistryMirror(r, raw.registryMirror);
  const mesh = readMesh(r, raw.mesh, clusters);
  if (clusterFailover && karmada.mode === "helm") {
    problems.add(
      "clusterFailover",
      raw.clusterFailover,
      "needs karmada-webhook --allow-no-execute-taint-policy=true, which the Karmada chart cannot set; use karmada.mode existing with a Karmada that runs it (docs/dr.md), or remove it and taint a failed member by hand (karmadactl taint clusters <name> cluster.karmada.io/not-ready:NoExecute)",
    );
  }
  r.unknownTopLevelKeys(raw, FLEET_KEYS, {
    referenced,
    isSecret,
    hint: "(or a secret key that an entry names)",
  });
  problems.throwIfAny();
  return {
    program: "fleet",
    clusters,
    karmada,
    iko,
    crdManifestPath,
    federatedIrisClusters,
    fleetSecrets,
    fleetTls,
    clusterFailover,
    ...(registryMirror ? { registryMirror } : {}),
    ...(mesh ? { mesh } : {}),
  };
}
