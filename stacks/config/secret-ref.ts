/**
 * Secret references in stack config: an entry names another config key that holds the secret
 * (a kubeconfig, a license key, Secret data), so the secret itself never sits in a readable entry.
 */
import { ClusterConfig, readCluster } from "./cluster";
import { Raw, Reader, isObject } from "./read";
import { PROJECT } from "./wfh";

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
  const name = r.string(key, ref);
  if (name === undefined) return undefined;
  referenced.add(name);
  if (raw[name] === undefined)
    r.problems.add(
      key,
      name,
      `names config key ${PROJECT}:${name}, which is not set; set it with \`pulumi config set --secret ${name} <${what}>\``,
    );
  else if (!secretKeys.includes(`${PROJECT}:${name}`))
    r.problems.add(
      key,
      name,
      `names config key ${PROJECT}:${name}, which is not a secret; set it again with \`pulumi config set --secret ${name} ...\``,
    );
  return name;
}

/**
 * A cluster entry whose kubeconfig may come from a secret config key (`kubeconfigSecret`): the
 * reference is checked, and the secret's text handed to `readCluster`. Any source is allowed.
 */
export function readClusterWithSecret(
  r: Reader,
  key: string,
  item: unknown,
  defaults: { name: string; clusterId: number },
  raw: Raw,
  secretKeys: string[],
  referenced: Set<string>,
  opts: { extraKeys: string[] },
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
    sources: ["kind", "kubeconfig", "gke"],
  });
}
