/**
 * The IrisCluster object IKO reconciles, as pure functions: the manifest of one IrisCluster (image,
 * mirroring, service type, license key Secret, further spec fields), the rules its args follow
 * (`checkIrisClusterArgs`) and its `spec.tls`. Whether an image needs a license key is the shared
 * image rule `isLicensedIrisImage`.
 */
import {
  ArgProblem,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkField,
  checkImageRef,
  checkWholeNumber,
  isLicensedIrisImage,
  isPlainMapping,
  mergeOver,
  throwIfArgProblems,
} from "../names";

import { IrisCluster, IrisClusterSpec, IrisSpecFields, IrisTlsSpec, LocalRef } from "./types";

export { isLicensedIrisImage };

/** One IrisCluster: what the stacks' `irisClusters[]` and `federatedIrisClusters[]` entries give. */
export interface IrisClusterArgs {
  /** The IrisCluster's name (a DNS-1123 label). */
  name: string;
  /** Its namespace (a DNS-1123 label). */
  namespace: string;
  /** The IRIS image of its data nodes (`spec.topology.data.image`). */
  image: string;
  /** The type of its Service (`spec.serviceTemplate.spec.type`). @default the operator's (ClusterIP) */
  serviceType?: "ClusterIP" | "NodePort" | "LoadBalancer";
  /**
   * The Secret holding the license key (`iris.key`); required for a licensed image (a
   * FederatedIrisCluster given `licenseKey` writes it as `licenseSecretName(name)`).
   */
  licenseKeySecret?: string;
  /** Mirrored data nodes (`spec.topology.data.mirrored`). @default not set: the operator's default (not mirrored) */
  mirrored?: boolean;
  /**
   * Further spec fields, merged over the generated spec: a mapping key by key (so
   * `topology.data.shards` keeps the generated `topology.data.image`), a list or a value replaced.
   * Without it, the spec is the generated one.
   */
  spec?: IrisSpecFields;
}

/** The fields `checkIrisClusterArgs` judges; the stack config may leave any of them out. */
export type IrisClusterCheckedArgs = Partial<
  Pick<IrisClusterArgs, "name" | "namespace" | "image" | "licenseKeySecret" | "spec">
>;

/**
 * An IrisCluster's name (required) and namespace (optional): DNS-1123 labels, reported under
 * `nameField` and `namespaceField` (FederatedIrisCluster's are `irisCluster.metadata.*`).
 */
export function checkIrisClusterRef(
  ref: { name?: unknown; namespace?: unknown },
  nameField = "name",
  namespaceField = "namespace",
): ArgProblem[] {
  const problems: ArgProblem[] = [];
  if (typeof ref.name !== "string")
    problems.push([nameField, ref.name, "is required; give the IrisCluster a DNS-1123 name"]);
  else checkField(problems, nameField, ref.name, checkDns1123Label);
  if (ref.namespace !== undefined) checkField(problems, namespaceField, String(ref.namespace), checkDns1123Label);
  return problems;
}

/** Counts in an IrisCluster topology, with the range each must be in. */
const TOPOLOGY_COUNTS: { node: string; field: string; min: number; max: number }[] = [
  { node: "data", field: "shards", min: 1, max: 64 },
  { node: "compute", field: "replicas", min: 0, max: 100 },
  { node: "webgateway", field: "replicas", min: 0, max: 100 },
];

/**
 * Problems of IrisCluster args, as `[field, value, problem]` (the stack config reports them under
 * `irisClusters[i].*` and `federatedIrisClusters[i].*`): a name and namespace Kubernetes takes, a
 * pinned image, a license key Secret for a licensed image, possible counts in `spec.topology`.
 */
export function checkIrisClusterArgs(args: IrisClusterCheckedArgs): ArgProblem[] {
  const problems = checkIrisClusterRef(args);
  if (args.image === undefined)
    problems.push([
      "image",
      undefined,
      "is required; e.g. containers.intersystems.com/intersystems/iris-community:2025.1",
    ]);
  else checkField(problems, "image", args.image, checkImageRef);
  checkField(problems, "licenseKeySecret", args.licenseKeySecret, checkDns1123Subdomain);
  if (args.image !== undefined && isLicensedIrisImage(args.image) && args.licenseKeySecret === undefined)
    problems.push([
      "licenseKeySecret",
      undefined,
      `is required for the licensed image ${JSON.stringify(args.image)}; name the Secret holding iris.key, or use an iris-community image`,
    ]);
  const topology = args.spec?.topology;
  if (isPlainMapping(topology))
    for (const { node, field, min, max } of TOPOLOGY_COUNTS) {
      const parent = topology[node];
      if (isPlainMapping(parent))
        checkField(problems, `spec.topology.${node}.${field}`, parent[field], checkWholeNumber(min, max));
    }
  return problems;
}

/** The key that holds the license key in its Secret (what IKO mounts as `iris.key`). */
export const IRIS_LICENSE_KEY = "iris.key";

/** The Secret a federated IrisCluster's license key is written to: `<IrisCluster name>-license`. */
export function licenseSecretName(irisName: string): string {
  return `${irisName}-license`;
}

/** `spec.licenseKeySecret` naming the Secret that holds the license key. */
export function licenseKeySecretRef(secretName: string): LocalRef {
  return { name: secretName };
}

/** The one deep merge (components/names/merge.ts), which a given `spec` goes through. */
export { mergeOver };

/** The IrisCluster object for one IrisCluster; throws one error naming every problem of `c`. */
export function irisClusterManifest(c: IrisClusterArgs): IrisCluster {
  throwIfArgProblems("IrisCluster", c.name, checkIrisClusterArgs(c));
  const spec: IrisClusterSpec = { topology: { data: { image: c.image } } };
  if (c.mirrored !== undefined) spec.topology.data.mirrored = c.mirrored;
  if (c.licenseKeySecret) spec.licenseKeySecret = licenseKeySecretRef(c.licenseKeySecret);
  if (c.serviceType) spec.serviceTemplate = { spec: { type: c.serviceType } };
  return {
    apiVersion: "intersystems.com/v1alpha1",
    kind: "IrisCluster",
    metadata: { name: c.name, namespace: c.namespace },
    spec: c.spec ? mergeOver(spec, c.spec) : spec,
  };
}

/** A copy of an IrisCluster manifest with `spec.tls` set (entries of `tls` win over existing ones). */
export function withIrisTls(irisCluster: IrisCluster, tls: IrisTlsSpec): IrisCluster {
  return { ...irisCluster, spec: { ...irisCluster.spec, tls: { ...irisCluster.spec.tls, ...tls } } };
}
