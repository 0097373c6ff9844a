/**
 * Fleet TLS against the lab: the fleet stack with `fleetTls` (installCertManager: false, the lab
 * cannot run cert-manager) on two joined members, with stand-in cert-manager CRDs
 * (test/fixtures/cert-manager-crds). Checks what exists without a running cert-manager: one CA in
 * every member's cert-manager namespace, the ClusterIssuer and Certificate as declared, spec.tls
 * on the IrisCluster template in Karmada and on its clones, the CA key nowhere but the members
 * (not in Karmada, not in plaintext in state), CA rotation, and a clean destroy.
 */
import * as assert from "assert";
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import * as k8s from "@kubernetes/client-node";
import * as YAML from "yaml";
import { Clients, labClients, labKubeconfigPath, labKubectl, maybe, waitFor } from "./kube";
import { PulumiCli, REPO } from "./pulumi-cli";
import { LabStack, labFleetClusters, labKarmada } from "./stacks";
import { certificateManifest, irisTlsSpec } from "../../components/tls";

const MEMBERS = ["ikoclone", "ikogke"];
const OUTSIDER = "ikowork";
const IRIS = {
  group: "intersystems.com",
  version: "v1alpha1",
  plural: "irisclusters",
  namespace: "default",
  name: "mirror-iris",
};
const CM = { group: "cert-manager.io", version: "v1" };
const CRD_DIR = path.join(REPO, "test/fixtures/cert-manager-crds");
const COMPONENTS = ["mirror", "superserver"] as const;

type Obj = Record<string, unknown> & { spec?: Record<string, unknown> };

function decode(s: k8s.V1Secret | undefined, key: string): string {
  return Buffer.from(s?.data?.[key] ?? "", "base64").toString("utf8");
}

async function caSecret(c: Clients): Promise<k8s.V1Secret | undefined> {
  return maybe(() => c.core.readNamespacedSecret({ name: "iko-plus-fleet-ca", namespace: "cert-manager" }));
}

describe("lab: fleet TLS (one CA on every member, issuer, certificates, spec.tls)", function () {
  this.timeout(20 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;
  let karmada: Clients;
  const member: Record<string, Clients> = {};
  const crds = fs
    .readdirSync(CRD_DIR)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => YAML.parse(fs.readFileSync(path.join(CRD_DIR, f), "utf8")) as k8s.V1CustomResourceDefinition);
  const keysSeen: string[] = [];

  function removeCrds(): void {
    for (const m of MEMBERS)
      labKubectl(m, ["delete", "-f", CRD_DIR, "--ignore-not-found", "--wait=true", "--timeout=60s"]);
  }

  before(async () => {
    cli = new PulumiCli();
    karmada = labClients("karmada");
    for (const m of [...MEMBERS, OUTSIDER]) member[m] = labClients(m);
    // The stand-in CRDs on the TLS members only (cert-manager would install the real ones),
    // fresh: a leftover from an earlier run is removed first.
    removeCrds();
    for (const m of MEMBERS) {
      labKubectl(m, ["apply", "-f", CRD_DIR]);
      for (const crd of crds) {
        await waitFor(
          `${crd.metadata?.name} established on ${m}`,
          async () => {
            const c = await member[m].crds.readCustomResourceDefinition({ name: crd.metadata?.name as string });
            return (c.status?.conditions ?? []).some((x) => x.type === "Established" && x.status === "True");
          },
          30_000,
        );
      }
    }
    const clusters = labFleetClusters().map((c) => ({ ...c, iko: false }));
    stack = new LabStack(cli, "labtest-fleet-tls", "Pulumi.lab-fleet.yaml", {
      "iko-plus:clusters": [...clusters, { name: OUTSIDER, kubeconfigPath: labKubeconfigPath(OUTSIDER), iko: false }],
      "iko-plus:karmada": labKarmada(),
      "iko-plus:fleetSecrets": [],
      "iko-plus:federatedIrisClusters": [
        {
          name: IRIS.name,
          image: "containers.intersystems.com/intersystems/iris-community:2025.1",
          mirrored: true,
          tls: true,
          placement: { clusterNames: MEMBERS },
        },
      ],
      "iko-plus:fleetTls": {
        members: MEMBERS,
        installCertManager: false,
        createNamespace: true,
        components: [...COMPONENTS],
        ca: { commonName: "iko-plus lab fleet CA", keyBits: 2048 },
      },
    });
    assert.deepStrictEqual(
      MEMBERS,
      clusters.map((c) => c.name),
      "the lab fleet stack's members",
    );
    await stack.init();
  });

  after(async () => {
    await stack?.remove();
    cli?.dispose();
    removeCrds();
  });

  it("pulumi up puts one CA (the stack's output) into cert-manager's namespace on each member, and nowhere else", async () => {
    await stack.up();
    const out = JSON.parse((await cli.ok(["stack", "output", "fleetTls", "--json", "--stack", stack.name])).stdout) as {
      caCertificate: string;
      issuer: string;
      members: string[];
      certificates: Record<string, string>;
    };
    assert.deepStrictEqual(
      [out.issuer, out.members, out.certificates],
      ["iko-plus-fleet-ca", MEMBERS, { "default/mirror-iris": "mirror-iris-tls" }],
    );
    const cas: string[] = [];
    for (const m of MEMBERS) {
      const s = await caSecret(member[m]);
      assert.ok(s, `CA Secret on ${m}`);
      assert.strictEqual(s.type, "kubernetes.io/tls");
      assert.deepStrictEqual(Object.keys(s.data ?? {}).sort(), ["ca.crt", "tls.crt", "tls.key"]);
      assert.strictEqual(decode(s, "tls.crt"), decode(s, "ca.crt"));
      const x = new crypto.X509Certificate(decode(s, "ca.crt"));
      assert.ok(x.ca, "a CA certificate");
      assert.strictEqual(x.subject, "CN=iko-plus lab fleet CA\nO=iko-plus");
      assert.ok(x.checkPrivateKey(crypto.createPrivateKey(decode(s, "tls.key"))), "tls.key is the CA's key");
      cas.push(decode(s, "ca.crt"));
      keysSeen.push(decode(s, "tls.key"));
    }
    assert.strictEqual(cas[0], cas[1], "the same CA on every member");
    assert.strictEqual(cas[0], out.caCertificate, "the one the stack outputs");
    assert.strictEqual(
      await maybe(() => member[OUTSIDER].core.readNamespace({ name: "cert-manager" })),
      undefined,
      `nothing on ${OUTSIDER}, which is not a fleetTls member`,
    );
    const karmadaSecrets = await karmada.core.listSecretForAllNamespaces();
    const key = keysSeen[0];
    assert.ok(
      !karmadaSecrets.items.some((s) =>
        Object.values(s.data ?? {}).some((v) => Buffer.from(v, "base64").toString("utf8") === key),
      ),
      "the CA key is not in the Karmada API",
    );
  });

  it("each member has the ClusterIssuer of kind ca and the IrisCluster's Certificate, exactly as declared", async () => {
    const expected = certificateManifest({
      irisName: IRIS.name,
      namespace: "default",
      issuerName: "iko-plus-fleet-ca",
    });
    for (const m of MEMBERS) {
      const issuer = (await member[m].custom.getClusterCustomObject({
        ...CM,
        plural: "clusterissuers",
        name: "iko-plus-fleet-ca",
      })) as Obj;
      assert.deepStrictEqual(issuer.spec, { ca: { secretName: "iko-plus-fleet-ca" } });
      const cert = (await member[m].custom.getNamespacedCustomObject({
        ...CM,
        plural: "certificates",
        namespace: "default",
        name: "mirror-iris-tls",
      })) as Obj;
      assert.deepStrictEqual(cert.spec, expected.spec);
      assert.strictEqual(cert.spec?.secretName, "mirror-iris-tls");
    }
  });

  it("the IrisCluster template in Karmada carries spec.tls, and so do its clones on both members", async () => {
    const want = irisTlsSpec(COMPONENTS, "mirror-iris-tls");
    const template = (await karmada.custom.getNamespacedCustomObject(IRIS)) as Obj;
    assert.deepStrictEqual(template.spec?.tls, want);
    for (const m of MEMBERS) {
      const clone = await waitFor(
        `${IRIS.name} on ${m}`,
        () => maybe(() => member[m].custom.getNamespacedCustomObject(IRIS) as Promise<Obj>),
        120_000,
      );
      assert.deepStrictEqual(clone.spec?.tls, want, `spec.tls on the clone in ${m}`);
    }
  });

  it("a second up changes nothing (the CA is not regenerated)", async () => {
    await stack.up(["--expect-no-changes"]);
  });

  it("pulumi stack export holds no plaintext CA key; the generated key is a secret output in state", async () => {
    const state = await stack.exportState();
    assert.strictEqual(keysSeen.length, MEMBERS.length, "the CA key was read from every member");
    for (const key of keysSeen) {
      const body = key.split("\n").filter((l) => l.length > 0 && !l.startsWith("-----"));
      assert.ok(body.length > 10);
      for (const line of body)
        assert.ok(!state.includes(line), `a line of the CA key body is in plaintext in state (${line.slice(0, 8)}…)`);
      assert.ok(!state.includes(Buffer.from(key).toString("base64").slice(0, 60)), "nor its base64");
    }
    const deployment = JSON.parse(state).deployment as {
      resources: { type: string; outputs?: Record<string, unknown> }[];
    };
    const ca = deployment.resources.filter((r) => r.type === "pulumi-nodejs:dynamic/iko-plus-tls:FleetCa");
    assert.strictEqual(ca.length, 1);
    const keyPem = ca[0].outputs?.keyPem as Record<string, unknown>;
    assert.strictEqual(
      keyPem["4dabf18193072939515e22adb298388d"],
      "1b47061264138c4ac30d75fd1eb44270",
      "keyPem is stored as a secret",
    );
    assert.ok(typeof keyPem.ciphertext === "string");
    assert.ok(String(ca[0].outputs?.certPem).startsWith("-----BEGIN CERTIFICATE-----"), "the certificate is public");
  });

  it("raising ca.generation rotates the CA on every member at once", async () => {
    const before = decode(await caSecret(member[MEMBERS[0]]), "ca.crt");
    stack.edit((c) => {
      (c["iko-plus:fleetTls"] as { ca: Record<string, unknown> }).ca.generation = 2;
    });
    await stack.up();
    const after = await Promise.all(MEMBERS.map(async (m) => decode(await caSecret(member[m]), "ca.crt")));
    assert.notStrictEqual(after[0], before, "a new CA");
    assert.strictEqual(after[0], after[1], "still one CA for the fleet");
    for (const m of MEMBERS) keysSeen.push(decode(await caSecret(member[m]), "tls.key"));
    const state = await stack.exportState();
    for (const key of keysSeen) assert.ok(!state.includes(key.split("\n")[1]), "neither key in plaintext in state");
  });

  it("pulumi destroy removes the CA, issuer, certificates, namespace and the template", async () => {
    await stack.destroy();
    for (const m of MEMBERS) {
      await waitFor(
        `cert-manager namespace gone from ${m}`,
        async () => (await maybe(() => member[m].core.readNamespace({ name: "cert-manager" }))) === undefined,
        120_000,
      );
      assert.strictEqual(
        await maybe(() =>
          member[m].custom.getClusterCustomObject({ ...CM, plural: "clusterissuers", name: "iko-plus-fleet-ca" }),
        ),
        undefined,
        `ClusterIssuer gone from ${m}`,
      );
      assert.strictEqual(
        await maybe(() =>
          member[m].custom.getNamespacedCustomObject({
            ...CM,
            plural: "certificates",
            namespace: "default",
            name: "mirror-iris-tls",
          }),
        ),
        undefined,
        `Certificate gone from ${m}`,
      );
      assert.strictEqual(await caSecret(member[m]), undefined);
    }
    assert.strictEqual(await maybe(() => karmada.custom.getNamespacedCustomObject(IRIS)), undefined, "template gone");
  });
});
