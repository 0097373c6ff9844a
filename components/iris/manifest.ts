/**
 * The IrisCluster object IKO reconciles, as pure functions: the manifest of one IrisCluster (image,
 * mirroring, service type, license key Secret, further spec fields) and its `spec.tls`. Whether an
 * image needs a license key is the shared image rule `isLicensedIrisImage`.
 */
export { isLicensedIrisImage } from "../names/images";

type Obj = Record<string, unknown>;

/** One IrisCluster: what the stacks' `irisClusters[]` and `federatedIrisClusters[]` entries give. */
export interface IrisClusterArgs {
  name: string;
  namespace: string;
  image: string;
  serviceType?: "ClusterIP" | "NodePort" | "LoadBalancer";
  /** The Secret holding the license key (`iris.key`), for a licensed image. */
  licenseKeySecret?: string;
  mirrored?: boolean;
  /** Further spec fields, merged over the generated spec. */
  spec?: Obj;
}

/** The key that holds the license key in its Secret (what IKO mounts as `iris.key`). */
export const IRIS_LICENSE_KEY = "iris.key";

/** The Secret a federated IrisCluster's license key is written to: `<IrisCluster name>-license`. */
export function licenseSecretName(irisName: string): string {
  return `${irisName}-license`;
}

/** `spec.licenseKeySecret` naming the Secret that holds the license key. */
export function licenseKeySecretRef(secretName: string): { name: string } {
  return { name: secretName };
}

/** The IrisCluster object for one IrisCluster. */
export function irisClusterManifest(c: IrisClusterArgs): Obj {
  const data: Obj = { image: c.image };
  if (c.mirrored !== undefined) data.mirrored = c.mirrored;
  const spec: Obj = { topology: { data } };
  if (c.licenseKeySecret) spec.licenseKeySecret = licenseKeySecretRef(c.licenseKeySecret);
  if (c.serviceType) spec.serviceTemplate = { spec: { type: c.serviceType } };
  return {
    apiVersion: "intersystems.com/v1alpha1",
    kind: "IrisCluster",
    metadata: { name: c.name, namespace: c.namespace },
    spec: c.spec ? { ...spec, ...c.spec } : spec,
  };
}

/** A copy of an IrisCluster manifest with `spec.tls` set (entries of `tls` win over existing ones). */
export function withIrisTls(irisCluster: Obj, tls: Obj): Obj {
  const spec = (irisCluster.spec ?? {}) as Obj;
  const existing = (spec.tls ?? {}) as Obj;
  return { ...irisCluster, spec: { ...spec, tls: { ...existing, ...tls } } };
}
