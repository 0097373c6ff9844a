/**
 * Fleet TLS pure functions: CA options, subject and validity, the generated CA parsed back with
 * node-forge and Node's X509 support, checks on a supplied CA, and every manifest exactly.
 */
import * as assert from "assert";
import * as crypto from "crypto";
import * as forge from "node-forge";
import type { IrisCluster } from "../../components/iris";
import {
  CA_DEFAULTS,
  CERT_MANAGER_CHART_VERSION,
  FleetCaProvider,
  caSecretMeta,
  caSubject,
  caValidity,
  certManagerArgs,
  certificateManifest,
  checkSuppliedCa,
  clusterIssuerManifest,
  defaultDnsNames,
  generateFleetCa,
  irisTlsSpec,
  irisTlsVolume,
  resolveCaOptions,
  withIrisTls,
} from "../../components/tls";

const LABELS = { "app.kubernetes.io/managed-by": "iko-plus", "app.kubernetes.io/part-of": "iko-plus-fleet-tls" };
const VOLUME = (secretName: string) => ({
  secret: {
    secretName,
    items: [
      { key: "tls.crt", path: "tls.crt" },
      { key: "tls.key", path: "tls.key" },
      { key: "ca.crt", path: "ca.crt" },
      { key: "ca.crt", path: "ca.pem" },
    ],
  },
});

/** A leaf certificate signed by `ca`, for chain checks. */
function issueLeaf(ca: { certPem: string; keyPem: string }, cn: string, organization?: string): string {
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const leaf = forge.pki.createCertificate();
  leaf.publicKey = keys.publicKey;
  leaf.serialNumber = "01";
  leaf.validity.notBefore = new Date(Date.now() - 60_000);
  leaf.validity.notAfter = new Date(Date.now() + 86_400_000);
  leaf.setSubject([
    { name: "commonName", value: cn },
    ...(organization ? [{ name: "organizationName", value: organization }] : []),
  ]);
  leaf.setIssuer(caCert.subject.attributes);
  leaf.sign(forge.pki.privateKeyFromPem(ca.keyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(leaf);
}

describe("fleet TLS: the CA", () => {
  it("resolves options with documented defaults", () => {
    assert.deepStrictEqual(resolveCaOptions(), {
      commonName: "iko-plus fleet CA",
      organization: "iko-plus",
      validityDays: 3650,
      keyBits: 4096,
      generation: 1,
    });
    assert.deepStrictEqual(resolveCaOptions({ commonName: "acme", keyBits: 2048, generation: 3 }), {
      commonName: "acme",
      organization: "iko-plus",
      validityDays: 3650,
      keyBits: 2048,
      generation: 3,
    });
    assert.deepStrictEqual(CA_DEFAULTS, resolveCaOptions({}));
  });

  it("builds the subject and the validity window exactly", () => {
    assert.deepStrictEqual(caSubject({ commonName: "c", organization: "o" }), [
      { name: "commonName", value: "c" },
      { name: "organizationName", value: "o" },
    ]);
    const v = caValidity(new Date("2026-01-01T00:00:00Z"), 10);
    assert.deepStrictEqual(
      [v.notBefore.toISOString(), v.notAfter.toISOString()],
      ["2025-12-31T23:55:00.000Z", "2026-01-11T00:00:00.000Z"],
    );
  });

  it("generates a self-signed CA: basicConstraints CA, keyUsage certSign+cRLSign, RSA key that matches, SHA-256", function () {
    this.timeout(60_000);
    const now = new Date("2026-03-01T12:00:00Z");
    const ca = generateFleetCa(
      { commonName: "fleet test CA", organization: "acme", validityDays: 30, keyBits: 2048 },
      now,
    );
    const cert = forge.pki.certificateFromPem(ca.certPem);
    const bc = cert.getExtension("basicConstraints") as { cA: boolean; critical: boolean };
    assert.strictEqual(bc.cA, true);
    assert.strictEqual(bc.critical, true);
    const ku = cert.getExtension("keyUsage") as {
      keyCertSign: boolean;
      cRLSign: boolean;
      digitalSignature: boolean;
      keyEncipherment?: boolean;
      critical: boolean;
    };
    assert.deepStrictEqual(
      [ku.keyCertSign, ku.cRLSign, ku.digitalSignature, ku.critical, !!ku.keyEncipherment],
      [true, true, true, true, false],
    );
    assert.ok(cert.getExtension("subjectKeyIdentifier"));
    assert.strictEqual(cert.subject.getField("CN").value, "fleet test CA");
    assert.strictEqual(cert.subject.getField("O").value, "acme");
    assert.strictEqual(cert.issuer.hash, cert.subject.hash, "self-signed");
    assert.ok(cert.verify(cert), "signature verifies with its own key");
    assert.strictEqual(forge.pki.oids[cert.siginfo.algorithmOid], "sha256WithRSAEncryption");
    assert.deepStrictEqual(
      [cert.validity.notBefore.toISOString(), cert.validity.notAfter.toISOString()],
      ["2026-03-01T11:55:00.000Z", "2026-03-31T12:00:00.000Z"],
    );
    assert.deepStrictEqual([ca.notBefore, ca.notAfter], ["2026-03-01T11:55:00.000Z", "2026-03-31T12:00:00.000Z"]);
    const key = forge.pki.privateKeyFromPem(ca.keyPem);
    assert.strictEqual(key.n.bitLength(), 2048);
    assert.strictEqual(
      (cert.publicKey as forge.pki.rsa.PublicKey).n.toString(16),
      key.n.toString(16),
      "the key is the certificate's",
    );
    assert.match(ca.serialNumber, /^[1-7][0-9a-f]{31}$/, "a positive 128-bit serial");
    assert.strictEqual(ca.serialNumber, cert.serialNumber);
    const x = new crypto.X509Certificate(ca.certPem);
    assert.strictEqual(x.ca, true);
    assert.ok(x.checkPrivateKey(crypto.createPrivateKey(ca.keyPem)));
    assert.strictEqual(ca.fingerprintSha256, x.fingerprint256);
    // A certificate it signs chains to it (what every member's cert-manager does).
    const leaf = new crypto.X509Certificate(issueLeaf(ca, "iris-a"));
    assert.ok(leaf.verify(x.publicKey), "a leaf signed by the CA verifies against the CA");
    assert.ok(leaf.checkIssued(x));
  });

  it("generates a new key pair and serial each time; default size 4096 bits", function () {
    this.timeout(120_000);
    const a = generateFleetCa();
    const b = generateFleetCa({ keyBits: 2048 });
    assert.notStrictEqual(a.serialNumber, b.serialNumber);
    assert.notStrictEqual(a.keyPem, b.keyPem);
    assert.strictEqual(forge.pki.privateKeyFromPem(a.keyPem).n.bitLength(), 4096);
    const days = (new Date(a.notAfter).getTime() - Date.now()) / 86_400_000;
    assert.ok(days > 3649.9 && days <= 3650, `ten years (${days})`);
  });

  it("refuses key sizes and validities it does not support", () => {
    assert.throws(() => generateFleetCa({ keyBits: 1024 }), /keyBits 1024 is not one of 2048, 3072, 4096/);
    assert.throws(
      () => generateFleetCa({ keyBits: 2048, validityDays: 0 }),
      /validityDays 0 must be a whole number of at least 1/,
    );
  });

  it("checks a supplied CA: PEM, CA flag, expiry, key format and key match; never quotes the key", function () {
    this.timeout(60_000);
    const ca = generateFleetCa({ keyBits: 2048 });
    const other = generateFleetCa({ keyBits: 2048 });
    assert.deepStrictEqual(checkSuppliedCa(ca.certPem, ca.keyPem), {});
    assert.deepStrictEqual(checkSuppliedCa("nope", ca.keyPem), {
      cert: "is not a PEM certificate; give the CA certificate, -----BEGIN CERTIFICATE----- ...",
    });
    const leaf = issueLeaf(ca, "leaf");
    assert.deepStrictEqual(checkSuppliedCa(leaf, ca.keyPem), {
      cert: 'is not a CA certificate (subject "CN=leaf" lacks basicConstraints CA:TRUE); give a CA certificate',
    });
    const expired = generateFleetCa({ keyBits: 2048, validityDays: 1 }, new Date("2020-01-01T00:00:00Z"));
    assert.deepStrictEqual(checkSuppliedCa(expired.certPem, expired.keyPem), {
      cert: "expired on 2020-01-02T00:00:00.000Z; give a CA certificate that is still valid",
    });
    // The last valid moment is the one before notAfter: at notAfter it has expired.
    assert.deepStrictEqual(checkSuppliedCa(expired.certPem, expired.keyPem, new Date("2020-01-02T00:00:00Z")), {
      cert: "expired on 2020-01-02T00:00:00.000Z; give a CA certificate that is still valid",
    });
    assert.deepStrictEqual(checkSuppliedCa(expired.certPem, expired.keyPem, new Date("2020-01-01T23:59:59.999Z")), {});
    // A subject of several attributes is one line, comma-separated.
    assert.deepStrictEqual(checkSuppliedCa(issueLeaf(ca, "leaf", "ops"), ca.keyPem), {
      cert: 'is not a CA certificate (subject "CN=leaf, O=ops" lacks basicConstraints CA:TRUE); give a CA certificate',
    });
    assert.deepStrictEqual(checkSuppliedCa(ca.certPem, "not a key"), {
      key: "is not a PEM private key (unencrypted PKCS#1, PKCS#8 or SEC1); give the CA's private key",
    });
    const mismatch = checkSuppliedCa(ca.certPem, other.keyPem);
    assert.deepStrictEqual(mismatch, {
      key: "does not match the CA certificate's public key; give the key the certificate was issued for",
    });
    const body = other.keyPem.split("\n")[1];
    assert.ok(!JSON.stringify(mismatch).includes(body));
    // An EC CA (cert-manager supports them) passes too.
    const ec = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
    assert.deepStrictEqual(
      checkSuppliedCa(ca.certPem, ec.privateKey.export({ type: "pkcs8", format: "pem" }) as string).key,
      mismatch.key,
    );
  });

  it("the dynamic provider: create returns the CA with its inputs, read keeps state, every input change replaces", async function () {
    this.timeout(60_000);
    const p = new FleetCaProvider();
    const inputs = { ...resolveCaOptions({ keyBits: 2048 }) };
    const created = await p.create(inputs);
    const outs = created.outs as Record<string, unknown>;
    assert.strictEqual(created.id, outs.serialNumber);
    assert.deepStrictEqual(Object.keys(outs).sort(), [
      "certPem",
      "commonName",
      "fingerprintSha256",
      "generation",
      "keyBits",
      "keyPem",
      "notAfter",
      "notBefore",
      "organization",
      "serialNumber",
      "validityDays",
    ]);
    assert.ok(new crypto.X509Certificate(outs.certPem as string).ca);
    const read = await p.read(created.id, outs as never);
    assert.deepStrictEqual(read, { id: created.id, props: outs });
    assert.deepStrictEqual(await p.diff(created.id, outs as never, inputs), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepStrictEqual(await p.diff(created.id, outs as never, { ...inputs, generation: 2 }), {
      changes: true,
      replaces: ["generation"],
      deleteBeforeReplace: false,
    });
    assert.deepStrictEqual(
      (await p.diff(created.id, outs as never, { ...inputs, commonName: "x", validityDays: 1 })).replaces,
      ["commonName", "validityDays"],
    );
    await p.delete();
  });
});

describe("fleet TLS: manifests", () => {
  it("cert-manager arguments: chart pinned, CRDs installed, release in the given namespace", () => {
    assert.strictEqual(CERT_MANAGER_CHART_VERSION, "v1.19.1");
    assert.deepStrictEqual(certManagerArgs({ version: "v1.19.1", namespace: "cert-manager" }), {
      installCRDs: true,
      helmOptions: { name: "cert-manager", namespace: "cert-manager", version: "v1.19.1", createNamespace: false },
    });
  });

  it("the CA Secret is kubernetes.io/tls in cert-manager's namespace; the ClusterIssuer is of kind ca", () => {
    assert.deepStrictEqual(caSecretMeta("fleet-ca", "cert-manager"), {
      metadata: { name: "fleet-ca", namespace: "cert-manager", labels: LABELS },
      type: "kubernetes.io/tls",
    });
    assert.deepStrictEqual(clusterIssuerManifest("fleet-issuer", "fleet-ca"), {
      apiVersion: "cert-manager.io/v1",
      kind: "ClusterIssuer",
      metadata: { name: "fleet-issuer", labels: LABELS },
      spec: { ca: { secretName: "fleet-ca" } },
    });
  });

  it("a Certificate per IrisCluster: defaults, and every option", () => {
    assert.deepStrictEqual(defaultDnsNames("iris-a", "db"), [
      "iris-a",
      "iris-a.db",
      "iris-a.db.svc",
      "*.iris-a.db.svc",
      "*.iris-a.db.svc.cluster.local",
    ]);
    assert.deepStrictEqual(certificateManifest({ irisName: "iris-a", namespace: "db", issuerName: "fleet" }), {
      apiVersion: "cert-manager.io/v1",
      kind: "Certificate",
      metadata: { name: "iris-a-tls", namespace: "db", labels: LABELS },
      spec: {
        secretName: "iris-a-tls",
        secretTemplate: { labels: LABELS },
        commonName: "iris-a",
        dnsNames: ["iris-a", "iris-a.db", "iris-a.db.svc", "*.iris-a.db.svc", "*.iris-a.db.svc.cluster.local"],
        duration: "2160h",
        renewBefore: "720h",
        privateKey: { algorithm: "RSA", size: 2048, encoding: "PKCS8", rotationPolicy: "Always" },
        usages: ["digital signature", "key encipherment", "server auth", "client auth"],
        issuerRef: { name: "fleet", kind: "ClusterIssuer", group: "cert-manager.io" },
      },
    });
    const custom = certificateManifest({
      irisName: "b",
      namespace: "default",
      issuerName: "i",
      secretName: "s",
      dnsNames: ["b.example.com"],
      duration: "48h",
      renewBefore: "24h",
    }).spec as Record<string, unknown>;
    assert.deepStrictEqual(
      [custom.secretName, custom.dnsNames, custom.duration, custom.renewBefore],
      ["s", ["b.example.com"], "48h", "24h"],
    );
  });

  it("spec.tls mounts the issued Secret for each enabled component, in IKO's key order", () => {
    assert.deepStrictEqual(irisTlsVolume("iris-a-tls"), VOLUME("iris-a-tls"));
    assert.deepStrictEqual(irisTlsSpec(["superserver", "mirror"], "s"), {
      mirror: VOLUME("s"),
      superserver: VOLUME("s"),
    });
    assert.deepStrictEqual(Object.keys(irisTlsSpec(["ecp", "webgateway", "common", "mirror", "superserver"], "s")), [
      "common",
      "mirror",
      "webgateway",
      "superserver",
      "ecp",
    ]);
    assert.deepStrictEqual(irisTlsSpec([], "s"), {});
  });

  it("withIrisTls adds spec.tls to a manifest without touching the rest or the input", () => {
    const ic: IrisCluster = {
      apiVersion: "intersystems.com/v1alpha1",
      kind: "IrisCluster",
      metadata: { name: "a", namespace: "default" },
      spec: { topology: { data: { image: "i" } }, tls: { ecp: { secret: { secretName: "own" } } } },
    };
    const before = JSON.stringify(ic);
    const out = withIrisTls(ic, irisTlsSpec(["mirror"], "a-tls"));
    assert.deepStrictEqual(out, {
      ...ic,
      spec: {
        topology: { data: { image: "i" } },
        tls: { ecp: { secret: { secretName: "own" } }, mirror: VOLUME("a-tls") },
      },
    });
    assert.strictEqual(JSON.stringify(ic), before, "input unchanged");
    const bare: IrisCluster = { ...ic, spec: { topology: { data: { image: "i" } } } };
    assert.deepStrictEqual(withIrisTls(bare, { mirror: VOLUME("x") }), {
      ...bare,
      spec: { topology: { data: { image: "i" } }, tls: { mirror: VOLUME("x") } },
    });
  });
});
