/**
 * Lab (real pulumi CLI, real kube-apiservers, kwok nodes; stand-in IKO chart and CRD): `npm run
 * status` of a wfh stack after `up`. The lab has no operator that reconciles (kwok runs no
 * container), so the test writes the IrisCluster's status as an operator would, through the
 * status subresource: no status, then Running with Ready=True, then Failed. Then work's
 * kube-apiserver stops. The view says what runs where, its exit code follows health, and no
 * credential appears in what it prints.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { parseComponent, startComponent, stopComponent } from "../../testbed/lab/src/control";
import { Clients, labClients, labDir, labKubeconfigPath, maybe, waitFor } from "./kube";
import { PulumiCli, REPO } from "./pulumi-cli";
import { LabStack, labFleetClusters, labKarmada } from "./stacks";
import type { KarmadaReport, StatusReport } from "../../scripts/status/report";

const STACK = "labtest-status";
const IRIS = {
  group: "intersystems.com",
  version: "v1alpha1",
  namespace: "default",
  plural: "irisclusters",
  name: "iris-at-work",
};

/** What `npm run status -- --json` prints (scripts/status/report.ts renderJson). */
type StatusJson = StatusReport & { healthy: boolean; problems: string[] };

describe("lab: npm run status of a wfh stack: what runs where, healthy and not (real pulumi)", function () {
  this.timeout(15 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;
  let work: Clients;
  let stopped = false;
  const credentials: string[] = [];

  const status = (json: boolean) => {
    const res = child.spawnSync(
      "bash",
      [path.join(REPO, "scripts", "pulumi.sh"), "status", ...(json ? ["--json"] : [])],
      {
        cwd: REPO,
        env: { ...cli.env, STACK },
        encoding: "utf8",
      },
    );
    for (const c of credentials) assert.ok(!(res.stdout + res.stderr).includes(c), "the view prints no credential");
    return res;
  };
  const statusJson = () => {
    const res = status(true);
    return { code: res.status, report: JSON.parse(res.stdout) as StatusJson, stderr: res.stderr };
  };
  const writeIrisStatus = async (s: Record<string, unknown>) => {
    const obj = (await work.custom.getNamespacedCustomObject(IRIS)) as Record<string, unknown>;
    await work.custom.replaceNamespacedCustomObjectStatus({ ...IRIS, body: { ...obj, status: s } });
  };

  before(async () => {
    cli = new PulumiCli();
    work = labClients("ikowork");
    for (const name of ["ikohome", "ikowork"]) {
      const user = YAML.parse(fs.readFileSync(labKubeconfigPath(name), "utf8")).users[0].user;
      credentials.push(
        user["client-key-data"],
        Buffer.from(user["client-key-data"], "base64").toString("utf8").split("\n")[1],
      );
    }
    stack = new LabStack(cli, STACK, "Pulumi.lab-wfh.yaml", {
      "iko-plus:home": { name: "ikohome", kubeconfigPath: labKubeconfigPath("ikohome") },
      "iko-plus:work": { name: "ikowork", kubeconfigPath: labKubeconfigPath("ikowork") },
    });
    await stack.init();
    await stack.up();
  });

  after(async () => {
    if (stopped) await startComponent(labDir(), "ikowork", "kube-apiserver");
    await stack?.destroy().catch(() => undefined);
    await stack?.remove();
    cli?.dispose();
  });

  it("after up: both clusters, their nodes, the operator at home reconciling work, and the IrisCluster with no status yet (unhealthy)", () => {
    const { code, report } = statusJson();
    assert.strictEqual(code, 1, "no operator has reconciled the IrisCluster: not healthy");
    assert.strictEqual(report.program, "wfh");
    assert.deepStrictEqual(
      report.clusters.map((c) => [c.name, c.reachable, c.nodes.length > 0 && c.nodes.every((n) => n.ready)]),
      [
        ["home", true, true],
        ["work", true, true],
      ],
    );
    const home = report.clusters[0];
    assert.deepStrictEqual(
      home.operators.map((o) => [o.namespace, o.name, o.ready, o.desired]),
      [["iko", "iko-iris-operator-amd", 1, 1]],
    );
    assert.deepStrictEqual(
      { ...report.operator, server: undefined },
      { cluster: "home", namespace: "iko", deployment: "iko-iris-operator-amd", reconciles: "work", server: undefined },
    );
    assert.strictEqual(report.operator?.server, report.clusters[1].server, "the lab's peer kubeconfig is the host's");
    assert.deepStrictEqual(report.clusters[1].irisClusters, [{ namespace: "default", name: "iris-at-work" }]);
    assert.deepStrictEqual(report.problems, [
      "cluster work: IrisCluster default/iris-at-work: no status yet (no operator has reconciled it)",
    ]);
  });

  it("the IrisCluster Running with Ready=True: healthy, exit 0; the text view says so", async () => {
    await writeIrisStatus({ phase: "Running", conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }] });
    const { code, report } = statusJson();
    assert.strictEqual(code, 0, JSON.stringify(report.problems));
    assert.strictEqual(report.healthy, true);
    const text = status(false);
    assert.strictEqual(text.status, 0);
    assert.match(
      text.stdout,
      /^ {2}operator {2}iko\/iko-iris-operator-amd 1\/1 ready, reconciles work \(https:\/\/127\.0\.0\.1:\d+\)$/m,
    );
    assert.match(text.stdout, /^ {2}iris {6}default\/iris-at-work: Running$/m);
    assert.match(text.stdout, /\nhealthy\n$/);
  });

  it("the IrisCluster Failed: unhealthy, naming it and its condition", async () => {
    await writeIrisStatus({
      phase: "Failed",
      conditions: [{ type: "Ready", status: "False", reason: "ImagePullBackOff" }],
    });
    const { code, report } = statusJson();
    assert.strictEqual(code, 1);
    assert.deepStrictEqual(report.problems, [
      "cluster work: IrisCluster default/iris-at-work: Failed, Ready=False (ImagePullBackOff)",
    ]);
  });

  it("work's kube-apiserver stopped: work is not reachable, named with its address, within the read deadline", async () => {
    await writeIrisStatus({ phase: "Running", conditions: [{ type: "Ready", status: "True" }] });
    const { owner, component } = parseComponent("ikowork/kube-apiserver");
    await stopComponent(labDir(), owner, component, 1000);
    stopped = true;
    const t0 = Date.now();
    const { code, report } = statusJson();
    const took = Date.now() - t0;
    assert.strictEqual(code, 1);
    const workServer = report.clusters[1].server;
    assert.strictEqual(report.problems.length, 1, JSON.stringify(report.problems));
    assert.ok(report.problems[0].startsWith(`cluster work: not reachable at ${workServer} (`), report.problems[0]);
    assert.ok(took < 60_000, `took ${took} ms`);
    await startComponent(labDir(), owner, component);
    stopped = false;
  });
});

describe("lab: npm run status of a fleet stack: members, what Karmada propagates, the aggregated status (real Karmada)", function () {
  this.timeout(15 * 60_000);
  const LICENSE = "LAB-STATUS-LICENSE-KEY";
  const PASSWORD = "lab-status-password";
  let cli: PulumiCli;
  let stack: LabStack;
  let clone: Clients;

  type FleetJson = StatusJson & { karmada: KarmadaReport };
  const status = () => {
    const res = child.spawnSync("bash", [path.join(REPO, "scripts", "pulumi.sh"), "status", "--json"], {
      cwd: REPO,
      env: { ...cli.env, STACK: stack.name },
      encoding: "utf8",
    });
    for (const secret of [LICENSE, PASSWORD])
      assert.ok(!(res.stdout + res.stderr).includes(secret), "no secret printed");
    return { code: res.status, report: JSON.parse(res.stdout) as FleetJson };
  };

  before(async () => {
    cli = new PulumiCli();
    clone = labClients("ikoclone");
    stack = new LabStack(cli, "labtest-status-fleet", "Pulumi.lab-fleet.yaml", {
      "iko-plus:clusters": labFleetClusters(),
      "iko-plus:karmada": labKarmada(),
    });
    await stack.init();
    await cli.ok(["config", "set", "--secret", "--stack", stack.name, "irisLicenseKey", LICENSE]);
    await cli.ok([
      "config",
      "set",
      "--secret",
      "--stack",
      stack.name,
      "shhhhSecretData",
      JSON.stringify({ password: PASSWORD }),
    ]);
    await stack.up();
  });

  after(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.remove();
    cli?.dispose();
  });

  it("each member with its mode, Ready and what it receives; the federated IrisCluster scheduled to ikoclone, no status yet (unhealthy)", async () => {
    const { code, report } = await waitFor(
      "both members Ready and the IrisCluster propagated",
      async () => {
        const s = status();
        const m = s.report.karmada?.members ?? [];
        const done =
          m.length === 2 &&
          m.every((x) => x.ready === "True") &&
          m[0].propagated.includes("IrisCluster default/federated-iris") &&
          m[1].propagated.includes("Secret default/shhhh-secret");
        return done ? s : undefined;
      },
      120_000,
    );
    assert.strictEqual(code, 1);
    assert.strictEqual(report.karmada.reachable, true);
    assert.deepStrictEqual(
      report.karmada.members.map((m) => [m.name, m.syncMode, m.ready]),
      [
        ["ikoclone", "Push", "True"],
        ["ikogke", "Push", "True"],
      ],
    );
    const [ikoclone, ikogke] = report.karmada.members;
    for (const o of ["IrisCluster default/federated-iris", "Secret default/federated-iris-license"])
      assert.ok(ikoclone.propagated.includes(o), `ikoclone receives ${o}: ${ikoclone.propagated.join(", ")}`);
    assert.ok(ikogke.propagated.includes("Secret default/shhhh-secret"), ikogke.propagated.join(", "));
    assert.ok(!ikogke.propagated.includes("IrisCluster default/federated-iris"), "placed on ikoclone only");
    assert.deepStrictEqual(
      report.karmada.federated.map((f) => [f.name, f.scheduledTo]),
      [["federated-iris", ["ikoclone"]]],
    );
    // Karmada's aggregation (the interpreter's statusAggregation) turns a member with no status into
    // phase Unknown, and its health interpreter calls it unhealthy.
    assert.deepStrictEqual(report.problems, [
      "cluster ikoclone: IrisCluster default/federated-iris: no status yet (no operator has reconciled it)",
      "federated IrisCluster default/federated-iris: Unknown",
      "federated IrisCluster default/federated-iris on ikoclone: health Unhealthy",
    ]);
  });

  it("the member's IrisCluster Running (as its operator would write it): Karmada aggregates it and the fleet is healthy", async () => {
    const iris = {
      group: "intersystems.com",
      version: "v1alpha1",
      namespace: "default",
      plural: "irisclusters",
      name: "federated-iris",
    };
    const obj = await waitFor(
      "the IrisCluster on ikoclone",
      () => maybe(() => clone.custom.getNamespacedCustomObject(iris) as Promise<Record<string, unknown>>),
      120_000,
    );
    await clone.custom.replaceNamespacedCustomObjectStatus({
      ...iris,
      body: { ...obj, status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] } },
    });
    const { report } = await waitFor(
      "the fleet healthy",
      async () => {
        const s = status();
        return s.code === 0 ? s : undefined;
      },
      120_000,
    );
    assert.deepStrictEqual(report.problems, []);
    assert.deepStrictEqual(report.karmada.federated[0].status?.members, [
      { clusterName: "ikoclone", phase: "Running" },
    ]);
  });
});
