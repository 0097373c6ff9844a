/**
 * The certificates of one ClusterMesh member, signed by the mesh's CA: a generator (node-forge
 * for the certificate, Node's crypto for the RSA key) and a dynamic resource that runs it once
 * per member and keeps the result in the stack's state, keys as Pulumi secrets from the moment
 * the provider returns them (`additionalSecretOutputs`). read() never reissues; every input
 * change replaces the certificates (new keys).
 *
 * This module is serialised into the dynamic provider process: like components/tls/ca.ts, the
 * functions the provider calls load their modules with `require` inside their bodies.
 */
import * as pulumi from "@pulumi/pulumi";
import { MESH_CERT_KINDS, MeshCertKind, MeshCertSpec, meshCertSpecs } from "./mesh-values";

/** One issued certificate; `keyPem` is secret material. */
export interface IssuedCert {
  certPem: string;
  keyPem: string;
}

/** What the certificates of one member are made from. Every field changes them. */
export interface MeshCertInputs {
  /** The CA certificate (PEM). */
  caCertPem: string;
  /** The CA private key (PEM). Secret. */
  caKeyPem: string;
  /** The member's Cilium `cluster.name`. */
  clusterName: string;
  /** Where the other members reach its clustermesh-apiserver (into the server certificate). */
  addresses: string[];
  /** Days the certificates are valid. */
  validityDays: number;
  /** Raise by one to issue new certificates (rotation). */
  generation: number;
}

/** Default validity: the chart's own `clustermesh.apiserver.tls.auto.certValidityDuration`. */
export const MESH_CERT_VALIDITY_DAYS = 1095;

/**
 * Issues one certificate signed by the CA: RSA 2048, SHA-256, a random positive serial, valid from
 * five minutes before `now`; keyUsage digitalSignature + keyEncipherment, extKeyUsage serverAuth +
 * clientAuth (as the chart's `genSignedCert`), subjectAltName for the server's names.
 */
export function issueMeshCert(
  spec: MeshCertSpec,
  caCertPem: string,
  caKeyPem: string,
  validityDays: number,
  now: Date = new Date(),
): IssuedCert {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const forge: typeof import("node-forge") = require("node-forge");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto: typeof import("crypto") = require("crypto");
  const caCert = forge.pki.certificateFromPem(caCertPem);
  const caKey = forge.pki.privateKeyFromPem(caKeyPem);
  const { publicKey, privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  const serial = forge.util.bytesToHex(forge.random.getBytesSync(16));
  cert.serialNumber =
    ((parseInt(serial.slice(0, 2), 16) & 0x7f) | 0x10).toString(16).padStart(2, "0") + serial.slice(2);
  cert.validity.notBefore = new Date(now.getTime() - 5 * 60_000);
  cert.validity.notAfter = new Date(now.getTime() + validityDays * 86_400_000);
  cert.setSubject([{ name: "commonName", value: spec.commonName }]);
  cert.setIssuer(caCert.subject.attributes);
  const altNames = [
    ...spec.dnsNames.map((value) => ({ type: 2, value })),
    ...spec.ipAddresses.map((ip) => ({ type: 7, ip })),
  ];
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true, clientAuth: true },
    ...(altNames.length > 0 ? [{ name: "subjectAltName", altNames }] : []),
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return {
    certPem: forge.pki.certificateToPem(cert),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/** The four certificates of one member (meshCertSpecs), issued by the CA. */
export function issueMeshCertificates(
  inputs: MeshCertInputs,
  now: Date = new Date(),
): Record<MeshCertKind, IssuedCert> {
  const specs = meshCertSpecs(inputs.clusterName, inputs.addresses);
  const out = {} as Record<MeshCertKind, IssuedCert>;
  for (const kind of MESH_CERT_KINDS)
    out[kind] = issueMeshCert(specs[kind], inputs.caCertPem, inputs.caKeyPem, inputs.validityDays, now);
  return out;
}

/** State: the inputs and, per certificate kind, `<kind>CertPem` and `<kind>KeyPem` (secret). */
export type MeshCertState = MeshCertInputs & Record<`${MeshCertKind}CertPem` | `${MeshCertKind}KeyPem`, string>;

/** Inputs whose change issues new certificates (all of them). */
export const MESH_CERT_INPUTS: (keyof MeshCertInputs)[] = [
  "caCertPem",
  "caKeyPem",
  "clusterName",
  "addresses",
  "validityDays",
  "generation",
];

/** The outputs kept secret in state: every private key. */
export const MESH_CERT_SECRET_OUTPUTS = MESH_CERT_KINDS.map((k) => `${k}KeyPem`);

export class MeshCertificatesProvider implements pulumi.dynamic.ResourceProvider {
  async diff(_id: string, olds: MeshCertState, news: MeshCertInputs): Promise<pulumi.dynamic.DiffResult> {
    const replaces = MESH_CERT_INPUTS.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
  }

  async create(inputs: MeshCertInputs): Promise<pulumi.dynamic.CreateResult> {
    const certs = issueMeshCertificates(inputs);
    const outs: Record<string, unknown> = { ...inputs };
    for (const [kind, c] of Object.entries(certs)) {
      outs[`${kind}CertPem`] = c.certPem;
      outs[`${kind}KeyPem`] = c.keyPem;
    }
    return { id: `${inputs.clusterName}-${inputs.generation}`, outs };
  }

  async read(id: string, props: MeshCertState): Promise<pulumi.dynamic.ReadResult> {
    // The certificates exist only in state (and in the Secrets made from them).
    return { id, props };
  }

  async delete(): Promise<void> {
    // Nothing outside the state to remove.
  }
}

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** The four certificates of one ClusterMesh member, in the stack's state. */
export class MeshCertificates extends pulumi.dynamic.Resource {
  declare public readonly serverCertPem: pulumi.Output<string>;
  declare public readonly serverKeyPem: pulumi.Output<string>;
  declare public readonly adminCertPem: pulumi.Output<string>;
  declare public readonly adminKeyPem: pulumi.Output<string>;
  declare public readonly localCertPem: pulumi.Output<string>;
  declare public readonly localKeyPem: pulumi.Output<string>;
  declare public readonly remoteCertPem: pulumi.Output<string>;
  declare public readonly remoteKeyPem: pulumi.Output<string>;

  constructor(name: string, args: Inputs<MeshCertInputs>, opts?: pulumi.CustomResourceOptions) {
    const outs: Record<string, undefined> = {};
    for (const k of MESH_CERT_KINDS) {
      outs[`${k}CertPem`] = undefined;
      outs[`${k}KeyPem`] = undefined;
    }
    super(
      new MeshCertificatesProvider(),
      name,
      { ...args, caKeyPem: pulumi.secret(args.caKeyPem), ...outs },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...MESH_CERT_SECRET_OUTPUTS] },
      "iko-plus-cilium",
      "MeshCertificates",
    );
  }

  /** One certificate and its key (secret). */
  pem(kind: MeshCertKind): { cert: pulumi.Output<string>; key: pulumi.Output<string> } {
    const pems: Record<MeshCertKind, [pulumi.Output<string>, pulumi.Output<string>]> = {
      server: [this.serverCertPem, this.serverKeyPem],
      admin: [this.adminCertPem, this.adminKeyPem],
      local: [this.localCertPem, this.localKeyPem],
      remote: [this.remoteCertPem, this.remoteKeyPem],
    };
    const [cert, key] = pems[kind];
    return { cert, key: pulumi.secret(key) };
  }
}
