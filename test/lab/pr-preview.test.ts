/**
 * The PR preview command (preview/run.ts) end to end: a throw-away git repository holding this
 * project's committed files, two commits that differ in one placement (ikogke added to the fleet
 * IrisCluster's clusterNames) and one value (its serviceType), and `preview:pr --base <first>`
 * run in it. The command starts its own fresh lab, deploys the base, previews the second commit,
 * and must name exactly those two changes, and tear everything down. Only lab-fleet is compared:
 * the command's lab runs beside the shared one during `npm test`, and every cluster costs memory
 * and inotify instances (128 per user by default); lab-wfh adds two more clusters and ~80 s.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { stackFilePath } from "../../scripts/stack-files";
import { REPO } from "./pulumi-cli";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

function runCommand(cwd: string, args: string[]): Promise<Run> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const p = child.spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", path.join(REPO, "preview", "run.ts"), ...args],
      { cwd, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    p.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    p.on("error", reject);
    p.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr, seconds: (Date.now() - t0) / 1000 }));
  });
}

const git = (cwd: string, ...args: string[]) =>
  child
    .execFileSync(
      "git",
      [
        "-c",
        "user.name=iko-plus test",
        "-c",
        "user.email=test@iko-plus.invalid",
        "-c",
        "commit.gpgsign=false",
        ...args,
      ],
      { cwd, encoding: "utf8" },
    )
    .trim();

describe("lab: PR preview (preview:pr) names exactly what two commits change", function () {
  this.timeout(15 * 60_000);
  let tmp: string;
  let repo: string;
  let labDir: string;
  let baseSha: string;
  let commandTmp: string | undefined;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-prpreview-test-"));
    repo = path.join(tmp, "repo");
    fs.mkdirSync(repo);
    // The project's committed files, as a fresh clone would have them.
    child.execSync(`git -C ${JSON.stringify(REPO)} archive HEAD | tar -x -C ${JSON.stringify(repo)}`);
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "base");
    baseSha = git(repo, "rev-parse", "HEAD");
    // One placement and one value, edited the way a person would (comments kept).
    const file = stackFilePath(repo, "lab-fleet");
    const doc = YAML.parseDocument(fs.readFileSync(file, "utf8"));
    const names = doc.getIn([
      "config",
      "iko-plus:federatedIrisClusters",
      0,
      "placement",
      "clusterNames",
    ]) as YAML.YAMLSeq;
    assert.deepStrictEqual(
      names.toJSON(),
      ["ikoclone"],
      "the committed lab fleet stack places the IrisCluster on ikoclone only",
    );
    names.add("ikogke");
    assert.strictEqual(doc.getIn(["config", "iko-plus:federatedIrisClusters", 0, "serviceType"]), "LoadBalancer");
    doc.setIn(["config", "iko-plus:federatedIrisClusters", 0, "serviceType"], "NodePort");
    fs.writeFileSync(file, doc.toString());
    git(repo, "commit", "-q", "-a", "-m", "fleet: place federated-iris on ikogke too, serviceType NodePort");
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(repo, "node_modules"), "dir");
    labDir = process.env.IKO_LAB_DIR ? `${path.resolve(process.env.IKO_LAB_DIR)}-pr` : path.join(tmp, "lab");
  });
  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("deploys the base into a fresh lab, previews the head, and lists exactly the two changes and the destroy-time wait they add", async () => {
    const out = path.join(tmp, "summary.md");
    const res = await runCommand(repo, ["--base", baseSha, "--stacks", "lab-fleet", "--lab-dir", labDir, "--out", out]);
    console.log(`      preview:pr took ${res.seconds.toFixed(1)} s`);
    assert.strictEqual(
      res.code,
      0,
      `exit ${res.code}\n${res.stderr.slice(-3000)}\n${fs.existsSync(out) ? fs.readFileSync(out, "utf8").slice(0, 3000) : ""}`,
    );
    commandTmp = /worktree in (\S+)\/base$/m.exec(res.stderr)?.[1];
    assert.strictEqual(res.stdout.trim(), out, "prints the summary's path");
    const md = fs.readFileSync(out, "utf8");
    assert.ok(md.startsWith("<!-- iko-plus-preview -->\n"), "starts with the marker the workflow finds its comment by");
    const counts = /^\| `lab-fleet` \| 0 \| 3 \| 0 \| 0 \| (\d+) \|$/m.exec(md);
    assert.ok(counts, `fleet: three updates, nothing created, replaced or deleted\n${md.slice(0, 3000)}`);
    assert.ok(Number(counts[1]) > 20, `the unchanged resources are all counted (${counts[1]})`);
    const rows = md.split("\n").filter((l) => /^\| (create|update|replace|delete) \|/.test(l));
    // The placement's new member, ikogke, now waits on destroy for the IrisCluster's Work too.
    // Rows sorted by operation, then name (the engine gives independent resources in any order).
    assert.deepStrictEqual(rows, [
      '| update | `default-federated-iris-policy` | `kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy` | `spec.placement.clusterAffinity.clusterNames[1]` added `"ikogke"` |',
      '| update | `default-federated-iris-template` | `kubernetes:intersystems.com/v1alpha1:IrisCluster` | `spec.serviceTemplate.spec.type` `"LoadBalancer"` → `"NodePort"` |',
      // (the list is positional: the IrisCluster and its license Secret sort before shhhh-secret)
      '| update | `ikogke-member-works-gone` | `pulumi-nodejs:dynamic/iko-plus-karmada:MemberWorksGone` | `objects[0].kind` `"Secret"` → `"IrisCluster"`<br>' +
        '`objects[0].name` `"shhhh-secret"` → `"federated-iris"`<br>`objects[1]` added<br>`objects[2]` added |',
    ]);
    assert.ok(
      !/lab-(irisLicenseKey|shhhhSecretData)-[0-9a-f]{8}/.test(md + res.stderr),
      "the generated lab secrets appear nowhere",
    );
    assert.ok(md.length <= 65_536);
    assert.ok(fs.existsSync(out.replace(/\.md$/, "-full.md")), "the untrimmed summary is written beside it");
  });

  it("tore down what it started: the lab folder, the base worktree and its temporary folder", () => {
    assert.strictEqual(fs.existsSync(labDir), false, `lab folder ${labDir} removed`);
    assert.ok(commandTmp, "the command named its temporary folder");
    assert.strictEqual(fs.existsSync(commandTmp), false, `${commandTmp} removed`);
    assert.deepStrictEqual(
      git(repo, "worktree", "list", "--porcelain")
        .split("\n")
        .filter((l) => l.startsWith("worktree ")),
      [`worktree ${repo}`],
    );
  });

  it("an unknown base ref fails with one message and starts nothing", async () => {
    const res = await runCommand(repo, ["--base", "no-such-ref"]);
    assert.strictEqual(res.code, 2);
    assert.match(res.stderr, /preview:pr: git rev-parse --verify no-such-ref\^\{commit\} exited 128/);
    assert.deepStrictEqual(
      git(repo, "worktree", "list", "--porcelain")
        .split("\n")
        .filter((l) => l.startsWith("worktree ")),
      [`worktree ${repo}`],
    );
  });
});
