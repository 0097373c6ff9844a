/**
 * The IrisCluster object IKO reconciles (`intersystems.com/v1alpha1`), typed with the fields this
 * program writes or reads, from IKO's documented sample (`shared/reference/iko.md`). IKO's own CRD
 * is proprietary; the stand-in CRD in `test/fixtures/crds/` accepts these fields (it keeps unknown
 * fields), and `test/unit/iris-manifest.test.ts` checks the manifests against it.
 */

/** An object in the IrisCluster's namespace, by name. */
export interface LocalRef {
  name: string;
}

/** The parts of IRIS `spec.tls` configures, each mounted from a volume. */
export const IRIS_TLS_PARTS = ["common", "mirror", "webgateway", "superserver", "ecp"] as const;
export type IrisTlsPart = (typeof IRIS_TLS_PARTS)[number];

/** A Secret volume as `spec.tls` entries take it (`items` maps keys to file names). */
export interface IrisTlsVolume {
  secret: { secretName: string; items?: { key: string; path: string }[] };
}

/** `spec.tls`: per part, where its certificate, key and CA come from. */
export type IrisTlsSpec = Partial<Record<IrisTlsPart, IrisTlsVolume>>;

/** A node of the topology: its image and how its pods run. */
export interface IrisNode {
  image: string;
  podTemplate?: { spec?: Record<string, unknown> };
  preferredZones?: string[];
  compatibilityVersion?: string;
}

export interface IrisTopology {
  data: IrisNode & { shards?: number; mirrored?: boolean };
  compute?: IrisNode & { replicas?: number };
  arbiter?: { image: string };
  webgateway?: { image: string; type?: string; replicas?: number; applicationPaths?: string[] };
}

export interface IrisClusterSpec {
  topology: IrisTopology;
  /** The Secret holding the license key (`iris.key`). */
  licenseKeySecret?: LocalRef;
  /** A ConfigMap of CPF merge files. */
  configSource?: LocalRef;
  imagePullSecrets?: LocalRef[];
  tls?: IrisTlsSpec;
  storageClassName?: string;
  updateStrategy?: { type: string };
  serviceTemplate?: { spec?: { type?: "ClusterIP" | "NodePort" | "LoadBalancer" } };
}

/**
 * Spec fields given beside the generated ones (the stack config's `spec:`): any of the typed
 * fields, any part of the topology, and fields this program does not know, passed to IKO as given.
 */
export type IrisSpecFields = { [field: string]: unknown } & Partial<Omit<IrisClusterSpec, "topology">> & {
    topology?: { [node: string]: unknown };
  };

export interface IrisCluster {
  apiVersion: "intersystems.com/v1alpha1";
  kind: "IrisCluster";
  metadata: { name: string; namespace?: string };
  spec: IrisClusterSpec;
}
