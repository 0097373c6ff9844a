/**
 * Config of IrisClusters a stack applies (the manifest builder is components/iris's, re-exported).
 */
import { IrisClusterArgs, checkIrisClusterArgs, irisClusterManifest, licenseSecretName } from "../../components/iris";
import { Reader, isObject } from "./read";

/** Config of one IrisCluster: the args of the IrisCluster manifest (components/iris). */
export type IrisClusterConfig = IrisClusterArgs;

const IRIS_KEYS = ["name", "namespace", "image", "serviceType", "licenseKeySecret", "mirrored", "spec"];

/** The IrisCluster object for a config entry: the builder of components/iris, re-exported here. */
export { irisClusterManifest };

/**
 * Reads a list of IrisClusters under `key`. `licenseField` names the field that gives a licensed
 * image its key (a Secret name at work; a secret config key in a fleet), checked but not read here.
 * `extraKeys` are a program's own fields of an entry; `readExtra` reads them (given the entry's key,
 * e.g. `irisClusters[0]`, and the entry) into what it adds to the entry's config.
 */
export function readIrisClusters<E extends object = Record<never, never>>(
  r: Reader,
  raw: unknown,
  key = "irisClusters",
  licenseField = "licenseKeySecret",
  extraKeys: string[] = [],
  readExtra?: (k: string, item: Record<string, unknown>) => E,
): (IrisClusterConfig & E)[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    r.problems.add(
      key,
      raw,
      "must be a list of IrisClusters, e.g. [{name: iris-a, image: containers.intersystems.com/intersystems/iris-community:2025.1}]",
    );
    return [];
  }
  const out: (IrisClusterConfig & E)[] = [];
  raw.forEach((item, i) => {
    const k = `${key}[${i}]`;
    if (!isObject(item)) {
      r.problems.add(k, item, "is not an object with name and image");
      return;
    }
    r.unknownKeys(k, item, [...IRIS_KEYS.filter((x) => x !== "licenseKeySecret"), licenseField, ...extraKeys]);
    const name = r.string(`${k}.name`, item.name);
    const namespace = r.string(`${k}.namespace`, item.namespace, "default") as string;
    const image = r.string(`${k}.image`, item.image);
    const licenseKeySecret =
      licenseField === "licenseKeySecret" ? r.string(`${k}.licenseKeySecret`, item.licenseKeySecret) : undefined;
    const serviceType =
      item.serviceType === undefined
        ? undefined
        : r.oneOf(
            `${k}.serviceType`,
            item.serviceType,
            ["ClusterIP", "NodePort", "LoadBalancer"] as const,
            "ClusterIP",
          );
    const mirrored = item.mirrored === undefined ? undefined : r.boolean(`${k}.mirrored`, item.mirrored, false);
    const spec = item.spec === undefined ? undefined : r.object(`${k}.spec`, item.spec);
    // The IrisCluster's own rules. Given another field (a fleet's licenseKeyConfig), the license
    // Secret is FederatedIrisCluster's, named after the IrisCluster: only whether a key is given
    // is this entry's to judge (a bad name is reported under name).
    const elsewhere = licenseField !== "licenseKeySecret";
    const given = item[licenseField] !== undefined;
    const license = elsewhere ? (given ? licenseSecretName(name ?? "") : undefined) : licenseKeySecret;
    r.componentProblems(
      checkIrisClusterArgs({ name, namespace, image, licenseKeySecret: license, spec }).filter(
        ([field, value]) => !(elsewhere && field === "licenseKeySecret" && value !== undefined),
      ),
      {
        name: `${k}.name`,
        namespace: `${k}.namespace`,
        image: `${k}.image`,
        licenseKeySecret: `${k}.${licenseField}`,
        spec: `${k}.spec`,
      },
    );
    if (name !== undefined && out.some((o) => o.name === name && o.namespace === namespace)) {
      r.problems.add(`${k}.name`, name, `is used twice in namespace ${namespace}; give each IrisCluster its own name`);
    }
    const extra = (readExtra?.(k, item) ?? {}) as E;
    if (name !== undefined && image !== undefined)
      out.push({ name, namespace, image, serviceType, licenseKeySecret, mirrored, spec, ...extra });
  });
  return out;
}
