/**
 * Config of fleet TLS: the fleet's `fleetTls` (members, CA, cert-manager) and each federated
 * IrisCluster's `tls` (which IRIS components get the fleet's certificate in `spec.tls`).
 */
import { readRefName } from "./secret-ref";
import {
  CA_DEFAULTS,
  CERT_MANAGER_CHART_VERSION,
  CERT_MANAGER_NAMESPACE,
  FLEET_CA_NAME,
  FleetCaOptions,
  ResolvedCaOptions,
  TLS_COMPONENTS,
  TlsComponent,
  checkFleetCaOptions,
  checkFleetTlsArgs,
  checkSuppliedCa,
} from "../../components/tls";
import { Placement } from "../../components/karmada";
import { Raw, Reader, configNumber, isObject } from "./read";
import { PROJECT } from "./project";

export type FleetCaConfig =
  | { source: "generate"; options: ResolvedCaOptions }
  /** A CA the user supplies: config keys holding the PEM certificate and the (secret) PEM key. */
  | { source: "config"; certificateConfig: string; keyConfig: string };

export interface FleetTlsConfig {
  /** Clusters that get the CA, a ClusterIssuer and the certificates. */
  members: string[];
  /** What `tls: true` enables on an IrisCluster. */
  components: TlsComponent[];
  ca: FleetCaConfig;
  installCertManager: boolean;
  certManagerVersion: string;
  namespace: string;
  createNamespace: boolean;
  issuerName: string;
  caSecretName: string;
}

export const FLEET_TLS_KEYS = [
  "members",
  "components",
  "ca",
  "installCertManager",
  "certManagerVersion",
  "namespace",
  "createNamespace",
  "issuerName",
  "caSecretName",
];
const GENERATE_KEYS = ["commonName", "organization", "validityDays", "keyBits", "generation"];
const SUPPLIED_KEYS = ["certificateConfig", "keyConfig"];

export interface TlsContext {
  /** Every cluster of the stack. */
  clusters: string[];
  /** The joined members (the default `members`). */
  joined: string[];
  /** The whole raw config (to read the keys a supplied CA names). */
  raw: Raw;
  /** Full keys of the secret config values. */
  secretKeys: string[];
  /** Config keys that entries name (so they are not reported as unknown). */
  referenced: Set<string>;
}

function readComponents(r: Reader, key: string, v: unknown, fallback: TlsComponent[]): TlsComponent[] {
  if (v === undefined) return fallback;
  const list = Array.isArray(v) ? v : null;
  if (list === null || list.length === 0) {
    r.problems.add(
      key,
      v,
      `must be a non-empty list of IRIS components from: ${TLS_COMPONENTS.join(", ")}, e.g. [mirror]`,
    );
    return fallback;
  }
  const out: TlsComponent[] = [];
  list.forEach((c) => {
    if (!(TLS_COMPONENTS as readonly unknown[]).includes(c))
      r.problems.add(key, c, `is not an IRIS TLS component; use some of: ${TLS_COMPONENTS.join(", ")}`);
    else if (out.includes(c as TlsComponent)) r.problems.add(key, c, "is listed twice; list each component once");
    else out.push(c as TlsComponent);
  });
  return out;
}

/** Names a config key holding PEM text; returns the key and its value when it is a string. */
function readPemRef(
  r: Reader,
  key: string,
  v: unknown,
  ctx: TlsContext,
  mustBeSecret: boolean,
  what: string,
): { name?: string; text?: string } {
  const checked = readRefName(r, key, v, what);
  if (checked === undefined) return {};
  const { name, shown } = checked;
  ctx.referenced.add(name);
  const value = ctx.raw[name];
  const secret = ctx.secretKeys.includes(`${PROJECT}:${name}`);
  const how = `pulumi config set ${mustBeSecret ? "--secret " : ""}${shown} -- "$(cat ${what}.pem)"`;
  if (value === undefined) {
    r.problems.add(key, name, `names config key ${PROJECT}:${shown}, which is not set; set it with \`${how}\``);
    return { name };
  }
  if (mustBeSecret && !secret) {
    r.problems.add(
      key,
      name,
      `names config key ${PROJECT}:${shown}, which is not a secret; set it again with \`${how}\``,
    );
    return { name };
  }
  if (typeof value !== "string") {
    r.problems.add(name, value, `must be PEM text (the ${what}); set it with \`${how}\``, { secret });
    return { name };
  }
  return { name, text: value };
}

function readCa(r: Reader, rawCa: unknown, ctx: TlsContext): FleetCaConfig {
  const key = "fleetTls.ca";
  const ca = r.object(key, rawCa);
  r.unknownKeys(key, ca, [...GENERATE_KEYS, ...SUPPLIED_KEYS]);
  if (ca.certificateConfig !== undefined || ca.keyConfig !== undefined) {
    for (const k of GENERATE_KEYS) {
      if (ca[k] !== undefined)
        r.problems.add(
          `${key}.${k}`,
          ca[k],
          "only applies to a generated CA; remove it, or remove certificateConfig and keyConfig to generate the CA",
        );
    }
    if (ca.certificateConfig === undefined)
      r.problems.add(
        `${key}.certificateConfig`,
        undefined,
        "is required with keyConfig; name the config key holding the CA certificate (PEM)",
      );
    if (ca.keyConfig === undefined)
      r.problems.add(
        `${key}.keyConfig`,
        undefined,
        "is required with certificateConfig; name the secret config key holding the CA private key (PEM)",
      );
    const cert =
      ca.certificateConfig === undefined
        ? {}
        : readPemRef(r, `${key}.certificateConfig`, ca.certificateConfig, ctx, false, "ca-certificate");
    const k = ca.keyConfig === undefined ? {} : readPemRef(r, `${key}.keyConfig`, ca.keyConfig, ctx, true, "ca-key");
    if (cert.text !== undefined && k.text !== undefined && cert.name !== undefined && k.name !== undefined) {
      const problems = checkSuppliedCa(cert.text, k.text);
      if (problems.cert)
        r.problems.add(`${key}.certificateConfig`, cert.name, `names a certificate that ${problems.cert}`);
      if (problems.key) r.problems.add(`${key}.keyConfig`, k.name, `names a key that ${problems.key}`);
    }
    return { source: "config", certificateConfig: cert.name ?? "", keyConfig: k.name ?? "" };
  }
  // The generated CA's options are FleetTls's (checkFleetCaOptions), reported under these keys.
  const given: FleetCaOptions = {
    commonName: r.string(`${key}.commonName`, ca.commonName),
    organization: r.string(`${key}.organization`, ca.organization),
    validityDays: configNumber(ca.validityDays),
    keyBits: configNumber(ca.keyBits),
    generation: configNumber(ca.generation),
  };
  const problems = checkFleetCaOptions(given);
  r.componentProblems(
    problems,
    Object.fromEntries(GENERATE_KEYS.map((k) => [k, [`${key}.${k}`, ca[k]] as [string, unknown]])),
  );
  const options = { ...CA_DEFAULTS };
  for (const k of GENERATE_KEYS as (keyof FleetCaOptions)[]) {
    const v = given[k];
    if (v !== undefined && !problems.some(([f]) => f === k)) Object.assign(options, { [k]: v });
  }
  return { source: "generate", options };
}

/** Reads `fleetTls`; undefined when it is not set. */
export function readFleetTls(r: Reader, raw: unknown, ctx: TlsContext): FleetTlsConfig | undefined {
  if (raw === undefined) return undefined;
  const key = "fleetTls";
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, FLEET_TLS_KEYS);
  // The members FleetTls gets: the listed clusters of this stack (the joined ones by default).
  let listed = ctx.joined;
  if (obj.members !== undefined) {
    if (!Array.isArray(obj.members) || obj.members.some((m) => typeof m !== "string")) {
      // Reported once here; the joined members stand in, so placements are not reported again.
      r.problems.add(
        `${key}.members`,
        obj.members,
        `must be a list of this stack's cluster names, e.g. [${ctx.joined.join(", ") || "ikoclone"}]`,
      );
    } else {
      listed = [];
      for (const m of obj.members as string[]) {
        if (!ctx.clusters.includes(m))
          r.problems.add(`${key}.members`, m, `is not one of this stack's clusters (${ctx.clusters.join(", ")})`);
        else listed.push(m);
      }
    }
  }
  const installCertManager = r.boolean(`${key}.installCertManager`, obj.installCertManager, true);
  const given = {
    certManagerVersion: r.string(`${key}.certManagerVersion`, obj.certManagerVersion),
    namespace: r.string(`${key}.namespace`, obj.namespace),
    issuerName: r.string(`${key}.issuerName`, obj.issuerName),
    caSecretName: r.string(`${key}.caSecretName`, obj.caSecretName),
  };
  // FleetTls's own rules (members, version, names), reported under fleetTls.*.
  r.componentProblems(checkFleetTlsArgs({ members: listed.map((name) => ({ name })), installCertManager, ...given }), {
    members: `${key}.members`,
    ...Object.fromEntries(Object.keys(given).map((k) => [k, `${key}.${k}`])),
  });
  return {
    members: [...new Set(listed)],
    components: readComponents(r, `${key}.components`, obj.components, ["mirror"]),
    ca: readCa(r, obj.ca, ctx),
    installCertManager,
    certManagerVersion: given.certManagerVersion ?? CERT_MANAGER_CHART_VERSION,
    namespace: given.namespace ?? CERT_MANAGER_NAMESPACE,
    createNamespace: r.boolean(`${key}.createNamespace`, obj.createNamespace, installCertManager),
    issuerName: given.issuerName ?? FLEET_CA_NAME,
    caSecretName: given.caSecretName ?? FLEET_CA_NAME,
  };
}

/**
 * Reads a federated IrisCluster's `tls` (`true`: the fleet's components; a list: those
 * components; `false` or unset: none). It needs `fleetTls`, excludes a hand-written `spec.tls`,
 * and every member its placement names must be a fleetTls member (only they hold its certificate).
 */
export function readIrisTls(
  r: Reader,
  key: string,
  entry: Raw,
  placement: Placement,
  fleetTls: FleetTlsConfig | undefined,
): TlsComponent[] | undefined {
  const v = entry.tls;
  if (v === undefined || v === false) return undefined;
  let components: TlsComponent[] | undefined;
  if (v === true) components = fleetTls?.components;
  else if (Array.isArray(v)) components = readComponents(r, `${key}.tls`, v, []);
  else {
    r.problems.add(
      `${key}.tls`,
      v,
      `must be true, false or a list of IRIS components from: ${TLS_COMPONENTS.join(", ")}`,
    );
    return undefined;
  }
  if (fleetTls === undefined) {
    r.problems.add(
      `${key}.tls`,
      v,
      `needs ${PROJECT}:fleetTls, which is not set; set it (e.g. \`pulumi config set --path fleetTls.installCertManager true\`) to issue certificates from a fleet CA`,
    );
    return undefined;
  }
  if (isObject(entry.spec) && entry.spec.tls !== undefined) {
    r.problems.add(
      `${key}.spec.tls`,
      entry.spec.tls,
      `is set together with ${key}.tls; remove one (tls fills spec.tls from the fleet CA's certificate)`,
    );
  }
  const named = [
    ...(placement.clusterNames ?? []),
    ...(placement.affinities ?? []).flatMap((a) => a.clusterNames ?? []),
  ];
  for (const n of [...new Set(named)]) {
    if (!fleetTls.members.includes(n)) {
      r.problems.add(
        `${key}.placement`,
        n,
        `is not a fleetTls member, so it holds no certificate for this IrisCluster; add it to fleetTls.members (${fleetTls.members.join(", ")})`,
      );
    }
  }
  return components;
}

/** The config keys FleetTls reads as secrets (a supplied CA's certificate and key). */
export function fleetTlsSecretKeys(cfg: FleetTlsConfig | undefined): string[] {
  return cfg?.ca.source === "config" ? [cfg.ca.certificateConfig, cfg.ca.keyConfig] : [];
}
