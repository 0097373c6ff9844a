/**
 * The `region` stack's config (disaster recovery, one stack per region): one member cluster
 * (GKE in the region, an existing cluster, or kind), IKO and the IrisCluster CRD on it, joined to
 * the Karmada of a fleet stack read through a StackReference (its secret output
 * `karmadaKubeconfig`), with the region and zones on its Karmada Cluster object.
 */
import { checkDns1123Label } from "../../components/names";
import { Problems } from "../problems";
import { isSecretConfigKey } from "../../components/names/secrets";
import { checkKarmadaMemberArgs } from "../../components/karmada";
import { checkCrdMirrorArgs } from "../../components/iko";
import { RegistryMirror } from "../../components/kind";
import { ClusterConfig, readRegistryMirror, readSourceSettings } from "./cluster";
import { readClusterWithSecret } from "./fleet";
import { IkoConfig, readIko } from "./iko";
import { Raw, Reader, isObject } from "./read";
import { readLabels } from "./placement";
import { PROJECT } from "./project";
import { SourceSettings, clusterSource, clusterSources } from "../sources";

/** The region's member; its sources' settings keys add their fields (SourceSettings, e.g. `gke`). */
export interface RegionMemberConfig extends ClusterConfig, SourceSettings {
  /** `spec.provider` of the Karmada Cluster (gke for GKE members). */
  provider?: string;
  /** Labels on the Karmada Cluster. */
  labels?: Record<string, string>;
  /** Install IKO (local mode) on the member. */
  iko: boolean;
}

export interface RegionConfig {
  program: "region";
  /** The fleet stack whose Karmada the member joins: `<stack>` or `<org>/<project>/<stack>`. */
  fleetStack: string;
  region: string;
  zones?: string[];
  member: RegionMemberConfig;
  iko?: IkoConfig;
  crdManifestPath?: string;
  /** The member, when kind, pulls its images through this mirror. */
  registryMirror?: RegistryMirror;
}

const REGION_KEYS = ["program", "fleetStack", "region", "zones", "member", "iko", "registryMirror"];
/** The member entry's keys beside a cluster's, with the sources' settings keys after `iko`. */
const memberExtraKeys = () => [
  "provider",
  "labels",
  "iko",
  ...clusterSources().settingsKeys("region"),
  "kubeconfigSecret",
];
const STACK_PART = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * Checks a StackReference name as Pulumi parses it: `<stack>`, `<org>/<stack>` or
 * `<org>/<project>/<stack>`, each part letters, digits, '-', '_' or '.', at most 100 characters.
 * `currentStack` is this stack's own name: a region stack cannot be its own fleet.
 */
export function checkFleetStackName(name: string, currentStack?: string): string | undefined {
  const parts = name.split("/");
  if (parts.length > 3 || parts.some((p) => !STACK_PART.test(p))) {
    return "is not a stack name; use <stack> or <org>/<project>/<stack>, each part letters, digits, '-', '_' or '.' (e.g. dr-fleet or organization/iko-plus/dr-fleet)";
  }
  const stack = parts[parts.length - 1];
  const project = parts.length === 3 ? parts[1] : PROJECT;
  if (currentStack !== undefined && stack === currentStack && project === PROJECT) {
    return "is this region stack itself; name the fleet stack that runs Karmada (pulumi up the fleet stack first)";
  }
  return undefined;
}

function readMember(
  r: Reader,
  raw: Raw,
  region: string,
  secretKeys: string[],
  referenced: Set<string>,
): RegionMemberConfig {
  const key = "member";
  if (raw.member === undefined)
    r.problems.add(
      key,
      undefined,
      `is required; describe this region's cluster, e.g. {name: iris-${region || "us-central1"}, source: gke}`,
    );
  const obj = isObject(raw.member) ? raw.member : {};
  const base = readClusterWithSecret(
    r,
    key,
    raw.member,
    { name: region && !checkDns1123Label(region) ? region : "member", clusterId: 1 },
    raw,
    secretKeys,
    referenced,
    { extraKeys: memberExtraKeys(), program: "region" },
  );
  r.componentProblems(checkKarmadaMemberArgs({ clusterName: base.name }), { clusterName: `${key}.name` });
  const settings = readSourceSettings(r, {
    key,
    entry: obj,
    source: base.source,
    clusterName: base.name,
    region: { key: "region", value: region },
  });
  const labels = readLabels(r, `${key}.labels`, obj.labels);
  return {
    ...base,
    provider: r.string(`${key}.provider`, obj.provider, clusterSource(base.source).traits.defaultProvider),
    labels,
    iko: r.boolean(`${key}.iko`, obj.iko, true),
    ...settings,
  };
}

/**
 * Validates a region stack's raw config; `secretKeys` are the full keys stored as secrets and
 * `currentStack` is this stack's name. Throws one ConfigError with every problem.
 */
export function validateRegionConfig(raw: Raw, secretKeys: string[] = [], currentStack?: string): RegionConfig {
  const isSecret = (k: string) => isSecretConfigKey(k, secretKeys, PROJECT);
  const problems = new Problems(PROJECT, isSecret);
  const r = new Reader(problems);
  const referenced = new Set<string>();
  const fleetStack = r.string("fleetStack", raw.fleetStack);
  if (fleetStack === undefined) {
    if (raw.fleetStack === undefined)
      problems.add(
        "fleetStack",
        undefined,
        "is required; name the fleet stack whose Karmada this region joins, e.g. dr-fleet (`pulumi up` it first)",
      );
  } else {
    const p = checkFleetStackName(fleetStack, currentStack);
    if (p) problems.add("fleetStack", fleetStack, p);
  }
  const region = r.string("region", raw.region) ?? "";
  if (raw.region === undefined)
    problems.add(
      "region",
      undefined,
      "is required; the region of this stack's member, e.g. us-central1 (placements select it)",
    );
  else if (region && checkDns1123Label(region))
    problems.add("region", region, "is not a region name; use lowercase letters, digits and '-', e.g. us-central1");
  let zones: string[] | undefined;
  if (raw.zones !== undefined) {
    if (
      !Array.isArray(raw.zones) ||
      raw.zones.length === 0 ||
      raw.zones.some((z) => typeof z !== "string" || z.length === 0)
    ) {
      problems.add("zones", raw.zones, `must be a non-empty list of zone names, e.g. [${region || "us-central1"}-a]`);
    } else {
      zones = raw.zones as string[];
    }
  }
  const member = readMember(r, raw, region, secretKeys, referenced);
  const zoneProblem = clusterSource(member.source).traits.zoneProblem;
  if (zoneProblem && region) {
    for (const z of zones ?? []) {
      const problem = zoneProblem(region, z);
      if (problem) problems.add("zones", z, problem);
    }
  }
  const iko = member.iko || raw.iko !== undefined ? readIko(r, raw.iko, false) : undefined;
  const crdManifestPath = iko?.crdManifestPath;
  if (crdManifestPath !== undefined) {
    r.componentProblems(checkCrdMirrorArgs({ manifestPath: crdManifestPath }), { manifestPath: "iko.crdManifestPath" });
  } else {
    problems.add(
      "iko.crdManifestPath",
      undefined,
      "is required: Karmada places IrisClusters only on members that serve the CRD; point it at the CRD's YAML",
    );
  }
  r.unknownTopLevelKeys(raw, REGION_KEYS, {
    referenced,
    isSecret,
    hint: "(or a secret key that member.kubeconfigSecret names)",
  });
  const registryMirror = readRegistryMirror(r, raw.registryMirror);
  problems.throwIfAny();
  return {
    program: "region",
    fleetStack: fleetStack as string,
    region,
    zones,
    member,
    iko,
    crdManifestPath,
    ...(registryMirror ? { registryMirror } : {}),
  };
}
