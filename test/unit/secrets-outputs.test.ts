/**
 * Edges under Pulumi mocks (test/unit/mocks.ts): a component given a secret of the list as a plain
 * string by a library caller makes it secret itself (its outputs and every resource input holding
 * it), and every stack output of the list is secret, even when the kubeconfigs came in plain. Fed
 * by the one list of secrets (components/names/secrets.ts).
 */
import * as assert from "assert";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Registered, installMocks, resolve, settle, stackOutputs, unwrapSecret } from "./mocks";

const registered: Registered[] = installMocks();
import { SecretEntry, secretsAt } from "../../components/names/secrets";
import { ClusterMesh } from "../../components/cilium";
import { ExistingCluster } from "../../components/cluster";
import { FederatedIrisCluster, FleetSecret, KarmadaControlPlane } from "../../components/karmada";
import { irisClusterManifest } from "../../components/iris";
import { KindCluster } from "../../components/kind";
import { FleetTls } from "../../components/tls";
import { fleetStack, regionStack, validateConfig, wfhStack } from "../../stacks";
import { kubeconfigWith, sampleOf, sentinelOf } from "./secret-sentinels";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const IMAGE = "containers.intersystems.com/intersystems/iris:2025.1";

/** Where a value shows the sentinel in plain text: paths outside any secret wrapper. */
function plainAt(v: unknown, s: string, at = ""): string[] {
  if (unwrapSecret(v).secret) return [];
  if (typeof v === "string") return v.includes(s) ? [at || "(value)"] : [];
  if (Array.isArray(v)) return v.flatMap((x, i) => plainAt(x, s, `${at}[${i}]`));
  if (v !== null && typeof v === "object")
    return Object.entries(v).flatMap(([k, x]) => plainAt(x, s, at ? `${at}.${k}` : k));
  return [];
}

/** The component's own outputs that hold the sentinel and are not secret. */
async function plainOutputs(c: object, s: string): Promise<string[]> {
  const out: string[] = [];
  for (const [k, v] of Object.entries(c)) {
    if (!pulumi.Output.isInstance(v) || k === "urn") continue;
    const r = await resolve(v as pulumi.Output<unknown>);
    if (!r.secret && JSON.stringify(r.value ?? null).includes(s)) out.push(k);
  }
  return out;
}

/**
 * How a library caller builds each component of the list with its secret arg as a plain value:
 * returns the component(s) to settle and check. A new `component arg` entry needs a line here.
 */
const BUILDERS: Record<string, (name: string, v: unknown) => Promise<pulumi.ComponentResource[]>> = {
  "ExistingCluster.kubeconfig": async (name, v) => [new ExistingCluster(name, { kubeconfig: v as string })],
  "KarmadaControlPlane.existing.kubeconfig": async (name, v) => [
    new KarmadaControlPlane(name, { existing: { kubeconfig: v as string } }),
  ],
  "FederatedIrisCluster.licenseKey": async (name, v) => [
    new FederatedIrisCluster(name, {
      karmada: await karmada(),
      irisCluster: irisClusterManifest({ name, namespace: "default", image: IMAGE, licenseKeySecret: `${name}-key` }),
      placement: { clusterNames: ["ikoclone"] },
      licenseKey: v as string,
    }),
  ],
  "FleetSecret.data": async (name, v) => [
    new FleetSecret(name, {
      karmada: await karmada(),
      name,
      data: v as Record<string, string>,
      placement: { clusterNames: ["ikoclone"] },
    }),
  ],
  "FleetTls.ca.privateKeyPem": async (name, v) => [
    new FleetTls(name, {
      members: [new KindCluster(`${name}-m`, {})],
      installCertManager: false,
      ca: {
        certificatePem: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
        privateKeyPem: v as string,
      },
    }),
  ],
  "ClusterMesh.ca.privateKeyPem": async (name, v) => {
    const a = new KindCluster(`${name}-a`, {});
    const b = new KindCluster(`${name}-b`, {});
    return [
      new ClusterMesh(name, {
        members: [
          { cluster: a, clusterId: 21, podSubnet: "10.247.0.0/16", address: `${name}-a-control-plane` },
          { cluster: b, clusterId: 22, podSubnet: "10.248.0.0/16", address: `${name}-b-control-plane` },
        ],
        ca: {
          certificatePem: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
          privateKeyPem: v as string,
        },
      }),
    ];
  },
};

let karmadaCp: KarmadaControlPlane | undefined;
async function karmada(): Promise<KarmadaControlPlane> {
  if (!karmadaCp) {
    karmadaCp = new KarmadaControlPlane("secrets-karmada", {
      existing: { kubeconfig: kubeconfigWith("plain-karmada", "https://10.3.0.1:5443") },
    });
    await settle(karmadaCp);
  }
  return karmadaCp;
}

describe("unit (mocks): a component given a secret of the list in plain text makes it secret itself", () => {
  for (const e of secretsAt("component arg")) {
    it(`unit (mocks): ${e.path}: its outputs and every resource input holding it are secret`, async () => {
      const build = BUILDERS[e.path];
      assert.ok(build, `no builder for ${e.path}: add one to BUILDERS`);
      const s = sentinelOf(e);
      const name = `sec-${e.path.split(".")[0].toLowerCase()}`;
      const n = registered.length;
      const made = await build(name, sampleOf(e));
      await settle(...made);
      await new Promise((r) => setTimeout(r, 300));
      const mine = registered.slice(n);
      const holding = mine.filter((r) => JSON.stringify(r.inputs).includes(s));
      assert.ok(holding.length > 0, "some resource gets the value (else this proves nothing)");
      const plain = mine.flatMap((r) => plainAt(r.inputs, s).map((p) => `${r.type} ${r.name}: ${p}`));
      assert.deepStrictEqual(plain, []);
      for (const c of made) assert.deepStrictEqual(await plainOutputs(c, s), [], c.constructor.name);
    });
  }
});

/** Runs each program under mocks, its secret kubeconfigs given as plain outputs (not secret). */
async function programOutputs(program: string, e: SecretEntry): Promise<Record<string, unknown>> {
  const kc = kubeconfigWith(sentinelOf(e), "https://10.4.0.1:6443");
  if (program === "wfh") {
    const cfg = validateConfig(
      {
        home: { name: "sec-home", source: "kubeconfig" },
        work: { name: "sec-work", source: "kubeconfig" },
        homeKubeconfig: kc,
        workKubeconfig: kc,
        iko: { chartPath: CHART, crdManifestPath: CRD, credentials: "admin" },
      },
      ["iko-plus:homeKubeconfig", "iko-plus:workKubeconfig"],
    );
    if (cfg.program !== "wfh") throw new Error(cfg.program);
    return { ...wfhStack(cfg, { secrets: { homeKubeconfig: pulumi.output(kc), workKubeconfig: pulumi.output(kc) } }) };
  }
  if (program === "fleet") {
    const cfg = validateConfig(
      {
        program: "fleet",
        clusters: [{ name: "sec-fett", kubeconfigSecret: "fettKc", iko: false, join: true }],
        fettKc: kc,
        karmada: { mode: "existing", kubeconfigSecret: "karmadaKc" },
        karmadaKc: kc,
      },
      ["iko-plus:fettKc", "iko-plus:karmadaKc"],
    );
    if (cfg.program !== "fleet") throw new Error(cfg.program);
    return {
      ...fleetStack(cfg, {
        secrets: { fettKc: pulumi.output(kc), karmadaKc: pulumi.output(kc) },
        secretObjects: {},
      }),
    };
  }
  stackOutputs.set("sec-fleet", { outputs: { karmadaKubeconfig: kc }, secretOutputNames: [] });
  const cfg = validateConfig(
    {
      program: "region",
      fleetStack: "sec-fleet",
      region: "us-east1",
      member: { name: "sec-member", kubeconfigSecret: "memberKc" },
      memberKc: kc,
      iko: { chartPath: CHART, crdManifestPath: CRD },
    },
    ["iko-plus:memberKc"],
    "sec-region",
  );
  if (cfg.program !== "region") throw new Error(cfg.program);
  return { ...regionStack(cfg, { secrets: { memberKc: pulumi.output(kc) } }) };
}

describe("unit (mocks): stack outputs of the list are secret, even from kubeconfigs given in plain", () => {
  for (const e of secretsAt("output")) {
    const [program, output] = e.path.split(".");
    it(`unit (mocks): ${program} output ${output} is secret, and no other output shows it`, async () => {
      const outs = await programOutputs(program, e);
      assert.ok(pulumi.Output.isInstance(outs[output]), `${program} exports ${output}`);
      const r = await resolve(outs[output] as pulumi.Output<unknown>);
      assert.strictEqual(r.secret, true, `${output} is secret`);
      assert.ok(JSON.stringify(r.value).includes(sentinelOf(e)) || output === "operatorTargetKubeconfig");
      const plain: string[] = [];
      for (const [k, v] of Object.entries(outs)) {
        const value = pulumi.Output.isInstance(v)
          ? await resolve(v as pulumi.Output<unknown>)
          : { value: v, secret: false };
        if (!value.secret && JSON.stringify(value.value ?? null).includes(sentinelOf(e))) plain.push(k);
      }
      assert.deepStrictEqual(plain, []);
    });
  }
});
