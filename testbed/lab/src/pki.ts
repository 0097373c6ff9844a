/**
 * Lab PKI: RSA keys from Node crypto, X.509 certificates from the `openssl` CLI (3.x: `req -x509 -CA`).
 * Keys are written with mode 0600 and never printed; openssl's own output is not echoed either.
 */
import { execFile } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import { promisify } from "util";
import { LabError } from "./config";

const execFileP = promisify(execFile);
const generateKeyPair = promisify(crypto.generateKeyPair);

const OPENSSL = process.env.IKO_LAB_OPENSSL || "/usr/bin/openssl";
const DAYS = "3650";

export interface CertFiles {
  crt: string;
  key: string;
}

export interface CertSpec {
  cn: string;
  /** Subject O (e.g. system:masters). */
  org?: string;
  dns?: string[];
  ips?: string[];
}

/** Fails with the install command when openssl is missing. */
export function requireOpenssl(): void {
  try {
    fs.accessSync(OPENSSL, fs.constants.X_OK);
  } catch {
    throw new LabError(
      `openssl not found at ${OPENSSL}: install it with \`apt-get install openssl\` (or set IKO_LAB_OPENSSL)`,
    );
  }
}

async function writeRsaKey(keyFile: string, pubFile?: string): Promise<void> {
  const { privateKey, publicKey } = await generateKeyPair("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  fs.writeFileSync(keyFile, privateKey, { mode: 0o600 });
  if (pubFile) fs.writeFileSync(pubFile, publicKey, { mode: 0o644 });
}

async function openssl(args: string[], what: string): Promise<void> {
  try {
    await execFileP(OPENSSL, args, { encoding: "utf8" });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    // openssl's stderr names files and options, never key material.
    throw new LabError(
      `openssl failed for ${what}: ${(err.stderr || err.message).trim().split("\n").slice(-3).join(" | ")}`,
    );
  }
}

function subject(spec: CertSpec): string {
  const esc = (s: string): string => s.replace(/([/\\])/g, "\\$1");
  return (spec.org ? `/O=${esc(spec.org)}` : "") + `/CN=${esc(spec.cn)}`;
}

function extConfig(file: string, ca: boolean, spec?: CertSpec): void {
  const lines = ["[req]", "distinguished_name = dn", "prompt = no", "[dn]", "[ext]"];
  if (ca) {
    lines.push(
      "basicConstraints = critical, CA:TRUE",
      "keyUsage = critical, keyCertSign, cRLSign, digitalSignature",
      "subjectKeyIdentifier = hash",
    );
  } else {
    lines.push(
      "basicConstraints = critical, CA:FALSE",
      "keyUsage = critical, digitalSignature, keyEncipherment",
      "extendedKeyUsage = serverAuth, clientAuth",
      "subjectKeyIdentifier = hash",
      "authorityKeyIdentifier = keyid",
    );
    const sans = [...(spec?.dns ?? []).map((d) => `DNS:${d}`), ...(spec?.ips ?? []).map((i) => `IP:${i}`)];
    if (sans.length) lines.push(`subjectAltName = ${sans.join(", ")}`);
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

/** A self-signed CA `<dir>/<base>.{crt,key}`. */
export async function makeCa(dir: string, base: string, cn: string): Promise<CertFiles> {
  fs.mkdirSync(dir, { recursive: true });
  const files = { crt: path.join(dir, `${base}.crt`), key: path.join(dir, `${base}.key`) };
  const cnf = path.join(dir, `${base}.cnf`);
  await writeRsaKey(files.key);
  extConfig(cnf, true);
  await openssl(
    [
      "req",
      "-x509",
      "-new",
      "-sha256",
      "-days",
      DAYS,
      "-key",
      files.key,
      "-subj",
      `/CN=${cn}`,
      "-config",
      cnf,
      "-extensions",
      "ext",
      "-out",
      files.crt,
    ],
    `CA ${cn}`,
  );
  fs.rmSync(cnf);
  return files;
}

/** A leaf certificate (server and client usage) `<dir>/<base>.{crt,key}` signed by `ca`. */
export async function makeCert(ca: CertFiles, dir: string, base: string, spec: CertSpec): Promise<CertFiles> {
  fs.mkdirSync(dir, { recursive: true });
  const files = { crt: path.join(dir, `${base}.crt`), key: path.join(dir, `${base}.key`) };
  const cnf = path.join(dir, `${base}.cnf`);
  await writeRsaKey(files.key);
  extConfig(cnf, false, spec);
  await openssl(
    [
      "req",
      "-x509",
      "-new",
      "-sha256",
      "-days",
      DAYS,
      "-key",
      files.key,
      "-subj",
      subject(spec),
      "-CA",
      ca.crt,
      "-CAkey",
      ca.key,
      "-set_serial",
      `0x${crypto.randomBytes(12).toString("hex")}`,
      "-config",
      cnf,
      "-extensions",
      "ext",
      "-out",
      files.crt,
    ],
    `certificate ${base} (CN=${spec.cn})`,
  );
  fs.rmSync(cnf);
  return files;
}

/** The ServiceAccount token key pair `<dir>/sa.key` + `<dir>/sa.pub`. */
export async function makeServiceAccountKeys(dir: string): Promise<{ key: string; pub: string }> {
  fs.mkdirSync(dir, { recursive: true });
  const files = { key: path.join(dir, "sa.key"), pub: path.join(dir, "sa.pub") };
  await writeRsaKey(files.key, files.pub);
  return files;
}

/** DNS names of the in-cluster `kubernetes` Service, for apiserver serving certificates. */
export const KUBERNETES_SVC_NAMES = [
  "kubernetes",
  "kubernetes.default",
  "kubernetes.default.svc",
  "kubernetes.default.svc.cluster.local",
];
