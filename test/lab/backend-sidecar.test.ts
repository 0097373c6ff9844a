/**
 * The file backend's `.attrs` sidecar (preview/backend.ts): with the real Pulumi CLI, an empty
 * sidecar (what a `pulumi up` killed while the backend rewrote it leaves) makes every later command
 * fail with `failed to load checkpoint: EOF`; our backend URL writes no sidecar, and
 * `scripts/pulumi.sh` removes an empty one left by an older run. No cluster is needed.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { fileBackendUrl } from "../../preview/backend";
import { PulumiCli, REPO, labBinDir } from "./pulumi-cli";

/** Every file under `dir` whose name ends with `.attrs`. */
function sidecars(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".attrs")) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

describe("lab (real Pulumi CLI, no cluster): the file backend's checkpoint sidecar", function () {
  this.timeout(180_000);
  const clis: PulumiCli[] = [];
  const tmps: string[] = [];
  const newCli = (url?: (dir: string) => string) => {
    const cli = new PulumiCli();
    if (url) cli.env.PULUMI_BACKEND_URL = url(cli.backendDir);
    clis.push(cli);
    return cli;
  };
  after(() => {
    for (const c of clis) c.dispose();
    for (const t of tmps) fs.rmSync(t, { recursive: true, force: true });
    // `stack init` wrote the stack's file (its encryption salt) beside the root's Pulumi.yaml.
    fs.rmSync(path.join(REPO, "Pulumi.labtest-sidecar.yaml"), { force: true });
  });

  it("(control) with gocloud's default, each checkpoint gets a sidecar, and an empty one breaks every command with 'failed to load checkpoint: EOF'", async () => {
    const cli = newCli((dir) => `file://${dir}`);
    await cli.ok(["stack", "init", "labtest-sidecar", "--secrets-provider", "passphrase"]);
    await cli.ok(["stack", "export", "--stack", "labtest-sidecar"]);
    const found = sidecars(path.join(cli.backendDir, ".pulumi", "stacks")).filter((f) =>
      f.endsWith("labtest-sidecar.json.attrs"),
    );
    assert.strictEqual(found.length, 1, "the checkpoint has its sidecar");
    fs.writeFileSync(found[0], "");
    const res = await cli.run(["stack", "export", "--stack", "labtest-sidecar"]);
    assert.notStrictEqual(res.code, 0);
    assert.match(res.stderr, /failed to load checkpoint: EOF/);
  });

  it("our backend URL (metadata=skip) writes no sidecar, so a kill cannot leave one empty", async () => {
    const cli = newCli(fileBackendUrl);
    assert.strictEqual(
      cli.env.PULUMI_BACKEND_URL,
      `file://${cli.backendDir}?metadata=skip`,
      "the lab tests use it too",
    );
    await cli.ok(["stack", "init", "labtest-sidecar", "--secrets-provider", "passphrase"]);
    const exported = await cli.ok(["stack", "export", "--stack", "labtest-sidecar"]);
    assert.match(exported.stdout, /"deployment"/);
    assert.deepStrictEqual(sidecars(cli.backendDir), []);
  });

  it("scripts/pulumi.sh uses that URL for .state and removes an empty sidecar an older run left, saying so", () => {
    // A throw-away project laid out like ours, so the script's .state is not the repo's.
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-sidecar-"));
    tmps.push(project);
    fs.mkdirSync(path.join(project, "scripts"));
    for (const f of ["pulumi.sh", "stack-files.ts", "stack-config.ts"])
      fs.copyFileSync(path.join(REPO, "scripts", f), path.join(project, "scripts", f));
    fs.copyFileSync(path.join(REPO, "tsconfig.json"), path.join(project, "tsconfig.json"));
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(project, "node_modules"), "dir");
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: sidecar-test\nruntime: nodejs\n");
    const env = {
      ...process.env,
      PATH: `${labBinDir()}${path.delimiter}${process.env.PATH}`,
      PULUMI_HOME: path.join(project, ".pulumi-home"),
      PULUMI_CONFIG_PASSPHRASE: "x",
      PULUMI_BACKEND_URL: "",
      STACK: "sidecar",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      NO_COLOR: "1",
    };
    const run = () =>
      child.spawnSync("bash", [path.join(project, "scripts", "pulumi.sh"), "refresh", "--yes", "--non-interactive"], {
        cwd: project,
        env,
        encoding: "utf8",
      });
    const first = run();
    assert.strictEqual(first.status, 0, first.stderr);
    const stacks = path.join(project, ".state", ".pulumi", "stacks");
    assert.deepStrictEqual(sidecars(stacks), [], "no sidecar written");
    const checkpoint = path.join(stacks, "sidecar-test", "sidecar.json");
    assert.ok(fs.existsSync(checkpoint), "the stack's checkpoint is in .state");
    fs.writeFileSync(`${checkpoint}.attrs`, "");
    const second = run();
    assert.strictEqual(second.status, 0, second.stderr);
    assert.match(
      second.stderr,
      /pulumi\.sh: removed an empty checkpoint sidecar \(left by a killed run\): \.state\/\.pulumi\/stacks\/sidecar-test\/sidecar\.json\.attrs/,
    );
    assert.deepStrictEqual(sidecars(stacks), []);
  });
});
