/**
 * The one list of what is secret in iko-plus: every secret-bearing stack config key, config field
 * naming a secret key, field name, Kubernetes Secret field, component arg and stack output. The
 * config readers (unknown keys), the PR preview summary (masking by name) and the policy pack's
 * credential rule read their rules from it, and the unit tests that guard each edge where a value
 * can show (test/unit/secrets-*.test.ts) are fed by it: a new secret added here is covered there.
 * Pure: no Pulumi, so the policy pack and the preview summary can import it.
 */

/** What a secret value is. */
export type SecretHolds = "kubeconfig" | "token" | "license key" | "private key" | "passphrase" | "secret data";

/** Where a secret value sits, which says how `path` reads. */
export type SecretPlace =
  /** A stack config key that holds the secret itself (`path` is the key, without `iko-plus:`). */
  | "config"
  /** A config field naming the secret config key that holds it (`path` as `clusters[].kubeconfigSecret`). */
  | "config ref"
  /** A field name that marks its value secret wherever it is, alone or ending a longer name (`accessToken`). */
  | "name"
  /** A field of a Kubernetes Secret (`path` is the top-level field). */
  | "secret data"
  /** A component's arg (`path` as `<Component>.<field>`); the component makes it secret itself. */
  | "component arg"
  /** A stack output (`path` as `<program>.<output>`); always a secret output. */
  | "output";

/** One secret of the list. */
export interface SecretEntry {
  /** Where it sits. */
  place: SecretPlace;
  /** The key, field, name or output, read as `place` says. */
  path: string;
  /** What it holds. */
  holds: SecretHolds;
}

/** Every secret of iko-plus. Add a secret here and the edge tests cover it. */
export const SECRETS: readonly SecretEntry[] = [
  { place: "config", path: "homeKubeconfig", holds: "kubeconfig" },
  { place: "config", path: "workKubeconfig", holds: "kubeconfig" },
  { place: "config ref", path: "clusters[].kubeconfigSecret", holds: "kubeconfig" },
  { place: "config ref", path: "karmada.kubeconfigSecret", holds: "kubeconfig" },
  { place: "config ref", path: "member.kubeconfigSecret", holds: "kubeconfig" },
  { place: "config ref", path: "federatedIrisClusters[].licenseKeyConfig", holds: "license key" },
  { place: "config ref", path: "fleetSecrets[].dataKey", holds: "secret data" },
  { place: "config ref", path: "fleetTls.ca.keyConfig", holds: "private key" },
  { place: "name", path: "kubeconfig", holds: "kubeconfig" },
  { place: "name", path: "token", holds: "token" },
  { place: "name", path: "key", holds: "private key" },
  { place: "name", path: "passphrase", holds: "passphrase" },
  { place: "name", path: "password", holds: "passphrase" },
  { place: "secret data", path: "data", holds: "secret data" },
  { place: "secret data", path: "stringData", holds: "secret data" },
  { place: "secret data", path: "binaryData", holds: "secret data" },
  { place: "component arg", path: "ExistingCluster.kubeconfig", holds: "kubeconfig" },
  { place: "component arg", path: "KarmadaControlPlane.existing.kubeconfig", holds: "kubeconfig" },
  { place: "component arg", path: "FederatedIrisCluster.licenseKey", holds: "license key" },
  { place: "component arg", path: "FleetSecret.data", holds: "secret data" },
  { place: "component arg", path: "FleetTls.ca.privateKeyPem", holds: "private key" },
  { place: "component arg", path: "ClusterMesh.ca.privateKeyPem", holds: "private key" },
  { place: "output", path: "wfh.homeKubeconfig", holds: "kubeconfig" },
  { place: "output", path: "wfh.workKubeconfig", holds: "kubeconfig" },
  { place: "output", path: "wfh.operatorTargetKubeconfig", holds: "kubeconfig" },
  { place: "output", path: "fleet.karmadaKubeconfig", holds: "kubeconfig" },
  { place: "output", path: "fleet.clusterKubeconfigs", holds: "kubeconfig" },
  { place: "output", path: "region.memberKubeconfig", holds: "kubeconfig" },
];

/** The entries of one place. */
export function secretsAt(place: SecretPlace): readonly SecretEntry[] {
  return SECRETS.filter((e) => e.place === place);
}

/** The words of the `name` entries, lower case: `kubeconfig`, `token`, `key`, ... */
export const SECRET_NAME_WORDS: readonly string[] = secretsAt("name").map((e) => e.path.toLowerCase());

/** The fields of a Kubernetes Secret that hold its data: `data`, `stringData`, `binaryData`. */
export const SECRET_DATA_FIELDS: readonly string[] = secretsAt("secret data").map((e) => e.path);

/** The stack config keys that hold a secret themselves (`homeKubeconfig`, `workKubeconfig`). */
export const SECRET_CONFIG_KEYS: readonly string[] = secretsAt("config").map((e) => e.path);

const words = SECRET_NAME_WORDS.join("|");
const WHOLE = new RegExp(`^(${words})$`, "i");
const AFTER_SEPARATOR = new RegExp(`[-_.](${words})$`, "i");
const AFTER_HUMP = new RegExp(
  `[a-z0-9](${SECRET_NAME_WORDS.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("|")})$`,
);

/**
 * Whether a field or key name says it holds a secret: one of the `name` words, or a name ending in
 * one after a separator or a lower-to-upper hump (`client-key`, `iris.key`, `accessToken`,
 * `workKubeconfig`); not a longer word (`monkey`, `keys`, `kubeconfigPath`).
 */
export function isSecretName(name: string): boolean {
  return WHOLE.test(name) || AFTER_SEPARATOR.test(name) || AFTER_HUMP.test(name);
}

/**
 * Whether a stack config key (without `iko-plus:`) holds a secret: stored as one (`secretKeys`,
 * full keys as the language host passes them), one of the list's config keys, or named as one.
 */
export function isSecretConfigKey(key: string, secretKeys: readonly string[], project = "iko-plus"): boolean {
  return secretKeys.includes(`${project}:${key}`) || SECRET_CONFIG_KEYS.includes(key) || isSecretName(key);
}
