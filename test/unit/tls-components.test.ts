/**
 * FleetTls under Pulumi mocks: what it declares on each member, through which provider, in which
 * order, and which values are secret. CertManager is a remote component: under mocks it is one
 * registration with no children, so its arguments and providers are what can be checked.
 */
import * as assert from "assert";
import * as pulumi from "@pulumi/pulumi";
import { Registered, fakeKubeconfig, installMocks, one, resolve, settle, unwrapSecret } from "./mocks";

const registered: Registered[] = installMocks();
import { ExistingCluster } from "../../components/cluster";
import { FleetTls, generateFleetCa, irisTlsSpec } from "../../components/tls";

const since = (n: number) => registered.slice(n);
const urnOf = async (r: pulumi.Resource) => (await resolve(r.urn)).value;
const providerUrn = async (p: pulumi.ProviderResource) => `${await urnOf(p)}::${(await resolve(p.id)).value}`;
const dependsOn = (r: Registered, name: string) => r.dependencies.some((d) => d.endsWith(`::${name}`));
const LABELS = { "app.kubernetes.io/managed-by": "iko-plus", "app.kubernetes.io/part-of": "iko-plus-fleet-tls" };

/** Provider maps of remote components, as the SDK sends them (the shared mocks do not record them). */
const remoteProviders = new Map<string, string[]>();
interface RegisterRequest {
  getType(): string;
  getName(): string;
  getRemote(): boolean;
  getProvidersMap(): { toObject(): [string, string][] };
}

function member(name: string, port: number): ExistingCluster {
  return new ExistingCluster(name, { kubeconfig: fakeKubeconfig(name, `https://127.0.0.1:${port}`) });
}

describe("FleetTls under mocks", () => {
  before(() => {
    const monitor = pulumi.runtime.getMonitor() as unknown as {
      registerResource(req: RegisterRequest, cb: unknown): unknown;
    };
    const original = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req: RegisterRequest, cb: unknown) => {
      if (req.getRemote())
        remoteProviders.set(
          `${req.getType()}::${req.getName()}`,
          req
            .getProvidersMap()
            .toObject()
            .map(([k, v]) => `${k}=${v}`),
        );
      return original(req, cb);
    };
  });

  it("generated CA, cert-manager on each member: namespace, release, CA Secret, ClusterIssuer, Certificate, in order, per member provider", async () => {
    const n = registered.length;
    const a = member("tls-a", 7001);
    const b = member("tls-b", 7002);
    const tls = new FleetTls("fleet-tls", {
      members: [a, b],
      certificates: [
        { name: "iris-m" },
        { name: "iris-n", namespace: "db", secretName: "n-certs", dnsNames: ["n.example.com"] },
      ],
    });
    await settle(
      tls,
      a.provider,
      b.provider,
      ...Object.values(tls.members).flatMap((m) => [m, m.caSecret, m.issuer, ...Object.values(m.certificates)]),
    );
    const mine = since(n);
    // The CA: one dynamic resource for the whole fleet, with the documented defaults.
    const ca = one(mine, "pulumi-nodejs:dynamic/iko-plus-tls:FleetCa", "fleet-tls-ca");
    assert.deepStrictEqual(ca.additionalSecretOutputs, ["keyPem"], "the CA's key is a secret output");
    assert.strictEqual(ca.parent, await urnOf(tls), "the CA is the FleetTls's child");
    for (const m of Object.values(tls.members))
      assert.deepStrictEqual(
        Object.keys(m.certificates),
        ["default/iris-m", "db/iris-n"],
        "certificates by namespace/name",
      );
    assert.deepStrictEqual(
      [ca.inputs.commonName, ca.inputs.organization, ca.inputs.validityDays, ca.inputs.keyBits, ca.inputs.generation],
      ["iko-plus fleet CA", "iko-plus", 3650, 4096, 1],
    );
    assert.ok(
      typeof ca.inputs.__provider === "string" && (ca.inputs.__provider as string).includes("generateFleetCa"),
      "the serialised provider generates the CA",
    );
    assert.strictEqual(mine.filter((r) => r.type.includes("FleetCa")).length, 1, "one CA for every member");
    assert.strictEqual(one(mine, "iko-plus:tls:FleetTls", "fleet-tls").parent, "");
    for (const [m, h] of [
      ["tls-a", a],
      ["tls-b", b],
    ] as const) {
      const prov = await providerUrn(h.provider);
      const group = one(mine, "iko-plus:tls:MemberTls", `fleet-tls-${m}`);
      assert.ok(group.parent.endsWith("::fleet-tls"));
      const ns = one(mine, "kubernetes:core/v1:Namespace", `fleet-tls-${m}-ns`);
      assert.deepStrictEqual([ns.inputs.metadata, ns.provider], [{ name: "cert-manager" }, prov]);
      const cm = one(mine, "kubernetes-cert-manager:index:CertManager", `fleet-tls-${m}-cert-manager`);
      assert.deepStrictEqual(cm.inputs, {
        installCRDs: true,
        helmOptions: { name: "cert-manager", namespace: "cert-manager", version: "v1.19.1", createNamespace: false },
      });
      assert.deepStrictEqual(
        remoteProviders.get(`kubernetes-cert-manager:index:CertManager::fleet-tls-${m}-cert-manager`),
        [`kubernetes=${prov}`],
        "cert-manager goes into this member",
      );
      assert.ok(dependsOn(cm, `fleet-tls-${m}-ns`), "after its namespace");
      assert.ok(cm.parent.endsWith(`::fleet-tls-${m}`));
      const secret = one(mine, "kubernetes:core/v1:Secret", `fleet-tls-${m}-ca`);
      assert.deepStrictEqual(
        [secret.inputs.metadata, secret.inputs.type, secret.provider],
        [{ name: "iko-plus-fleet-ca", namespace: "cert-manager", labels: LABELS }, "kubernetes.io/tls", prov],
      );
      const data = unwrapSecret(secret.inputs.stringData);
      // (Under mocks the dynamic CA has no outputs, so the values are empty; the supplied-CA case checks them.)
      assert.ok(data.secret, "the CA Secret's data is secret input");
      assert.ok(dependsOn(secret, `fleet-tls-${m}-ns`));
      const issuer = one(mine, "kubernetes:cert-manager.io/v1:ClusterIssuer", `fleet-tls-${m}-issuer`);
      assert.deepStrictEqual(
        [issuer.inputs.spec, issuer.provider],
        [{ ca: { secretName: "iko-plus-fleet-ca" } }, prov],
      );
      assert.ok(
        dependsOn(issuer, `fleet-tls-${m}-ca`) && dependsOn(issuer, `fleet-tls-${m}-cert-manager`),
        `the issuer waits for the CA and cert-manager: ${issuer.dependencies.join(" ")}`,
      );
      const certM = one(mine, "kubernetes:cert-manager.io/v1:Certificate", `fleet-tls-${m}-default-iris-m-cert`);
      const specM = certM.inputs.spec as Record<string, unknown>;
      assert.deepStrictEqual(
        [(certM.inputs.metadata as { namespace: string }).namespace, specM.secretName, specM.issuerRef, certM.provider],
        ["default", "iris-m-tls", { name: "iko-plus-fleet-ca", kind: "ClusterIssuer", group: "cert-manager.io" }, prov],
      );
      assert.ok(dependsOn(certM, `fleet-tls-${m}-issuer`) && dependsOn(certM, `fleet-tls-${m}-cert-manager`));
      const certN = one(mine, "kubernetes:cert-manager.io/v1:Certificate", `fleet-tls-${m}-db-iris-n-cert`);
      assert.deepStrictEqual(
        [
          (certN.inputs.spec as { secretName: string }).secretName,
          (certN.inputs.spec as { dnsNames: string[] }).dnsNames,
        ],
        ["n-certs", ["n.example.com"]],
      );
    }
    // The key is secret wherever it goes; the certificate is public.
    assert.ok((await resolve(tls.caCertificate)) !== undefined);
    assert.deepStrictEqual(tls.secretNames, { "default/iris-m": "iris-m-tls", "db/iris-n": "n-certs" });
    assert.deepStrictEqual(
      tls.tlsSpec("iris-n", "db", ["mirror", "superserver"]),
      irisTlsSpec(["mirror", "superserver"], "n-certs"),
    );
    assert.throws(
      () => tls.tlsSpec("other", "default", ["mirror"]),
      /no certificate for IrisCluster default\/other; add it to certificates/,
    );
  });

  it("a supplied CA, cert-manager already there: no release, no namespace; the key is secret, the certificate public and unchanged", async function () {
    this.timeout(60_000);
    const n = registered.length;
    const own = generateFleetCa({ keyBits: 2048 });
    const c = member("tls-c", 7003);
    const tls = new FleetTls("own-tls", {
      members: [c],
      installCertManager: false,
      issuerName: "own-issuer",
      caSecretName: "own-ca",
      namespace: "certs",
      ca: { certificatePem: pulumi.secret(own.certPem), privateKeyPem: own.keyPem },
    });
    const m = tls.members["tls-c"];
    await settle(tls, m, m.caSecret, m.issuer);
    const mine = since(n);
    assert.ok(
      !mine.some(
        (r) =>
          r.type === "kubernetes-cert-manager:index:CertManager" ||
          r.type === "kubernetes:core/v1:Namespace" ||
          r.type.includes("FleetCa"),
      ),
    );
    assert.strictEqual(tls.ca, undefined);
    const secret = one(mine, "kubernetes:core/v1:Secret", "own-tls-tls-c-ca");
    const data = unwrapSecret(secret.inputs.stringData);
    assert.ok(data.secret);
    assert.deepStrictEqual(data.value, { "tls.crt": own.certPem, "tls.key": own.keyPem, "ca.crt": own.certPem });
    assert.deepStrictEqual(secret.inputs.metadata, { name: "own-ca", namespace: "certs", labels: LABELS });
    const issuer = one(mine, "kubernetes:cert-manager.io/v1:ClusterIssuer", "own-tls-tls-c-issuer");
    assert.deepStrictEqual(
      [(issuer.inputs.metadata as { name: string }).name, issuer.inputs.spec],
      ["own-issuer", { ca: { secretName: "own-ca" } }],
    );
    assert.ok(!issuer.dependencies.some((d) => d.includes("cert-manager")), "nothing to wait for but the CA");
    const cert = await resolve(tls.caCertificate);
    assert.deepStrictEqual(
      cert,
      { value: own.certPem, secret: false },
      "the certificate is public even from secret config",
    );
    assert.deepStrictEqual(tls.members["tls-c"].certificates, {});
  });

  it("createNamespace without cert-manager (the lab); no members is an error", async () => {
    const n = registered.length;
    const d = member("tls-d", 7004);
    const tls = new FleetTls("lab-tls", {
      members: [d],
      installCertManager: false,
      createNamespace: true,
      ca: { generate: { keyBits: 2048, commonName: "lab CA" } },
    });
    const m = tls.members["tls-d"];
    await settle(tls, m, m.caSecret);
    const mine = since(n);
    assert.ok(!mine.some((r) => r.type === "kubernetes-cert-manager:index:CertManager"));
    assert.deepStrictEqual(one(mine, "kubernetes:core/v1:Namespace", "lab-tls-tls-d-ns").inputs.metadata, {
      name: "cert-manager",
    });
    assert.deepStrictEqual(
      [
        one(mine, "pulumi-nodejs:dynamic/iko-plus-tls:FleetCa", "lab-tls-ca").inputs.commonName,
        one(mine, "pulumi-nodejs:dynamic/iko-plus-tls:FleetCa", "lab-tls-ca").inputs.keyBits,
      ],
      ["lab CA", 2048],
    );
    assert.throws(() => new FleetTls("empty", { members: [] }), {
      message: 'FleetTls "empty": members: [] is empty; list the clusters that issue certificates, e.g. [ikoclone]',
    });
  });
});

describe("fleet stack with fleetTls under mocks", () => {
  it("FleetTls on the listed members, a Certificate per tls IrisCluster, the template carrying spec.tls and waiting for the certificates", async () => {
    const pathMod = await import("path");
    const { validateConfig, fleetStack } = await import("../../stacks");
    const CRD = pathMod.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
    const IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";
    const NAMES = ["tlsm1", "tlsm2", "tlsm3"];
    const cfg = validateConfig(
      {
        program: "fleet",
        clusters: NAMES.map((name) => ({ name, kubeconfigSecret: `${name}Kubeconfig`, iko: false, join: true })),
        ...Object.fromEntries(
          NAMES.map((name, i) => [`${name}Kubeconfig`, fakeKubeconfig(name, `https://127.0.0.1:${7101 + i}`)]),
        ),
        karmada: {
          mode: "existing",
          kubeconfigPath: pathMod.resolve(__dirname, "../fixtures/karmada-standin-kubeconfig.yaml"),
        },
        iko: { chartPath: pathMod.resolve(__dirname, "../fixtures/iko-chart/iris-operator"), crdManifestPath: CRD },
        fleetTls: {
          members: ["tlsm1", "tlsm2"],
          installCertManager: false,
          createNamespace: true,
          components: ["mirror", "superserver"],
          ca: { keyBits: 2048 },
        },
        federatedIrisClusters: [
          {
            name: "mirror-a",
            image: IMAGE,
            mirrored: true,
            tls: true,
            placement: { clusterNames: ["tlsm1", "tlsm2"] },
          },
          { name: "plain-b", image: IMAGE, placement: { clusterNames: ["tlsm3"] } },
        ],
      },
      NAMES.map((name) => `iko-plus:${name}Kubeconfig`),
    );
    if (cfg.program !== "fleet") throw new Error("fleet");
    const n = registered.length;
    const secrets = Object.fromEntries(
      NAMES.map((name, i) => [
        `${name}Kubeconfig`,
        pulumi.secret(fakeKubeconfig(name, `https://127.0.0.1:${7101 + i}`)),
      ]),
    );
    const out = fleetStack(cfg, { secrets, secretObjects: {} });
    await new Promise((r) => setTimeout(r, 1500));
    const mine = since(n);
    assert.strictEqual(mine.filter((r) => r.type.includes("FleetCa")).length, 1);
    assert.deepStrictEqual(
      mine
        .filter((r) => r.type === "kubernetes:cert-manager.io/v1:ClusterIssuer")
        .map((r) => r.name)
        .sort(),
      ["fleet-tls-tlsm1-issuer", "fleet-tls-tlsm2-issuer"],
      "only on fleetTls members",
    );
    assert.deepStrictEqual(
      mine
        .filter((r) => r.type === "kubernetes:cert-manager.io/v1:Certificate")
        .map((r) => r.name)
        .sort(),
      ["fleet-tls-tlsm1-default-mirror-a-cert", "fleet-tls-tlsm2-default-mirror-a-cert"],
    );
    assert.ok(
      one(mine, "kubernetes:core/v1:Secret", "fleet-tls-tlsm1-ca").provider.includes("::tlsm1-k8s::"),
      "the CA goes to the member through its own provider",
    );
    assert.ok(
      !mine.some(
        (r) =>
          r.type === "kubernetes:core/v1:Secret" &&
          r.provider.includes("karmada") &&
          JSON.stringify(r.inputs).includes("tls.key"),
      ),
      "never into Karmada",
    );
    const template = one(mine, "kubernetes:intersystems.com/v1alpha1:IrisCluster", "default-mirror-a-template");
    assert.deepStrictEqual(
      (template.inputs.spec as Record<string, unknown>).tls,
      irisTlsSpec(["mirror", "superserver"], "mirror-a-tls"),
    );
    for (const c of [
      "fleet-tls-tlsm1-default-mirror-a-cert",
      "fleet-tls-tlsm2-default-mirror-a-cert",
      "fleet-tls-tlsm1-issuer",
    ]) {
      assert.ok(dependsOn(template, c), `the template waits for ${c}`);
    }
    const plain = one(mine, "kubernetes:intersystems.com/v1alpha1:IrisCluster", "default-plain-b-template");
    assert.strictEqual((plain.inputs.spec as Record<string, unknown>).tls, undefined);
    assert.ok(
      !plain.dependencies.some((d) => d.includes("fleet-tls")),
      "an IrisCluster without tls does not wait for it",
    );
    const tlsOut = out.fleetTls;
    assert.deepStrictEqual(
      [tlsOut?.issuer, tlsOut?.members, tlsOut?.certificates],
      ["iko-plus-fleet-ca", ["tlsm1", "tlsm2"], { "default/mirror-a": "mirror-a-tls" }],
    );
    assert.strictEqual(
      await pulumi.isSecret(tlsOut?.caCertificate as pulumi.Output<string>),
      false,
      "the CA certificate output is public",
    );
  });
});
