/**
 * Unit (real files): where each stack's file is (scripts/stack-files.ts), and that every project
 * folder runs the root's program the way the root does.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { projectDirs, stackFilePath, stackOfFile, stackProjectDir } from "../../scripts/stack-files";

const REPO = path.resolve(__dirname, "../..");

interface Project {
  name: string;
  description?: string;
  main: string;
  runtime: { name: string; options: Record<string, unknown> };
}
const project = (dir: string): Project =>
  YAML.parse(fs.readFileSync(path.join(REPO, dir, "Pulumi.yaml"), "utf8")) as Project;

/** The committed stack files, from git (so a file left out of a project folder is seen). */
function committedStackFiles(): string[] {
  return child
    .execFileSync("git", ["ls-files", "Pulumi.*.yaml", "**/Pulumi.*.yaml"], { cwd: REPO, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.startsWith("test/"));
}

describe("stack files: each stack's project folder (real repository files)", () => {
  it("the project folders: the DR and fleet examples and the lab stacks (not the library example); the root holds only dev", () => {
    assert.deepStrictEqual(projectDirs(REPO), ["examples/dr", "examples/fleet", "testbed/stacks"]);
    const atRoot = fs
      .readdirSync(REPO)
      .filter((f) => /^Pulumi\..+\.yaml$/.test(f) && !/^Pulumi\.(labtest|kindtest)-/.test(f));
    assert.deepStrictEqual(atRoot, ["Pulumi.dev.yaml"]);
  });

  it("every committed stack file is found where it is, by its stack name", () => {
    const files = committedStackFiles();
    assert.ok(files.length >= 10, files.join(", "));
    for (const f of files) {
      const stack = stackOfFile(f);
      assert.ok(stack, f);
      assert.strictEqual(stackFilePath(REPO, stack), path.join(REPO, f), f);
    }
    assert.strictEqual(stackProjectDir(REPO, "fleet"), "examples/fleet");
    assert.strictEqual(stackProjectDir(REPO, "dr-us-central1"), "examples/dr");
    assert.strictEqual(stackProjectDir(REPO, "lab-wfh"), "testbed/stacks");
    assert.strictEqual(stackProjectDir(REPO, "dev"), ".");
  });

  it("every project folder runs the root's main.js with the root's name and runtime", () => {
    const root = project(".");
    for (const dir of projectDirs(REPO)) {
      const p = project(dir);
      assert.strictEqual(path.resolve(REPO, dir, p.main), path.resolve(REPO, root.main), dir);
      assert.deepStrictEqual({ ...p, main: root.main }, root, `${dir}/Pulumi.yaml differs from the root's`);
    }
  });

  it("a stack no folder has yet goes to the root; one in two folders is refused, naming both", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "iko-stack-files-"));
    try {
      for (const d of ["examples/a", "examples/b", "testbed/stacks"]) {
        fs.mkdirSync(path.join(tmp, d), { recursive: true });
        fs.writeFileSync(path.join(tmp, d, "Pulumi.yaml"), "name: x\nmain: ../../main.js\n");
      }
      fs.mkdirSync(path.join(tmp, "examples", "no-project"));
      fs.writeFileSync(path.join(tmp, "examples", "no-project", "Pulumi.lost.yaml"), "config: {}\n");
      fs.mkdirSync(path.join(tmp, "examples", "own-program"));
      fs.writeFileSync(path.join(tmp, "examples", "own-program", "Pulumi.yaml"), "name: mine\nmain: bin/index.js\n");
      fs.writeFileSync(path.join(tmp, "examples", "own-program", "Pulumi.mine.yaml"), "config: {}\n");
      assert.deepStrictEqual(projectDirs(tmp), ["examples/a", "examples/b", "testbed/stacks"]);
      assert.strictEqual(stackProjectDir(tmp, "new"), ".");
      assert.strictEqual(stackProjectDir(tmp, "lost"), ".", "a folder without Pulumi.yaml is not a project");
      assert.strictEqual(stackProjectDir(tmp, "mine"), ".", "a program of its own keeps its stacks");
      assert.strictEqual(stackFilePath(tmp, "new"), path.join(tmp, "Pulumi.new.yaml"));
      fs.writeFileSync(path.join(tmp, "examples", "b", "Pulumi.twice.yaml"), "config: {}\n");
      fs.writeFileSync(path.join(tmp, "testbed", "stacks", "Pulumi.twice.yaml"), "config: {}\n");
      assert.throws(
        () => stackProjectDir(tmp, "twice"),
        (e: Error) =>
          e.message ===
          "stack twice: Pulumi.twice.yaml is in examples/b and testbed/stacks; keep one (a stack name is one stack in the backend)",
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("the CLI scripts/pulumi.sh runs prints the folder, and fails with the message", () => {
    const cli = (stack: string) =>
      child.spawnSync(
        process.execPath,
        ["-r", "ts-node/register/transpile-only", "scripts/stack-files.ts", "dir", stack],
        {
          cwd: REPO,
          encoding: "utf8",
        },
      );
    const fleet = cli("fleet");
    assert.strictEqual(fleet.status, 0, fleet.stderr);
    assert.strictEqual(fleet.stdout, "examples/fleet\n");
    assert.strictEqual(cli("dev").stdout, ".\n");
    const usage = child.spawnSync(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "scripts/stack-files.ts"],
      {
        cwd: REPO,
        encoding: "utf8",
      },
    );
    assert.strictEqual(usage.status, 2);
    assert.match(usage.stderr, /usage: stack-files.ts dir <stack>/);
  });
});
