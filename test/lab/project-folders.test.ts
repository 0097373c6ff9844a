/**
 * Lab (real pulumi CLI, real kube-apiservers, kwok nodes; stand-in IKO chart and CRD): the
 * committed lab-wfh stack, whose file lives in a project folder other than the root
 * (testbed/stacks, like examples/fleet and examples/dr), driven only by the npm scripts a user
 * runs: `npm run config` sets keys (work's kubeconfig as a secret, read from stdin), `npm run up` runs
 * the root's program in that folder with the folder's stack file, `npm run stack -- output` shows
 * the outputs, `npm run destroy` removes everything. The committed stack file is byte for byte
 * what it was (no encryptionsalt, no key written into it); what was set lives in the backend's
 * local settings, the secret encrypted.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { Clients, labClients, labKubeconfigPath, maybe, waitFor } from "./kube";
import { PulumiCli, REPO } from "./pulumi-cli";
import { LabStack, committedStackFile } from "./stacks";

const STACK = "lab-wfh";
const NS = "folder-iko";
const IRIS = "iris-from-folder";
const workKubeconfig = () => fs.readFileSync(labKubeconfigPath("ikowork"), "utf8");

describe("lab: the committed lab-wfh stack in testbed/stacks, by npm run config/up/stack/destroy (real pulumi)", function () {
  this.timeout(15 * 60_000);
  let cli: PulumiCli;
  let home: Clients;
  let work: Clients;
  let committed: string;
  let committedHash: string;
  const hash = () => crypto.createHash("sha256").update(fs.readFileSync(committed)).digest("hex");

  /** `npm run <script> -- <args>` (scripts/pulumi.sh) with the test backend, optionally with stdin. */
  const npmRun = (script: "config" | "up" | "stack" | "destroy", args: string[], input?: string) => {
    const res = child.spawnSync("bash", [path.join(REPO, "scripts", "pulumi.sh"), script, ...args], {
      cwd: REPO,
      env: { ...cli.env, STACK },
      encoding: "utf8",
      input,
    });
    assert.strictEqual(
      res.status,
      0,
      `npm run ${script} -- ${args.join(" ")}:\n${res.stdout.slice(-3000)}\n${res.stderr.slice(-3000)}`,
    );
    return res;
  };

  before(() => {
    cli = new PulumiCli();
    home = labClients("ikohome");
    work = labClients("ikowork");
    committed = committedStackFile(`Pulumi.${STACK}.yaml`);
    assert.strictEqual(path.relative(REPO, committed), `testbed/stacks/Pulumi.${STACK}.yaml`);
    committedHash = hash();
  });

  after(async () => {
    if (cli) {
      child.spawnSync("bash", [path.join(REPO, "scripts", "pulumi.sh"), "destroy", "--yes", "--skip-preview"], {
        cwd: REPO,
        env: { ...cli.env, STACK },
      });
      // Through the script: a bare `pulumi stack rm` deletes the committed stack file with the stack.
      child.spawnSync("bash", [path.join(REPO, "scripts", "pulumi.sh"), "stack", "rm", "--yes", "--force"], {
        cwd: REPO,
        env: { ...cli.env, STACK },
      });
    }
    cli?.dispose();
  });

  it("npm run config sets keys, and work's kubeconfig as a secret from stdin; the committed file is not written", () => {
    npmRun("config", ["set", "--path", "iko-plus:home.kubeconfigPath", labKubeconfigPath("ikohome")]);
    // work by its kubeconfig's contents, a secret read from stdin, in place of the file's path.
    npmRun("config", ["rm", "--path", "iko-plus:work.kubeconfigPath"]);
    npmRun("config", ["set", "--secret", "iko-plus:workKubeconfig"], workKubeconfig());
    npmRun("config", ["set", "--path", "iko-plus:iko.namespace", NS]);
    npmRun("config", ["set", "--path", "iko-plus:irisClusters[0].name", IRIS]);
    assert.strictEqual(hash(), committedHash, "the committed stack file is byte for byte as committed");
    const local = path.join(cli.backendDir, "config", `Pulumi.${STACK}.yaml`);
    assert.strictEqual(fs.statSync(local).mode & 0o777, 0o600);
    const settings = YAML.parse(fs.readFileSync(local, "utf8")) as {
      encryptionsalt?: string;
      config: Record<string, unknown>;
    };
    assert.match(settings.encryptionsalt ?? "", /^v1:/, "the new stack's salt is in the local settings");
    assert.deepStrictEqual(Object.keys(settings.config).sort(), [
      "iko-plus:home",
      "iko-plus:iko",
      "iko-plus:irisClusters",
      "iko-plus:work",
      "iko-plus:workKubeconfig",
    ]);
    assert.ok(
      typeof (settings.config["iko-plus:workKubeconfig"] as { secure?: string }).secure === "string",
      "the kubeconfig is stored encrypted",
    );
    const keyData = YAML.parse(workKubeconfig()).users[0].user["client-key-data"] as string;
    assert.ok(!fs.readFileSync(local, "utf8").includes(keyData), "no plaintext credential in the local settings");
    const shown = npmRun("config", ["get", "iko-plus:workKubeconfig"]).stdout.trim();
    assert.strictEqual(shown, workKubeconfig().trim(), "npm run config -- get decrypts it with the stack's salt");
  });

  it("npm run up runs the root's program in testbed/stacks: the operator at home, the IrisCluster at work", async () => {
    npmRun("up", ["--yes", "--skip-preview", "--non-interactive"]);
    assert.ok(!fs.existsSync(path.join(REPO, `Pulumi.${STACK}.yaml`)), "no stack file was made at the root");
    assert.strictEqual(hash(), committedHash, "up did not write the committed stack file");
    const deployments = await home.apps.listNamespacedDeployment({ namespace: NS });
    assert.strictEqual(
      deployments.items.length,
      1,
      "the operator's Deployment, in the namespace set by npm run config",
    );
    const iris = (await work.custom.getNamespacedCustomObject({
      group: "intersystems.com",
      version: "v1alpha1",
      namespace: "default",
      plural: "irisclusters",
      name: IRIS,
    })) as { metadata?: { name?: string } };
    assert.strictEqual(iris.metadata?.name, IRIS);
    const outputs = JSON.parse(npmRun("stack", ["output", "--json"]).stdout) as Record<string, unknown>;
    assert.deepStrictEqual([outputs.homeKubeconfig, outputs.workKubeconfig], ["[secret]", "[secret]"]);
    assert.strictEqual(hash(), committedHash);
  });

  it("npm run destroy runs there too and leaves nothing on either cluster, nor in the committed file", async () => {
    npmRun("destroy", ["--yes", "--skip-preview", "--non-interactive"]);
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
    assert.strictEqual(hash(), committedHash);
    const status = child.execFileSync("git", ["status", "--porcelain", "--", path.dirname(committed)], {
      cwd: REPO,
      encoding: "utf8",
    });
    assert.strictEqual(status, "", "the checkout's stack folder is clean");
  });
});

describe("lab: npm run preview with no pulumi on PATH uses the project's own build (real pulumi)", function () {
  this.timeout(10 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;

  before(async () => {
    cli = new PulumiCli();
    // The dev stack as committed (kind clusters: their dynamic provider needs the pulumi-nodejs
    // plugin, which the project's CLI finds only through its shims), stand-in chart and CRD.
    stack = new LabStack(cli, "labtest-no-cli", "Pulumi.dev.yaml", {
      "iko-plus:iko": {
        chartPath: path.join(REPO, "test/fixtures/iko-chart/iris-operator"),
        crdManifestPath: path.join(REPO, "test/fixtures/crds/irisclusters.intersystems.com.yaml"),
      },
    });
    await stack.init();
  });

  after(async () => {
    await stack?.remove();
    cli?.dispose();
  });

  it("finds the project's CLI and plugins, and downloads nothing", () => {
    // PATH as on a machine without Pulumi: node and the system's tools, nothing of the lab's.
    const bare = [path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(path.delimiter);
    assert.strictEqual(child.spawnSync("bash", ["-c", "command -v pulumi"], { env: { PATH: bare } }).status, 1);
    // Nor the harness's plugin settings: only the backend, the passphrase and the stack.
    const userEnv: NodeJS.ProcessEnv = { ...cli.env, PATH: bare, STACK: stack.name };
    delete userEnv.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
    const res = child.spawnSync("bash", [path.join(REPO, "scripts", "pulumi.sh"), "preview", "--non-interactive"], {
      cwd: REPO,
      env: userEnv,
      encoding: "utf8",
    });
    assert.strictEqual(res.status, 0, `${res.stdout.slice(-3000)}\n${res.stderr.slice(-3000)}`);
    assert.match(res.stdout, /\+ +pulumi-nodejs:dynamic\/kind:Cluster +ikowork-kind +create/);
    assert.doesNotMatch(res.stdout + res.stderr, /could not find latest version|api\.github\.com/);
  });
});
