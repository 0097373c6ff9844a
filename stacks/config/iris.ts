/**
 * Config of IrisClusters a stack applies (the manifest builder is components/iris's, re-exported).
 */
import {
  checkDns1123Label,
  checkDns1123Subdomain,
  checkImageRef,
  checkWholeNumber,
  isLicensedIrisImage,
} from "../../components/names";
import { IrisClusterArgs, irisClusterManifest } from "../../components/iris";
import { Reader, isObject } from "./read";

/** Config of one IrisCluster: the args of the IrisCluster manifest (components/iris). */
export type IrisClusterConfig = IrisClusterArgs;

const IRIS_KEYS = ["name", "namespace", "image", "serviceType", "licenseKeySecret", "mirrored", "spec"];

/** The IrisCluster object for a config entry: the builder of components/iris, re-exported here. */
export { irisClusterManifest };

/** Counts in an IrisCluster topology, with the range each must be in. */
const TOPOLOGY_COUNTS: { path: [string, string]; min: number; max: number }[] = [
  { path: ["data", "shards"], min: 1, max: 64 },
  { path: ["compute", "replicas"], min: 0, max: 100 },
  { path: ["webgateway", "replicas"], min: 0, max: 100 },
];

/** Reports impossible counts (negative, fractional, zero shards, absurdly many) in a topology given as spec. */
export function checkTopologyCounts(r: Reader, key: string, topology: unknown): void {
  if (!isObject(topology)) return;
  for (const {
    path: [node, field],
    min,
    max,
  } of TOPOLOGY_COUNTS) {
    const parent = topology[node];
    if (!isObject(parent) || parent[field] === undefined) continue;
    const value = parent[field];
    const problem = checkWholeNumber(min, max)(value);
    if (problem) r.problems.add(`${key}.${node}.${field}`, value, problem);
  }
}

/**
 * Reads a list of IrisClusters under `key`. `licenseField` names the field that gives a licensed
 * image its key (a Secret name at work; a secret config key in a fleet), checked but not read here.
 */
export function readIrisClusters(
  r: Reader,
  raw: unknown,
  key = "irisClusters",
  licenseField = "licenseKeySecret",
  extraKeys: string[] = [],
): IrisClusterConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    r.problems.add(
      key,
      raw,
      "must be a list of IrisClusters, e.g. [{name: iris-a, image: containers.intersystems.com/intersystems/iris-community:2025.1}]",
    );
    return [];
  }
  const out: IrisClusterConfig[] = [];
  raw.forEach((item, i) => {
    const k = `${key}[${i}]`;
    if (!isObject(item)) {
      r.problems.add(k, item, "is not an object with name and image");
      return;
    }
    r.unknownKeys(k, item, [...IRIS_KEYS.filter((x) => x !== "licenseKeySecret"), licenseField, ...extraKeys]);
    const name = r.string(`${k}.name`, item.name);
    if (name === undefined) r.problems.add(`${k}.name`, undefined, "is required; give the IrisCluster a DNS-1123 name");
    else if (checkDns1123Label(name)) r.problems.add(`${k}.name`, name, checkDns1123Label(name) as string);
    const namespace = r.string(`${k}.namespace`, item.namespace, "default") as string;
    if (checkDns1123Label(namespace))
      r.problems.add(`${k}.namespace`, namespace, checkDns1123Label(namespace) as string);
    const image = r.string(`${k}.image`, item.image);
    if (image === undefined)
      r.problems.add(
        `${k}.image`,
        undefined,
        "is required; e.g. containers.intersystems.com/intersystems/iris-community:2025.1",
      );
    else if (checkImageRef(image)) r.problems.add(`${k}.image`, image, checkImageRef(image) as string);
    const licenseKeySecret =
      licenseField === "licenseKeySecret" ? r.string(`${k}.licenseKeySecret`, item.licenseKeySecret) : undefined;
    if (licenseKeySecret !== undefined && checkDns1123Subdomain(licenseKeySecret)) {
      r.problems.add(`${k}.licenseKeySecret`, licenseKeySecret, checkDns1123Subdomain(licenseKeySecret) as string);
    }
    if (image !== undefined && isLicensedIrisImage(image) && item[licenseField] === undefined) {
      r.problems.add(
        `${k}.${licenseField}`,
        undefined,
        `is required for the licensed image ${JSON.stringify(image)}; name the Secret holding iris.key, or use an iris-community image`,
      );
    }
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
    if (spec) checkTopologyCounts(r, `${k}.spec.topology`, spec.topology);
    if (name !== undefined && out.some((o) => o.name === name && o.namespace === namespace)) {
      r.problems.add(`${k}.name`, name, `is used twice in namespace ${namespace}; give each IrisCluster its own name`);
    }
    if (name !== undefined && image !== undefined)
      out.push({ name, namespace, image, serviceType, licenseKeySecret, mirrored, spec });
  });
  return out;
}
