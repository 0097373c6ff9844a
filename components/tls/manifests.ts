/**
 * Fleet TLS manifests and values, as pure functions: the cert-manager install arguments, the CA
 * Secret's metadata, the ClusterIssuer, each IrisCluster's Certificate, and the IrisCluster
 * `spec.tls` that mounts the issued Secret.
 */
import type { CertManagerArgs } from "@pulumi/kubernetes-cert-manager";
import { ManifestMeta } from "../cluster/manifest";
import { IRIS_TLS_PARTS, IrisTlsPart, IrisTlsSpec, IrisTlsVolume } from "../iris/types";

/** `cert-manager.io/v1` ClusterIssuer, with the one issuer type this project uses: a CA. */
export interface ClusterIssuer {
  apiVersion: "cert-manager.io/v1";
  kind: "ClusterIssuer";
  metadata: ManifestMeta;
  /** Signs with the CA in `secretName` (a `kubernetes.io/tls` Secret in cert-manager's namespace). */
  spec: { ca: { secretName: string } };
}

/** A key usage cert-manager accepts in `Certificate.spec.usages` (its `KeyUsage` enumeration). */
export type CertificateKeyUsage =
  | "signing"
  | "digital signature"
  | "content commitment"
  | "key encipherment"
  | "key agreement"
  | "data encipherment"
  | "cert sign"
  | "crl sign"
  | "encipher only"
  | "decipher only"
  | "any"
  | "server auth"
  | "client auth"
  | "code signing"
  | "email protection"
  | "s/mime"
  | "ipsec end system"
  | "ipsec tunnel"
  | "ipsec user"
  | "timestamping"
  | "ocsp signing"
  | "microsoft sgc"
  | "netscape sgc";

/** `cert-manager.io/v1` Certificate, with the fields this project sets. */
export interface Certificate {
  apiVersion: "cert-manager.io/v1";
  kind: "Certificate";
  metadata: ManifestMeta & { namespace: string };
  spec: {
    /** The Secret cert-manager writes the key pair and CA into. */
    secretName: string;
    /** Labels cert-manager puts on that Secret. */
    secretTemplate?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    commonName?: string;
    dnsNames?: string[];
    /** A Go duration, e.g. `2160h`. */
    duration?: string;
    /** A Go duration before expiry, e.g. `720h`. */
    renewBefore?: string;
    privateKey?: {
      algorithm?: "RSA" | "ECDSA" | "Ed25519";
      size?: number;
      encoding?: "PKCS1" | "PKCS8";
      rotationPolicy?: "Never" | "Always";
    };
    usages?: CertificateKeyUsage[];
    issuerRef: { name: string; kind?: "Issuer" | "ClusterIssuer"; group?: string };
  };
}

/** The IRIS components IKO can give TLS material (`IrisCluster.spec.tls` keys). */
export const TLS_COMPONENTS = IRIS_TLS_PARTS;
export type TlsComponent = IrisTlsPart;

/** cert-manager chart version installed when none is given (pinned; the chart's repository is charts.jetstack.io). */
export const CERT_MANAGER_CHART_VERSION = "v1.19.1";
/** The namespace of cert-manager, where a ClusterIssuer reads its CA Secret. */
export const CERT_MANAGER_NAMESPACE = "cert-manager";
/** Default name of the CA Secret (in the cert-manager namespace) and of the ClusterIssuer. */
export const FLEET_CA_NAME = "iko-plus-fleet-ca";
/** Labels on every object FleetTls creates in a member. */
export const FLEET_TLS_LABELS: Record<string, string> = {
  "app.kubernetes.io/managed-by": "iko-plus",
  "app.kubernetes.io/part-of": "iko-plus-fleet-tls",
};

/**
 * CertManager (`@pulumi/kubernetes-cert-manager`) arguments: the chart version pinned, CRDs
 * installed with the release (`installCRDs`; the chart keeps them on uninstall), release
 * `cert-manager` in `namespace`, which the caller creates (so the CA Secret can go in first).
 */
export function certManagerArgs(o: { version: string; namespace: string }): CertManagerArgs {
  return {
    installCRDs: true,
    helmOptions: { name: "cert-manager", namespace: o.namespace, version: o.version, createNamespace: false },
  };
}

/** The CA Secret's metadata and type (its data, the CA, is secret input). */
export function caSecretMeta(
  name: string,
  namespace: string,
): { metadata: { name: string; namespace: string; labels: Record<string, string> }; type: string } {
  return { metadata: { name, namespace, labels: { ...FLEET_TLS_LABELS } }, type: "kubernetes.io/tls" };
}

/** A ClusterIssuer of kind `ca` signing with the CA in `caSecretName` (cert-manager's namespace). */
export function clusterIssuerManifest(name: string, caSecretName: string): ClusterIssuer {
  return {
    apiVersion: "cert-manager.io/v1",
    kind: "ClusterIssuer",
    metadata: { name, labels: { ...FLEET_TLS_LABELS } },
    spec: { ca: { secretName: caSecretName } },
  };
}

/** The Certificate (and Secret) name for an IrisCluster. */
export function irisCertificateName(irisName: string): string {
  return `${irisName}-tls`;
}

/**
 * Names the certificate covers by default: the IrisCluster's name, its Service names in the
 * namespace, and any pod or service under `<name>` in the cluster domain (IKO's per-pod names).
 */
export function defaultDnsNames(irisName: string, namespace: string): string[] {
  return [
    irisName,
    `${irisName}.${namespace}`,
    `${irisName}.${namespace}.svc`,
    `*.${irisName}.${namespace}.svc`,
    `*.${irisName}.${namespace}.svc.cluster.local`,
  ];
}

export interface IrisCertificateOptions {
  /** The IrisCluster's name. */
  irisName: string;
  /** The IrisCluster's namespace (must exist on the member). */
  namespace: string;
  /** The ClusterIssuer. */
  issuerName: string;
  /** Secret cert-manager writes. @default `<irisName>-tls` */
  secretName?: string;
  /** @default defaultDnsNames(irisName, namespace) */
  dnsNames?: string[];
  /** @default "2160h" (90 days) */
  duration?: string;
  /** @default "720h" (30 days before expiry) */
  renewBefore?: string;
}

/**
 * A cert-manager Certificate for an IrisCluster: common name the IrisCluster's name, server and
 * client auth (mirror members connect to each other both ways), a new RSA key at each renewal.
 */
export function certificateManifest(o: IrisCertificateOptions): Certificate {
  const name = irisCertificateName(o.irisName);
  return {
    apiVersion: "cert-manager.io/v1",
    kind: "Certificate",
    metadata: { name, namespace: o.namespace, labels: { ...FLEET_TLS_LABELS } },
    spec: {
      secretName: o.secretName ?? name,
      secretTemplate: { labels: { ...FLEET_TLS_LABELS } },
      commonName: o.irisName,
      dnsNames: o.dnsNames ?? defaultDnsNames(o.irisName, o.namespace),
      duration: o.duration ?? "2160h",
      renewBefore: o.renewBefore ?? "720h",
      privateKey: { algorithm: "RSA", size: 2048, encoding: "PKCS8", rotationPolicy: "Always" },
      usages: ["digital signature", "key encipherment", "server auth", "client auth"],
      issuerRef: { name: o.issuerName, kind: "ClusterIssuer", group: "cert-manager.io" },
    },
  };
}

/**
 * The volume IKO mounts for a component: the issued Secret with its keys `tls.crt` and `tls.key`,
 * and the CA both as `ca.crt` (cert-manager's name) and `ca.pem` (the name the IKO docs use for
 * the CA file; unverified here, see docs/fleet-tls.md), so either name is found.
 */
export function irisTlsVolume(secretName: string): IrisTlsVolume {
  return {
    secret: {
      secretName,
      items: [
        { key: "tls.crt", path: "tls.crt" },
        { key: "tls.key", path: "tls.key" },
        { key: "ca.crt", path: "ca.crt" },
        { key: "ca.crt", path: "ca.pem" },
      ],
    },
  };
}

/** `spec.tls` for the given components, all from one Secret, in TLS_COMPONENTS order. */
export function irisTlsSpec(components: readonly TlsComponent[], secretName: string): IrisTlsSpec {
  const tls: IrisTlsSpec = {};
  for (const c of TLS_COMPONENTS) if (components.includes(c)) tls[c] = irisTlsVolume(secretName);
  return tls;
}

/** `withIrisTls` lives with the IrisCluster manifest (components/iris); re-exported here. */
export { withIrisTls } from "../iris/manifest";
