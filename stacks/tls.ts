/**
 * Fleet TLS in the `fleet` stack: a FleetTls over the configured members, a Certificate for each
 * federated IrisCluster with `tls`, and that IrisCluster's template carrying `spec.tls`.
 */
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle } from "../components/cluster";
import { IrisCluster, irisClusterManifest, licenseSecretName, withIrisTls } from "../components/iris";
import { FleetTls, TlsComponent } from "../components/tls";
import { IrisClusterConfig } from "./config/iris";
import { FleetTlsConfig } from "./config/tls";

/** A federated IrisCluster as far as TLS is concerned. */
export type TlsIris = IrisClusterConfig & { tls?: TlsComponent[] };

export interface FleetTlsStackOutputs {
  /** The fleet CA certificate (PEM, public). */
  caCertificate: pulumi.Output<string>;
  issuer: string;
  members: string[];
  /** `namespace/name` of each IrisCluster with TLS, to the Secret its certificate is written to. */
  certificates: Record<string, string>;
}

/** Declares FleetTls when the config has `fleetTls`; `secretObjects` holds a supplied CA's keys. */
export function declareFleetTls(
  cfg: FleetTlsConfig | undefined,
  irisClusters: TlsIris[],
  handle: (name: string) => ClusterHandle,
  secretObjects: Record<string, pulumi.Output<unknown>>,
): FleetTls | undefined {
  if (cfg === undefined) return undefined;
  const ca =
    cfg.ca.source === "generate"
      ? { generate: cfg.ca.options }
      : {
          certificatePem: secretObjects[cfg.ca.certificateConfig] as pulumi.Output<string>,
          privateKeyPem: secretObjects[cfg.ca.keyConfig] as pulumi.Output<string>,
        };
  return new FleetTls("fleet-tls", {
    members: cfg.members.map(handle),
    ca,
    certificates: irisClusters.filter((f) => f.tls).map((f) => ({ name: f.name, namespace: f.namespace })),
    installCertManager: cfg.installCertManager,
    certManagerVersion: cfg.installCertManager ? cfg.certManagerVersion : undefined,
    namespace: cfg.namespace,
    createNamespace: cfg.createNamespace,
    issuerName: cfg.issuerName,
    caSecretName: cfg.caSecretName,
  });
}

/**
 * The IrisCluster template: naming the license Secret FederatedIrisCluster writes when the entry
 * has a license key, with `spec.tls` from the fleet's certificate when it asks for TLS.
 */
export function federatedIrisManifest(
  f: TlsIris & { licenseKeyConfig?: string },
  tls: FleetTls | undefined,
): IrisCluster {
  const licenseKeySecret = f.licenseKeyConfig ? licenseSecretName(f.name) : undefined;
  const manifest = irisClusterManifest({ ...f, licenseKeySecret });
  return f.tls && tls ? withIrisTls(manifest, tls.tlsSpec(f.name, f.namespace, f.tls)) : manifest;
}

/** What a federated IrisCluster waits for (and outlives on destroy): its certificates. */
export function tlsDependencies(f: TlsIris, tls: FleetTls | undefined): pulumi.Resource[] {
  return f.tls && tls ? [tls] : [];
}

export function fleetTlsOutputs(tls: FleetTls | undefined): FleetTlsStackOutputs | undefined {
  if (tls === undefined) return undefined;
  return {
    caCertificate: tls.caCertificate,
    issuer: tls.issuerName,
    members: Object.keys(tls.members),
    certificates: { ...tls.secretNames },
  };
}
