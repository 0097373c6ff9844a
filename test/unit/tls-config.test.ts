/**
 * Fleet TLS config: `fleetTls` and each federated IrisCluster's `tls`, accepted with their
 * defaults, and every invalid case with its exact one-line message (never showing a key).
 */
import * as assert from "assert";
import * as path from "path";
import { ConfigError, validateConfig } from "../../stacks";
import { FleetConfig } from "../../stacks/config";
import { fleetTlsSecretKeys } from "../../stacks/config/tls";
import { generateFleetCa } from "../../components/tls";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";
const P = "iko-plus:";

function base(fleetTls: unknown, iris: Record<string, unknown> = { tls: true }): Record<string, unknown> {
  return {
    program: "fleet",
    clusters: [
      { name: "ikofett", cilium: { clusterId: 1 } },
      { name: "ikoclone", cilium: { clusterId: 2 }, join: true },
      { name: "ikogke", cilium: { clusterId: 3 }, join: true },
    ],
    karmada: { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443" },
    iko: { chartPath: CHART, crdManifestPath: CRD },
    federatedIrisClusters: [
      { name: "mirror-a", image: IMAGE, mirrored: true, placement: { clusterNames: ["ikoclone", "ikogke"] }, ...iris },
    ],
    ...(fleetTls === undefined ? {} : { fleetTls }),
  };
}

function fleet(raw: Record<string, unknown>, secretKeys: string[] = []): FleetConfig {
  const cfg = validateConfig(raw, secretKeys);
  if (cfg.program !== "fleet") throw new Error("not a fleet config");
  return cfg;
}

function problemsOf(raw: Record<string, unknown>, secretKeys: string[] = []): string[] {
  try {
    validateConfig(raw, secretKeys);
    return [];
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return (e as ConfigError).problems;
  }
}

describe("fleet TLS config", () => {
  let ca: ReturnType<typeof generateFleetCa>;
  let other: ReturnType<typeof generateFleetCa>;
  before(function () {
    this.timeout(60_000);
    ca = generateFleetCa({ keyBits: 2048 });
    other = generateFleetCa({ keyBits: 2048 });
  });

  it("fleetTls: {} means every joined member, mirror only, a generated CA, cert-manager v1.19.1 installed in its own namespace", () => {
    const cfg = fleet(base({}));
    assert.deepStrictEqual(cfg.fleetTls, {
      members: ["ikoclone", "ikogke"],
      components: ["mirror"],
      ca: {
        source: "generate",
        options: {
          commonName: "iko-plus fleet CA",
          organization: "iko-plus",
          validityDays: 3650,
          keyBits: 4096,
          generation: 1,
        },
      },
      installCertManager: true,
      certManagerVersion: "v1.19.1",
      namespace: "cert-manager",
      createNamespace: true,
      issuerName: "iko-plus-fleet-ca",
      caSecretName: "iko-plus-fleet-ca",
    });
    assert.deepStrictEqual(cfg.federatedIrisClusters[0].tls, ["mirror"]);
    assert.deepStrictEqual(fleetTlsSecretKeys(cfg.fleetTls), []);
  });

  it("every option; tls lists its own components; no tls means none; no fleetTls means undefined", () => {
    const cfg = fleet(
      base(
        {
          members: ["ikoclone", "ikogke", "ikofett"],
          components: ["mirror", "superserver"],
          installCertManager: false,
          createNamespace: true,
          namespace: "certs",
          issuerName: "fleet.issuer",
          caSecretName: "fleet-ca",
          ca: { commonName: "Acme IRIS CA", organization: "Acme", validityDays: 365, keyBits: 2048, generation: 2 },
        },
        { tls: ["ecp", "common"] },
      ),
    );
    const t = cfg.fleetTls;
    assert.deepStrictEqual(
      [
        t?.members,
        t?.components,
        t?.installCertManager,
        t?.createNamespace,
        t?.namespace,
        t?.issuerName,
        t?.caSecretName,
      ],
      [["ikoclone", "ikogke", "ikofett"], ["mirror", "superserver"], false, true, "certs", "fleet.issuer", "fleet-ca"],
    );
    assert.deepStrictEqual(t?.ca, {
      source: "generate",
      options: { commonName: "Acme IRIS CA", organization: "Acme", validityDays: 365, keyBits: 2048, generation: 2 },
    });
    assert.deepStrictEqual(cfg.federatedIrisClusters[0].tls, ["ecp", "common"]);
    assert.strictEqual(
      fleet(base({ installCertManager: false })).fleetTls?.createNamespace,
      false,
      "createNamespace follows installCertManager",
    );
    assert.strictEqual(fleet(base({}, { tls: false })).federatedIrisClusters[0].tls, undefined);
    assert.strictEqual(fleet(base({}, {})).federatedIrisClusters[0].tls, undefined);
    assert.strictEqual(fleet(base(undefined, {})).fleetTls, undefined);
  });

  it("a supplied CA: certificate and secret key named by config keys, checked, and read as secrets", () => {
    const raw = {
      ...base({ ca: { certificateConfig: "fleetCaCert", keyConfig: "fleetCaKey" } }),
      fleetCaCert: ca.certPem,
      fleetCaKey: ca.keyPem,
    };
    const cfg = fleet(raw, [`${P}fleetCaKey`]);
    assert.deepStrictEqual(cfg.fleetTls?.ca, {
      source: "config",
      certificateConfig: "fleetCaCert",
      keyConfig: "fleetCaKey",
    });
    assert.deepStrictEqual(fleetTlsSecretKeys(cfg.fleetTls), ["fleetCaCert", "fleetCaKey"]);
  });

  const cases: [string, unknown, Record<string, unknown> | undefined, string[]][] = [
    [
      "not an object",
      "yes",
      undefined,
      [
        `${P}fleetTls: "yes" is not an object; set it with \`pulumi config set --path\` or as a YAML mapping in the stack file`,
      ],
    ],
    [
      "an unknown key",
      { issuer: "x" },
      undefined,
      [
        `${P}fleetTls.issuer: "x" is not a known key; use one of: members, components, ca, installCertManager, certManagerVersion, namespace, createNamespace, issuerName, caSecretName`,
      ],
    ],
    [
      "members not a list",
      { members: "ikoclone" },
      undefined,
      [`${P}fleetTls.members: "ikoclone" must be a list of this stack's cluster names, e.g. [ikoclone, ikogke]`],
    ],
    [
      "a member that is not a cluster",
      { members: ["ikoclone", "ikogke", "nope"] },
      undefined,
      [`${P}fleetTls.members: "nope" is not one of this stack's clusters (ikofett, ikoclone, ikogke)`],
    ],
    [
      "a member twice",
      { members: ["ikoclone", "ikogke", "ikoclone"] },
      undefined,
      [`${P}fleetTls.members: "ikoclone" is listed twice; list each cluster once`],
    ],
    [
      "no members",
      { members: [] },
      { tls: false },
      [`${P}fleetTls.members: [] is empty; list the clusters that issue certificates, e.g. [ikoclone]`],
    ],
    [
      "an unknown component",
      { components: ["mirror", "jdbc"] },
      undefined,
      [
        `${P}fleetTls.components: "jdbc" is not an IRIS TLS component; use some of: common, mirror, webgateway, superserver, ecp`,
      ],
    ],
    [
      "empty components",
      { components: [] },
      undefined,
      [
        `${P}fleetTls.components: [] must be a non-empty list of IRIS components from: common, mirror, webgateway, superserver, ecp, e.g. [mirror]`,
      ],
    ],
    [
      "a component twice",
      { components: ["mirror", "mirror"] },
      undefined,
      [`${P}fleetTls.components: "mirror" is listed twice; list each component once`],
    ],
    [
      "installCertManager not a boolean",
      { installCertManager: "maybe" },
      undefined,
      [`${P}fleetTls.installCertManager: "maybe" must be true or false`],
    ],
    [
      "an unpinned chart version",
      { certManagerVersion: "latest" },
      undefined,
      [
        `${P}fleetTls.certManagerVersion: "latest" must be a pinned chart version such as v1.19.1 (no range, no "latest")`,
      ],
    ],
    [
      "a chart version range",
      { certManagerVersion: "^1.19" },
      undefined,
      [
        `${P}fleetTls.certManagerVersion: "^1.19" must be a pinned chart version such as v1.19.1 (no range, no "latest")`,
      ],
    ],
    [
      "a chart version with nothing to install",
      { certManagerVersion: "v1.18.2", installCertManager: false },
      undefined,
      [
        `${P}fleetTls.certManagerVersion: "v1.18.2" is set but installCertManager is false, so nothing installs it; remove it or set installCertManager: true`,
      ],
    ],
    [
      "a bad namespace",
      { namespace: "Cert_Manager" },
      undefined,
      [
        `${P}fleetTls.namespace: "Cert_Manager" is not a DNS-1123 label; use lowercase letters, digits and '-', starting and ending with a letter or digit`,
      ],
    ],
    [
      "a bad issuer name",
      { issuerName: "Fleet CA" },
      undefined,
      [
        `${P}fleetTls.issuerName: "Fleet CA" is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit`,
      ],
    ],
    [
      "a bad CA Secret name",
      { caSecretName: "-ca" },
      undefined,
      [
        `${P}fleetTls.caSecretName: "-ca" is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit`,
      ],
    ],
    [
      "createNamespace not a boolean",
      { createNamespace: 1 },
      undefined,
      [`${P}fleetTls.createNamespace: 1 must be true or false`],
    ],
    [
      "an unknown CA key",
      { ca: { cn: "x" } },
      undefined,
      [
        `${P}fleetTls.ca.cn: "x" is not a known key; use one of: commonName, organization, validityDays, keyBits, generation, certificateConfig, keyConfig`,
      ],
    ],
    [
      "an unsupported key size",
      { ca: { keyBits: 1024 } },
      undefined,
      [`${P}fleetTls.ca.keyBits: 1024 is not a supported RSA key size; use one of: 2048, 3072, 4096`],
    ],
    [
      "a validity of zero days",
      { ca: { validityDays: 0 } },
      undefined,
      [`${P}fleetTls.ca.validityDays: 0 must be a whole number from 1 to 36500 (days the CA is valid)`],
    ],
    [
      "generation zero",
      { ca: { generation: 0 } },
      undefined,
      [`${P}fleetTls.ca.generation: 0 must be a whole number from 1 to 1000000 (raise it by one to generate a new CA)`],
    ],
    [
      "a common name over 64",
      { ca: { commonName: "x".repeat(65) } },
      undefined,
      [`${P}fleetTls.ca.commonName: "${"x".repeat(65)}" is 65 characters; an X.509 common name has at most 64`],
    ],
    [
      "tls without fleetTls",
      undefined,
      { tls: true },
      [
        `${P}federatedIrisClusters[0].tls: true needs ${P}fleetTls, which is not set; set it (e.g. \`pulumi config set --path fleetTls.installCertManager true\`) to issue certificates from a fleet CA`,
      ],
    ],
    [
      "tls of another type",
      {},
      { tls: "mirror" },
      [
        `${P}federatedIrisClusters[0].tls: "mirror" must be true, false or a list of IRIS components from: common, mirror, webgateway, superserver, ecp`,
      ],
    ],
    [
      "tls with an unknown component",
      {},
      { tls: ["mirror", "http"] },
      [
        `${P}federatedIrisClusters[0].tls: "http" is not an IRIS TLS component; use some of: common, mirror, webgateway, superserver, ecp`,
      ],
    ],
    [
      "tls and a hand-written spec.tls",
      {},
      { tls: true, spec: { tls: { mirror: { secret: { secretName: "own" } } } } },
      [
        `${P}federatedIrisClusters[0].spec.tls: {"mirror":{"secret":{"secretName":"own"}}} is set together with federatedIrisClusters[0].tls; remove one (tls fills spec.tls from the fleet CA's certificate)`,
      ],
    ],
    [
      "placed on a member without the CA",
      { members: ["ikoclone"] },
      { tls: true },
      [
        `${P}federatedIrisClusters[0].placement: "ikogke" is not a fleetTls member, so it holds no certificate for this IrisCluster; add it to fleetTls.members (ikoclone)`,
      ],
    ],
    [
      "failover group on a member without the CA",
      { members: ["ikoclone"] },
      {
        tls: true,
        placement: {
          affinities: [
            { name: "primary", clusterNames: ["ikoclone"] },
            { name: "dr", clusterNames: ["ikogke"] },
          ],
        },
      },
      [
        `${P}federatedIrisClusters[0].placement: "ikogke" is not a fleetTls member, so it holds no certificate for this IrisCluster; add it to fleetTls.members (ikoclone)`,
      ],
    ],
  ];
  for (const [what, fleetTls, iris, expected] of cases) {
    it(`rejects ${what}`, () => assert.deepStrictEqual(problemsOf(base(fleetTls, iris)), expected));
  }

  it("rejects a supplied CA that is incomplete, mixed with generation options, missing, not secret, not a CA, or with a key that does not match; never shows the key", () => {
    const supplied = (ca: unknown, extra: Record<string, unknown>) => ({ ...base({ ca }), ...extra });
    assert.deepStrictEqual(problemsOf(supplied({ keyConfig: "k" }, { k: ca.keyPem }), [`${P}k`]), [
      `${P}fleetTls.ca.certificateConfig: (not set) is required with keyConfig; name the config key holding the CA certificate (PEM)`,
    ]);
    assert.deepStrictEqual(problemsOf(supplied({ certificateConfig: "c", commonName: "x" }, { c: ca.certPem })), [
      `${P}fleetTls.ca.commonName: "x" only applies to a generated CA; remove it, or remove certificateConfig and keyConfig to generate the CA`,
      `${P}fleetTls.ca.keyConfig: (not set) is required with certificateConfig; name the secret config key holding the CA private key (PEM)`,
    ]);
    assert.deepStrictEqual(problemsOf(supplied({ certificateConfig: "c", keyConfig: "k" }, {})), [
      `${P}fleetTls.ca.certificateConfig: "c" names config key ${P}c, which is not set; set it with \`pulumi config set c -- "$(cat ca-certificate.pem)"\``,
      `${P}fleetTls.ca.keyConfig: "k" names config key ${P}k, which is not set; set it with \`pulumi config set --secret k -- "$(cat ca-key.pem)"\``,
    ]);
    const plainKey = problemsOf(supplied({ certificateConfig: "c", keyConfig: "k" }, { c: ca.certPem, k: ca.keyPem }));
    assert.deepStrictEqual(plainKey, [
      `${P}fleetTls.ca.keyConfig: "k" names config key ${P}k, which is not a secret; set it again with \`pulumi config set --secret k -- "$(cat ca-key.pem)"\``,
    ]);
    assert.deepStrictEqual(
      problemsOf(supplied({ certificateConfig: "c", keyConfig: "k" }, { c: { pem: 1 }, k: ca.keyPem }), [`${P}k`]),
      [
        `${P}c: {"pem":1} must be PEM text (the ca-certificate); set it with \`pulumi config set c -- "$(cat ca-certificate.pem)"\``,
      ],
    );
    assert.deepStrictEqual(
      problemsOf(supplied({ certificateConfig: "c", keyConfig: "k" }, { c: "garbage", k: ca.keyPem }), [`${P}k`]),
      [
        `${P}fleetTls.ca.certificateConfig: "c" names a certificate that is not a PEM certificate; give the CA certificate, -----BEGIN CERTIFICATE----- ...`,
      ],
    );
    const mismatch = problemsOf(
      supplied({ certificateConfig: "c", keyConfig: "k" }, { c: ca.certPem, k: other.keyPem }),
      [`${P}k`],
    );
    assert.deepStrictEqual(mismatch, [
      `${P}fleetTls.ca.keyConfig: "k" names a key that does not match the CA certificate's public key; give the key the certificate was issued for`,
    ]);
    assert.deepStrictEqual(
      problemsOf(supplied({ certificateConfig: "c", keyConfig: "k" }, { c: ca.certPem, k: "junk" }), [`${P}k`]),
      [
        `${P}fleetTls.ca.keyConfig: "k" names a key that is not a PEM private key (unencrypted PKCS#1, PKCS#8 or SEC1); give the CA's private key`,
      ],
    );
    const body = other.keyPem.split("\n")[2];
    for (const p of [...plainKey, ...mismatch]) assert.ok(!p.includes(body), "no key material in messages");
  });
});
