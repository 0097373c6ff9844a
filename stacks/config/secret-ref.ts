/**
 * Secret references in stack config: an entry names another config key that holds the secret
 * (a kubeconfig, a license key, Secret data), so the secret itself never sits in a readable entry.
 */
import { ClusterConfig, readCluster } from "./cluster";
import { Raw, Reader, isObject } from "./read";
import { PROJECT, ProgramName } from "./project";

/** What a config key's name may be: never a secret's text put here by mistake (a kubeconfig, a key). */
const CONFIG_KEY_NAME = /^[A-Za-z0-9_.-]{1,200}$/;

/**
 * The name of the config key a reference at `key` names (`v`), and its form for messages (`<key>`
 * when `key` is stored as a secret). Undefined when not set; undefined and a problem that shows
 * nothing of `v` when it is no config key's name, as when the secret itself was put there.
 */
export function readRefName(
  r: Reader,
  key: string,
  v: unknown,
  what: string,
): { name: string; shown: string } | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || !CONFIG_KEY_NAME.test(v)) {
    r.problems.add(
      key,
      v,
      `is not the name of a config key; name the secret config key that holds the ${what}, not the ${what} itself`,
      { secret: true },
    );
    return undefined;
  }
  return { name: v, shown: r.problems.secret(key) ? "<key>" : v };
}

/**
 * Reads the config key named at `key` (e.g. `karmada.kubeconfigSecret`): it must be set and stored
 * as a secret; `referenced` collects it (keys never referenced are reported elsewhere).
 */
export function readSecretRef(
  r: Reader,
  key: string,
  ref: unknown,
  raw: Raw,
  secretKeys: string[],
  referenced: Set<string>,
  what: string,
): string | undefined {
  const checked = readRefName(r, key, ref, what);
  if (checked === undefined) return undefined;
  const { name, shown } = checked;
  referenced.add(name);
  if (raw[name] === undefined)
    r.problems.add(
      key,
      name,
      `names config key ${PROJECT}:${shown}, which is not set; set it with \`pulumi config set --secret ${shown} <${what}>\``,
    );
  else if (!secretKeys.includes(`${PROJECT}:${name}`))
    r.problems.add(
      key,
      name,
      `names config key ${PROJECT}:${shown}, which is not a secret; set it again with \`pulumi config set --secret ${shown} ...\``,
    );
  return name;
}

/**
 * A cluster entry whose kubeconfig may come from a secret config key (`kubeconfigSecret`): the
 * reference is checked, and the secret's text handed to `readCluster`. `program` is the stack
 * program reading it (its sources are allowed).
 */
export function readClusterWithSecret(
  r: Reader,
  key: string,
  item: unknown,
  defaults: { name: string; clusterId: number },
  raw: Raw,
  secretKeys: string[],
  referenced: Set<string>,
  opts: { extraKeys: string[]; program: ProgramName },
): ClusterConfig {
  const obj = isObject(item) ? item : {};
  const secretKey =
    obj.kubeconfigSecret === undefined
      ? undefined
      : readSecretRef(r, `${key}.kubeconfigSecret`, obj.kubeconfigSecret, raw, secretKeys, referenced, "kubeconfig");
  const secretText =
    secretKey !== undefined && typeof raw[secretKey] === "string" ? (raw[secretKey] as string) : undefined;
  return readCluster(r, key, item, defaults, secretText, secretKey ?? `${key}.kubeconfigSecret`, {
    extraKeys: opts.extraKeys,
    program: opts.program,
  });
}
