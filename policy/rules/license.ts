/**
 * Rule `licensed-iris-needs-license-key` (a stack policy): an IrisCluster that runs a licensed
 * InterSystems image (`intersystems/iris` or `intersystems/irishealth`, not the `-community`
 * ones) must name its license key Secret in `spec.licenseKeySecret.name`, and that Secret must be
 * declared in the same stack, in the IrisCluster's namespace, through the same provider (cluster).
 */
import { isLicensedIrisImage } from "../../components/names/images";
import {
  describe,
  isObject,
  leaves,
  objectRef,
  PolicyResource,
  reveal,
  StackFinding,
  stringAt,
  UNKNOWN,
} from "./values";

export const LICENSED_IRIS_NEEDS_LICENSE_KEY = "licensed-iris-needs-license-key";

/** Whether a type token is an IrisCluster (any version of intersystems.com). */
export function isIrisClusterType(type: string): boolean {
  return /^kubernetes:intersystems\.com\/[^:]+:IrisCluster$/.test(type);
}

/** Whether an image reference is a licensed IRIS image: the rule config validation uses too. */
export { isLicensedIrisImage };

const SECRET_TYPE = "kubernetes:core/v1:Secret";

/** Findings of the rule over all resources of a stack. */
export function missingLicenseKeys(resources: PolicyResource[]): StackFinding[] {
  const out: StackFinding[] = [];
  for (const r of resources) {
    if (!isIrisClusterType(r.type)) continue;
    const spec = r.props.spec;
    if (!isObject(spec)) continue;
    const licensed = leaves(spec, "spec").filter(
      (l) => l.key === "image" && typeof l.value === "string" && isLicensedIrisImage(l.value),
    );
    if (licensed.length === 0) continue;
    const image = `${licensed[0].path} ${JSON.stringify(licensed[0].value)}`;
    const namespace = stringAt(r.props, "metadata", "namespace") ?? "default";
    const keySecret = reveal(spec.licenseKeySecret);
    const nameValue = isObject(keySecret) ? reveal(keySecret.name) : keySecret;
    if (nameValue === UNKNOWN) continue; // known only when the update runs
    const secretName = typeof nameValue === "string" && nameValue !== "" ? nameValue : undefined;
    const who = `${describe(r)} (IrisCluster ${objectRef(r.props)})`;
    if (secretName === undefined) {
      out.push({
        urn: r.urn,
        message:
          `${who} runs the licensed image ${image} but spec.licenseKeySecret.name is not set; ` +
          "set it to a Secret holding the license key (iris.key) declared in this stack " +
          "(config irisClusters[].licenseKeySecret or federatedIrisClusters[].licenseKeyConfig), or use an iris-community image",
      });
      continue;
    }
    const found = resources.some(
      (s) =>
        s.type === SECRET_TYPE &&
        stringAt(s.props, "metadata", "name") === secretName &&
        (stringAt(s.props, "metadata", "namespace") ?? "default") === namespace &&
        (s.provider === undefined || r.provider === undefined || s.provider === r.provider),
    );
    if (!found) {
      out.push({
        urn: r.urn,
        message:
          `${who} runs the licensed image ${image} and spec.licenseKeySecret.name is ${JSON.stringify(secretName)}, ` +
          `but no Secret ${namespace}/${secretName} is declared in this stack on the same cluster; ` +
          "declare it (from a secret config value) in this stack, or use an iris-community image",
      });
    }
  }
  return out;
}
