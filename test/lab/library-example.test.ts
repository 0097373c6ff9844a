/**
 * A user's own Pulumi program built from the packed package (examples/library-wfh, installed in a
 * temporary folder from `npm pack`), run by the real pulumi CLI against the lab's home and work
 * clusters (real kube-apiservers, kwok nodes), with the stand-in IKO chart and CRD: the library's
 * compiled JavaScript alone (no ts-node, no TypeScript sources) installs the operator at home,
 * wired to work through its Helm post-renderer, and puts an IrisCluster at work.
 */
import * as assert from "assert";
import * as path from "path";
import { InstalledExample, installExample, removeExample } from "../library/example";
import { Clients, labClients, labKubeconfigPath, maybe, waitFor } from "./kube";
import { PulumiCli, REPO } from "./pulumi-cli";

const STACK = "labtest-library";
const NS = "lib-iko";
const DEPLOYMENT = "iko-iris-operator-amd";

describe("lab: a user's own program from the packed package (examples/library-wfh), real pulumi", function () {
  this.timeout(15 * 60_000);
  let cli: PulumiCli;
  let example: InstalledExample | undefined;
  let home: Clients;
  let work: Clients;
  let stackMade = false;
  const inExample = () => ({ cwd: (example as InstalledExample).dir });

  before(async () => {
    example = installExample("library-wfh");
    cli = new PulumiCli();
    home = labClients("ikohome");
    work = labClients("ikowork");
    await cli.ok(["stack", "init", STACK, "--secrets-provider", "passphrase"], inExample());
    stackMade = true;
    const config: Record<string, string> = {
      homeName: "ikohome",
      homeKubeconfigPath: labKubeconfigPath("ikohome"),
      workName: "ikowork",
      workKubeconfigPath: labKubeconfigPath("ikowork"),
      ikoChartPath: path.join(REPO, "test/fixtures/iko-chart/iris-operator"),
      crdManifestPath: path.join(REPO, "test/fixtures/crds/irisclusters.intersystems.com.yaml"),
      ikoNamespace: NS,
    };
    for (const [key, value] of Object.entries(config))
      await cli.ok(["config", "set", "--stack", STACK, key, value], inExample());
  });

  after(async () => {
    if (stackMade) {
      await cli.run(["destroy", "--yes", "--skip-preview", "--stack", STACK], inExample());
      await cli.run(["stack", "rm", "--yes", "--force", "--stack", STACK], inExample());
    }
    cli?.dispose();
    if (example) removeExample(example);
  });

  it("up installs the operator at home, reconciling at work through the mounted kubeconfig, and the IrisCluster at work", async () => {
    await cli.ok(["up", "--yes", "--skip-preview", "--stack", STACK], inExample());
    const deployment = await home.apps.readNamespacedDeployment({ name: DEPLOYMENT, namespace: NS });
    const spec = deployment.spec?.template.spec;
    const volume = spec?.volumes?.find((v) => v.secret?.secretName === "work-kubeconfig");
    assert.ok(volume, "the operator pod mounts the work kubeconfig Secret (the post-renderer ran)");
    const operator = spec?.containers.find((c) => c.name === "operator");
    const mount = operator?.volumeMounts?.find((m) => m.name === volume.name);
    assert.deepStrictEqual([mount?.mountPath, mount?.readOnly], ["/airgap/.kube", true]);
    assert.ok(operator?.args?.includes("--kubeconfig=/airgap/.kube/config"), `args: ${operator?.args}`);
    const crd = await work.crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" });
    assert.strictEqual(crd.metadata?.name, "irisclusters.intersystems.com");
    const iris = (await work.custom.getNamespacedCustomObject({
      group: "intersystems.com",
      version: "v1alpha1",
      namespace: "default",
      plural: "irisclusters",
      name: "iris-at-work",
    })) as { spec?: { topology?: { data?: { image?: string } } } };
    assert.strictEqual(
      iris.spec?.topology?.data?.image,
      "containers.intersystems.com/intersystems/iris-community:2025.1",
    );
    const outputs = await cli.ok(["stack", "output", "--json", "--stack", STACK], inExample());
    const shown = JSON.parse(outputs.stdout) as Record<string, unknown>;
    assert.deepStrictEqual([shown.operatorNamespace, shown.operatorDeployment], [NS, DEPLOYMENT]);
    assert.deepStrictEqual([shown.homeKubeconfig, shown.workKubeconfig], ["[secret]", "[secret]"]);
  });

  it("destroy removes what the program made from both clusters", async () => {
    await cli.ok(["destroy", "--yes", "--skip-preview", "--stack", STACK], inExample());
    await waitFor(
      `namespace ${NS} to be gone from home`,
      async () => (await maybe(() => home.core.readNamespace({ name: NS }))) === undefined,
      120_000,
    );
    assert.strictEqual(
      await maybe(() => work.crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" })),
      undefined,
    );
    await waitFor(
      "namespace iko-remote to be gone from work",
      async () => (await maybe(() => work.core.readNamespace({ name: "iko-remote" }))) === undefined,
      120_000,
    );
  });
});
