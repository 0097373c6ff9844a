/**
 * The fleet CA: pure helpers (subject, validity, defaults), the generator (node-forge, pure
 * JavaScript, so it runs wherever Pulumi's Node.js runtime runs, lab included) and the checks
 * applied to a CA the user supplies.
 *
 * `generateFleetCa` runs inside the dynamic provider process (see ca-provider.ts): like every
 * function it calls, it loads its modules with `require` inside the function body, because the
 * provider is serialised.
 */
import { ArgProblem, checkField } from "../names/problems";
import { checkWholeNumber } from "../names/numbers";

/** What the generated CA looks like. Every field changes the CA: a change replaces it. */
export interface FleetCaOptions {
  /** Subject and issuer common name. @default "iko-plus fleet CA" */
  commonName?: string;
  /** Subject and issuer organization. @default "iko-plus" */
  organization?: string;
  /** Validity in days from creation. @default 3650 (ten years) */
  validityDays?: number;
  /** RSA key size in bits (2048, 3072 or 4096). @default 4096 */
  keyBits?: number;
  /** Raise by one to generate a new CA with otherwise unchanged options (rotation). @default 1 */
  generation?: number;
}

export type ResolvedCaOptions = Required<FleetCaOptions>;

/** Where a CA comes from (the fleet's, a ClusterMesh's): generated in the stack, or supplied. */
export type FleetCaSource =
  | { generate: FleetCaOptions }
  | {
      /** The CA certificate, PEM. */
      certificatePem: import("@pulumi/pulumi").Input<string>;
      /** The CA private key, PEM; wrapped as a secret. */
      privateKeyPem: import("@pulumi/pulumi").Input<string>;
    };

export const CA_DEFAULTS: ResolvedCaOptions = {
  commonName: "iko-plus fleet CA",
  organization: "iko-plus",
  validityDays: 3650,
  keyBits: 4096,
  generation: 1,
};

/** RSA key sizes the generator accepts. */
export const CA_KEY_BITS = [2048, 3072, 4096] as const;

/**
 * Problems of a generated CA's options, as `[field, value, problem]`: what the generator accepts
 * (key size, validity) and what X.509 allows (subject fields of at most 64 characters). The
 * generator never calls it (the dynamic provider carries no more than it needs).
 */
export function checkFleetCaOptions(o: FleetCaOptions): ArgProblem[] {
  const problems: ArgProblem[] = [];
  const x509 = (what: string) => (v: string) =>
    v.length > 64 ? `is ${v.length} characters; an X.509 ${what} has at most 64` : undefined;
  checkField(problems, "commonName", o.commonName, x509("common name"));
  checkField(problems, "organization", o.organization, x509("organization"));
  checkField(problems, "validityDays", o.validityDays, checkWholeNumber(1, 36500, " (days the CA is valid)"));
  checkField(
    problems,
    "generation",
    o.generation,
    checkWholeNumber(1, 1_000_000, " (raise it by one to generate a new CA)"),
  );
  checkField(problems, "keyBits", o.keyBits, (v) =>
    (CA_KEY_BITS as readonly unknown[]).includes(v)
      ? undefined
      : `is not a supported RSA key size; use one of: ${CA_KEY_BITS.join(", ")}`,
  );
  return problems;
}

/** The options with defaults filled in. */
export function resolveCaOptions(o: FleetCaOptions = {}): ResolvedCaOptions {
  return {
    commonName: o.commonName ?? CA_DEFAULTS.commonName,
    organization: o.organization ?? CA_DEFAULTS.organization,
    validityDays: o.validityDays ?? CA_DEFAULTS.validityDays,
    keyBits: o.keyBits ?? CA_DEFAULTS.keyBits,
    generation: o.generation ?? CA_DEFAULTS.generation,
  };
}

/** Subject (and, self-signed, issuer) attributes in node-forge's form. */
export function caSubject(
  o: Pick<ResolvedCaOptions, "commonName" | "organization">,
): { name: string; value: string }[] {
  return [
    { name: "commonName", value: o.commonName },
    { name: "organizationName", value: o.organization },
  ];
}

/**
 * Validity window: starts five minutes before `now` (clock skew between the Pulumi host and the
 * clusters must not make a fresh CA "not yet valid") and lasts `days` days from `now`.
 */
export function caValidity(now: Date, days: number): { notBefore: Date; notAfter: Date } {
  return {
    notBefore: new Date(now.getTime() - 5 * 60_000),
    notAfter: new Date(now.getTime() + days * 86_400_000),
  };
}

/** A CA certificate with its key. `keyPem` is secret material. */
export interface GeneratedCa {
  certPem: string;
  keyPem: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  fingerprintSha256: string;
}

/** SHA-256 fingerprint of a PEM certificate, colon-separated upper-case hex (as openssl prints). */
export function certFingerprint(certPem: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto: typeof import("crypto") = require("crypto");
  return new crypto.X509Certificate(certPem).fingerprint256;
}

/**
 * Generates a self-signed CA: RSA key, basicConstraints CA (critical, no path length limit),
 * keyUsage keyCertSign + cRLSign + digitalSignature (critical), subject key identifier,
 * SHA-256 signature, a random positive 128-bit serial.
 */
export function generateFleetCa(options: FleetCaOptions = {}, now: Date = new Date()): GeneratedCa {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const forge: typeof import("node-forge") = require("node-forge");
  const o = resolveCaOptions(options);
  if (!(CA_KEY_BITS as readonly number[]).includes(o.keyBits))
    throw new Error(`fleet CA: keyBits ${o.keyBits} is not one of ${CA_KEY_BITS.join(", ")}`);
  if (!Number.isInteger(o.validityDays) || o.validityDays < 1)
    throw new Error(`fleet CA: validityDays ${o.validityDays} must be a whole number of at least 1`);
  // Synchronous generation uses Node's native RSA key generation when available.
  const keys = forge.pki.rsa.generateKeyPair({ bits: o.keyBits, e: 0x10001 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  const serial = forge.util.bytesToHex(forge.random.getBytesSync(16));
  // A positive serial: clear the top bit of the first byte and keep it non-zero.
  cert.serialNumber =
    ((parseInt(serial.slice(0, 2), 16) & 0x7f) | 0x10).toString(16).padStart(2, "0") + serial.slice(2);
  const v = caValidity(now, o.validityDays);
  cert.validity.notBefore = v.notBefore;
  cert.validity.notAfter = v.notAfter;
  const attrs = caSubject(o);
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  return {
    certPem,
    keyPem: forge.pki.privateKeyToPem(keys.privateKey),
    serialNumber: cert.serialNumber,
    notBefore: v.notBefore.toISOString(),
    notAfter: v.notAfter.toISOString(),
    fingerprintSha256: certFingerprint(certPem),
  };
}

/**
 * Checks a CA the user supplies (PEM certificate and PEM private key, RSA or EC): returns the
 * problems, each a phrase that never quotes the key. Uses Node's X509 support, so EC keys work.
 */
export function checkSuppliedCa(
  certPem: string,
  keyPem: string,
  now: Date = new Date(),
): { cert?: string; key?: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto: typeof import("crypto") = require("crypto");
  let cert: import("crypto").X509Certificate;
  try {
    cert = new crypto.X509Certificate(certPem);
  } catch {
    return { cert: "is not a PEM certificate; give the CA certificate, -----BEGIN CERTIFICATE----- ..." };
  }
  if (!cert.ca)
    return {
      cert: `is not a CA certificate (subject ${JSON.stringify(cert.subject.replace(/\n/g, ", "))} lacks basicConstraints CA:TRUE); give a CA certificate`,
    };
  if (new Date(cert.validTo).getTime() <= now.getTime())
    return { cert: `expired on ${new Date(cert.validTo).toISOString()}; give a CA certificate that is still valid` };
  let key: import("crypto").KeyObject;
  try {
    key = crypto.createPrivateKey(keyPem);
  } catch {
    return { key: "is not a PEM private key (unencrypted PKCS#1, PKCS#8 or SEC1); give the CA's private key" };
  }
  if (!cert.checkPrivateKey(key))
    return { key: "does not match the CA certificate's public key; give the key the certificate was issued for" };
  return {};
}
