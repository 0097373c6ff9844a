/**
 * The fleet stack (Kamino) against the lab: declarative joins into the lab's real Karmada,
 * a federated IrisCluster and a fleet Secret propagated by the real Karmada controllers.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as YAML from "yaml";
import { Clients, labClients, labKubeconfigPath, maybe, waitFor } from "./kube";
import { PulumiCli } from "./pulumi-cli";
import { LabStack, labFleetClusters, labKarmada } from "./stacks";

const MEMBERS = ["ikoclone", "ikogke"];
const OTHERS = ["ikohome", "ikowork", "ikofett"];
const IRIS = {
  group: "intersystems.com",
  version: "v1alpha1",
  plural: "irisclusters",
  namespace: "default",
  name: "federated-iris",
};
const LICENSE = "IRIS-LICENSE-KEY-lab-0123456789abcdef";
const SHHHH = { password: "s3cr3t-shhhh-value-42" };

type Obj = Record<string, unknown> & {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};

async function irisOn(c: Clients): Promise<Obj | undefined> {
  return maybe(() => c.custom.getNamespacedCustomObject(IRIS) as Promise<Obj>);
}
async function secretOn(c: Clients, name: string) {
  return maybe(() => c.core.readNamespacedSecret({ name, namespace: "default" }));
}
function clusterReady(c: Obj | undefined): boolean {
  const conds = (c?.status?.conditions ?? []) as { type: string; status: string }[];
  return conds.some((x) => x.type === "Ready" && x.status === "True");
}

describe("lab: fleet stack (Karmada joins, federated IrisCluster, fleet Secret)", function () {
  this.timeout(20 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;
  let karmada: Clients;
  const member: Record<string, Clients> = {};
  const secretsSeen: string[] = [LICENSE, SHHHH.password];

  before(async () => {
    cli = new PulumiCli();
    karmada = labClients("karmada");
    for (const m of [...MEMBERS, ...OTHERS]) member[m] = labClients(m);
    stack = new LabStack(cli, "labtest-fleet", "Pulumi.lab-fleet.yaml", {
      "iko-plus:clusters": labFleetClusters(),
      "iko-plus:karmada": labKarmada(),
    });
    await stack.init();
    await cli.ok(["config", "set", "--secret", "--stack", stack.name, "irisLicenseKey", LICENSE]);
    await cli.ok(["config", "set", "--secret", "--stack", stack.name, "shhhhSecretData", JSON.stringify(SHHHH)]);
    for (const name of [...MEMBERS, "karmada"]) {
      const kc = YAML.parse(fs.readFileSync(labKubeconfigPath(name), "utf8"));
      secretsSeen.push(kc.users[0].user["client-key-data"]);
    }
  });
  after(async () => {
    await stack?.remove();
    cli?.dispose();
  });

  it("pulumi up joins every member; each Cluster is Ready in Karmada with its placement fields", async () => {
    await stack.up();
    for (const m of MEMBERS) {
      const c = await waitFor(
        `Cluster ${m} Ready in Karmada`,
        async () => {
          const obj = await maybe(
            () =>
              karmada.custom.getClusterCustomObject({
                group: "cluster.karmada.io",
                version: "v1alpha1",
                plural: "clusters",
                name: m,
              }) as Promise<Obj>,
          );
          return clusterReady(obj) ? obj : undefined;
        },
        120_000,
      );
      assert.strictEqual(c.spec?.syncMode, "Push");
      const uid = (await member[m].core.readNamespace({ name: "kube-system" })).metadata?.uid;
      assert.strictEqual(c.spec?.id, uid, "id is the member's kube-system UID");
    }
    const gke = (await karmada.custom.getClusterCustomObject({
      group: "cluster.karmada.io",
      version: "v1alpha1",
      plural: "clusters",
      name: "ikogke",
    })) as Obj;
    assert.deepStrictEqual(
      [gke.spec?.provider, gke.spec?.region, gke.spec?.zones, gke.metadata?.labels?.role],
      ["gke", "us-central1", ["us-central1-a"], "stretched"],
    );
    for (const m of MEMBERS) {
      const token = await member[m].core.readNamespacedSecret({ name: `karmada-${m}`, namespace: "karmada-cluster" });
      secretsSeen.push(Buffer.from(token.data?.token ?? "", "base64").toString("utf8"));
    }
  });

  it("the IrisCluster reaches exactly its member, with its license Secret; the fleet Secret exactly its own", async () => {
    const clone = await waitFor("federated-iris on ikoclone", () => irisOn(member.ikoclone), 120_000);
    assert.strictEqual(
      (clone.spec?.topology as { data: { image: string } }).data.image,
      "containers.intersystems.com/intersystems/iris-community:2025.1",
    );
    assert.deepStrictEqual(clone.spec?.serviceTemplate, { spec: { type: "LoadBalancer" } });
    assert.strictEqual(clone.spec?.storageClassName, undefined, "no GKE override on ikoclone");
    const license = await waitFor(
      "the license Secret on ikoclone",
      () => secretOn(member.ikoclone, "federated-iris-license"),
      60_000,
    );
    assert.strictEqual(Buffer.from(license.data?.["iris.key"] ?? "", "base64").toString("utf8"), LICENSE);
    await waitFor("shhhh-secret on ikogke", () => secretOn(member.ikogke, "shhhh-secret"), 60_000);
    for (const m of ["ikogke", ...OTHERS])
      assert.strictEqual(await irisOn(member[m]), undefined, `no IrisCluster on ${m}`);
    for (const m of ["ikogke", ...OTHERS])
      assert.strictEqual(await secretOn(member[m], "federated-iris-license"), undefined, `no license Secret on ${m}`);
    for (const m of ["ikoclone", ...OTHERS])
      assert.strictEqual(await secretOn(member[m], "shhhh-secret"), undefined, `no shhhh-secret on ${m}`);
  });

  it("the operator's status on a member is aggregated back, and the interpreter's health turns unhealthy", async () => {
    const writeStatus = async (phase: string) => {
      const obj = (await irisOn(member.ikoclone)) as Obj;
      await member.ikoclone.custom.replaceNamespacedCustomObjectStatus({
        ...IRIS,
        body: { ...obj, status: { phase } },
      });
    };
    const binding = () =>
      maybe(
        () =>
          karmada.custom.getNamespacedCustomObject({
            group: "work.karmada.io",
            version: "v1alpha2",
            plural: "resourcebindings",
            namespace: "default",
            name: "federated-iris-iriscluster",
          }) as Promise<Obj>,
      );
    await writeStatus("Running");
    await waitFor(
      "Running aggregated onto the template",
      async () => {
        const t = (await karmada.custom.getNamespacedCustomObject(IRIS)) as Obj;
        return (
          t.status?.phase === "Running" &&
          JSON.stringify(t.status?.members) === JSON.stringify([{ clusterName: "ikoclone", phase: "Running" }])
        );
      },
      90_000,
    );
    await waitFor(
      "Healthy in the binding",
      async () =>
        ((await binding())?.status?.aggregatedStatus as { health?: string }[] | undefined)?.[0]?.health === "Healthy",
      60_000,
    );
    await writeStatus("Failed");
    await waitFor(
      "Unhealthy in the binding",
      async () =>
        ((await binding())?.status?.aggregatedStatus as { health?: string }[] | undefined)?.[0]?.health === "Unhealthy",
      90_000,
    );
    // The template's status is aggregated from the binding's in a later step of Karmada's controller.
    await waitFor(
      "Failed aggregated onto the template",
      async () => ((await karmada.custom.getNamespacedCustomObject(IRIS)) as Obj).status?.phase === "Failed",
      60_000,
    );
  });

  it("adding a member to the placement shows in preview --diff and propagates on up, with its override", async () => {
    const setPlacement = (names: string[]) =>
      stack.edit((c) => {
        (c["iko-plus:federatedIrisClusters"] as { placement: unknown }[])[0].placement = { clusterNames: names };
      });
    setPlacement(["ikoclone", "ikogke"]);
    const diff = await stack.preview(["--diff"]);
    assert.match(diff.stdout, /PropagationPolicy/);
    assert.match(diff.stdout, /ikogke/);
    assert.match(diff.stdout, /1 to update|update/);
    await stack.up();
    const gkeClone = await waitFor("federated-iris on ikogke", () => irisOn(member.ikogke), 120_000);
    assert.strictEqual(
      gkeClone.spec?.storageClassName,
      "standard-rwo",
      "the OverridePolicy applies on the GKE stand-in",
    );
    assert.strictEqual((await irisOn(member.ikoclone))?.spec?.storageClassName, undefined, "and only there");
    await waitFor("the license Secret on ikogke", () => secretOn(member.ikogke, "federated-iris-license"), 60_000);
    setPlacement(["ikoclone"]);
    await stack.up();
    await waitFor(
      "the clone on ikogke to be removed",
      async () => (await irisOn(member.ikogke)) === undefined,
      120_000,
    );
    assert.ok(await irisOn(member.ikoclone), "ikoclone keeps its clone");
  });

  it("a second up changes nothing; preview --expect-no-changes passes", async () => {
    await stack.up(["--expect-no-changes"]);
    await stack.preview(["--expect-no-changes"]);
  });

  it("pulumi stack export holds no secret in plaintext", async () => {
    const state = await stack.exportState();
    for (const s of secretsSeen.filter(Boolean))
      assert.ok(!state.includes(s), `plaintext secret in state (${s.slice(0, 6)}…)`);
    assert.ok(!state.includes(Buffer.from(LICENSE).toString("base64")));
  });

  it("state: no component records a kubeconfig as its output, and no dynamic provider's code carries comments", async () => {
    type Res = {
      urn: string;
      type: string;
      custom?: boolean;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    };
    const resources = (JSON.parse(await stack.exportState()) as { deployment: { resources: Res[] } }).deployment
      .resources;
    const components = resources.filter((r) => !r.custom && r.type.startsWith("iko-plus:"));
    assert.ok(components.length >= MEMBERS.length, "the cluster components are in state");
    const withKubeconfig = components
      .filter((r) => Object.keys(r.outputs ?? {}).some((k) => /kubeconfig/i.test(k)))
      .map((r) => r.urn);
    assert.deepStrictEqual(withKubeconfig, [], "components whose recorded outputs repeat a kubeconfig");
    const dynamic = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"));
    assert.ok(dynamic.length >= MEMBERS.length, "each member's destroy-time wait is a dynamic resource");
    for (const r of dynamic) {
      const code = String(r.inputs?.__provider ?? "");
      assert.ok(
        code.length > 0 && !/^\s*\/\/ /m.test(code) && !code.includes("/**"),
        `${r.urn}: provider code without comments (${code.length} bytes)`,
      );
    }
  });

  it("pulumi destroy leaves nothing on Karmada or any member", async () => {
    await stack.destroy();
    for (const m of MEMBERS) {
      assert.strictEqual(
        await maybe(() =>
          karmada.custom.getClusterCustomObject({
            group: "cluster.karmada.io",
            version: "v1alpha1",
            plural: "clusters",
            name: m,
          }),
        ),
        undefined,
        `Cluster ${m} gone`,
      );
      assert.strictEqual(
        await maybe(() => karmada.core.readNamespacedSecret({ name: m, namespace: "karmada-cluster" })),
        undefined,
      );
      await waitFor(
        `karmada-cluster namespace gone from ${m}`,
        async () => (await maybe(() => member[m].core.readNamespace({ name: "karmada-cluster" }))) === undefined,
        120_000,
      );
      assert.strictEqual(
        await maybe(() => member[m].crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" })),
        undefined,
        `CRD gone from ${m}`,
      );
      assert.strictEqual(
        await maybe(() => member[m].rbac.readClusterRole({ name: `karmada-controller-manager:karmada-${m}` })),
        undefined,
      );
      assert.strictEqual(await secretOn(member[m], "shhhh-secret"), undefined);
      assert.strictEqual(await secretOn(member[m], "federated-iris-license"), undefined);
    }
    assert.strictEqual(
      await maybe(() => karmada.crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" })),
      undefined,
    );
    for (const [plural, group, version] of [
      ["propagationpolicies", "policy.karmada.io", "v1alpha1"],
      ["overridepolicies", "policy.karmada.io", "v1alpha1"],
    ]) {
      const list = (await karmada.custom.listNamespacedCustomObject({
        group,
        version,
        plural,
        namespace: "default",
      })) as { items: unknown[] };
      assert.deepStrictEqual(list.items, [], `no ${plural} left in Karmada`);
    }
    assert.strictEqual(
      await maybe(() =>
        karmada.custom.getClusterCustomObject({
          group: "config.karmada.io",
          version: "v1alpha1",
          plural: "resourceinterpretercustomizations",
          name: "iriscluster-interpreter",
        }),
      ),
      undefined,
    );
  });
});
