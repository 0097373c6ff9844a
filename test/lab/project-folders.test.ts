/**
 * Lab (real pulumi CLI, real kube-apiservers, kwok nodes; stand-in IKO chart and CRD): a stack
 * whose file lives in a project folder other than the root (testbed/stacks, like examples/fleet
 * and examples/dr) is run by `npm run up` / `npm run destroy` (scripts/pulumi.sh) in that folder:
 * Pulumi reads the folder's stack file, runs the root's program (main.js, from the root, so the
 * file's relative paths are the root's), and the stack's objects come and go on the clusters.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { Clients, labClients, labKubeconfigPath, maybe, waitFor } from "./kube";
import { PulumiCli, REPO } from "./pulumi-cli";
import { LabStack, committedStackFile } from "./stacks";

const STACK = "labtest-folder-wfh";
const NS = "folder-iko";
const IRIS = "iris-from-folder";

describe("lab: a stack in a project folder of its own (testbed/stacks), run by npm run up (real pulumi)", function () {
  this.timeout(15 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;
  let home: Clients;
  let work: Clients;

  const npmRun = (cmd: "up" | "destroy") =>
    child.spawnSync(
      "bash",
      [path.join(REPO, "scripts", "pulumi.sh"), cmd, "--yes", "--skip-preview", "--non-interactive"],
      {
        cwd: REPO,
        env: { ...cli.env, STACK },
        encoding: "utf8",
      },
    );

  before(async () => {
    cli = new PulumiCli();
    home = labClients("ikohome");
    work = labClients("ikowork");
    const base = YAML.parse(fs.readFileSync(committedStackFile("Pulumi.lab-wfh.yaml"), "utf8")).config;
    stack = new LabStack(
      cli,
      STACK,
      "Pulumi.lab-wfh.yaml",
      {
        "iko-plus:home": { name: "ikohome", kubeconfigPath: labKubeconfigPath("ikohome") },
        "iko-plus:work": { name: "ikowork", kubeconfigPath: labKubeconfigPath("ikowork") },
        "iko-plus:iko": { ...base["iko-plus:iko"], namespace: NS },
        "iko-plus:irisClusters": [{ ...base["iko-plus:irisClusters"][0], name: IRIS }],
      },
      { besideCommitted: true },
    );
    assert.strictEqual(path.relative(REPO, stack.file), `testbed/stacks/Pulumi.${STACK}.yaml`);
    await stack.init();
  });

  after(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.remove();
    cli?.dispose();
  });

  it("npm run up runs in the stack's folder: the operator at home, the IrisCluster at work, state in the backend", async () => {
    const up = npmRun("up");
    assert.strictEqual(up.status, 0, `${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`);
    assert.ok(!fs.existsSync(path.join(REPO, `Pulumi.${STACK}.yaml`)), "no stack file was made at the root");
    const deployments = await home.apps.listNamespacedDeployment({ namespace: NS });
    assert.strictEqual(
      deployments.items.length,
      1,
      "the operator's Deployment, in the namespace the folder's file names",
    );
    const iris = (await work.custom.getNamespacedCustomObject({
      group: "intersystems.com",
      version: "v1alpha1",
      namespace: "default",
      plural: "irisclusters",
      name: IRIS,
    })) as { metadata?: { name?: string } };
    assert.strictEqual(iris.metadata?.name, IRIS);
    const state = JSON.parse(await stack.exportState()) as { deployment: { resources?: { type: string }[] } };
    assert.ok(
      (state.deployment.resources ?? []).some((r) => r.type === "kubernetes:helm.sh/v3:Release"),
      "the release is in the stack's state",
    );
  });

  it("npm run destroy runs there too and leaves nothing on either cluster", async () => {
    const destroy = npmRun("destroy");
    assert.strictEqual(destroy.status, 0, `${destroy.stdout.slice(-3000)}\n${destroy.stderr.slice(-3000)}`);
    await waitFor(
      `namespace ${NS} to be gone from home`,
      async () => (await maybe(() => home.core.readNamespace({ name: NS }))) === undefined,
      120_000,
    );
    const left = await maybe(() =>
      work.custom.getNamespacedCustomObject({
        group: "intersystems.com",
        version: "v1alpha1",
        namespace: "default",
        plural: "irisclusters",
        name: IRIS,
      }),
    );
    assert.strictEqual(left, undefined, "the IrisCluster is gone from work");
  });
});
