/**
 * Lab (real pulumi CLI, real kube-apiservers): `up` of a stack whose chart comes from a chart
 * repository that does not answer fails before anything is created, naming the config key that
 * points at a local chart instead (stacks/chart-check.ts); `preview` does not fetch charts and
 * is not held up.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as YAML from "yaml";
import { labKubeconfigPath } from "./kube";
import { PulumiCli } from "./pulumi-cli";
import { LabStack, committedStackFile } from "./stacks";

describe("lab: up with a chart repository that does not answer fails first, naming the key (real pulumi)", function () {
  this.timeout(10 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;
  const repo = "http://127.0.0.1:1/charts";

  before(async () => {
    cli = new PulumiCli();
    const base = YAML.parse(fs.readFileSync(committedStackFile("Pulumi.lab-wfh.yaml"), "utf8")).config;
    // The committed IKO settings without their local chart.
    const iko = { ...(base["iko-plus:iko"] as Record<string, unknown>) };
    delete iko.chartPath;
    stack = new LabStack(cli, "labtest-chart-repo", "Pulumi.lab-wfh.yaml", {
      "iko-plus:home": { name: "ikohome", kubeconfigPath: labKubeconfigPath("ikohome") },
      "iko-plus:work": { name: "ikowork", kubeconfigPath: labKubeconfigPath("ikowork") },
      "iko-plus:iko": { ...iko, chartRepo: repo, chartVersion: "3.8.42" },
    });
    await stack.init();
  });

  after(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.remove();
    cli?.dispose();
  });

  it("up fails with one message naming iko.chartPath, the repository and the error, and creates nothing", async () => {
    const res = await cli.run(["up", "--yes", "--skip-preview", "--stack", stack.name]);
    assert.notStrictEqual(res.code, 0);
    assert.match(
      res.stdout + res.stderr,
      /iko-plus:iko\.chartPath: not set, so up fetches the IKO chart \(iko\.chartRepo\) from http:\/\/127\.0\.0\.1:1\/charts, which does not answer \(ECONNREFUSED\); set iko-plus:iko\.chartPath to a local copy of the chart/,
    );
    const state = JSON.parse(await stack.exportState()) as { deployment: { resources?: { type: string }[] } };
    assert.deepStrictEqual(
      (state.deployment.resources ?? []).map((r) => r.type).filter((t) => t !== "pulumi:pulumi:Stack"),
      [],
      "nothing was created",
    );
  });
});
