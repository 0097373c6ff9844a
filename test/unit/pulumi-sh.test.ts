// Unit (stand-in pulumi): scripts/pulumi.sh leaves no credentials in the temp folder. The stand-in
// `pulumi` on PATH writes $TMPDIR/kubeconfig<N> as the Kubernetes provider (v4.25.0) does at each
// provider start, and records the TMPDIR it was given.
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const REPO = path.join(__dirname, "..", "..");

describe("scripts/pulumi.sh (stand-in pulumi)", () => {
  it("runs pulumi with a private TMPDIR and removes it afterwards, so the provider's kubeconfig files go with it", () => {
    const outer = fs.mkdtempSync(path.join(os.tmpdir(), "iko-pulumi-sh-"));
    try {
      const bin = path.join(outer, "bin");
      fs.mkdirSync(bin);
      const seen = path.join(outer, "seen-tmpdir");
      fs.writeFileSync(
        path.join(bin, "pulumi"),
        `#!/usr/bin/env bash\n[ "$1" = stack ] && exit 0\necho "$TMPDIR" > ${JSON.stringify(seen)}\necho "apiVersion: v1" > "$TMPDIR/kubeconfig12345"\nexit 3\n`,
        { mode: 0o755 },
      );
      const res = child.spawnSync("bash", [path.join(REPO, "scripts", "pulumi.sh"), "preview"], {
        encoding: "utf8",
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH ?? ""}`,
          TMPDIR: outer,
          STACK: "unit-stand-in",
          PULUMI_CONFIG_PASSPHRASE: "x",
          PULUMI_BACKEND_URL: `file://${outer}`,
        },
      });
      assert.strictEqual(res.status, 3, `pulumi's exit code passes through: ${res.stderr}`);
      const runTmp = fs.readFileSync(seen, "utf8").trim();
      assert.notStrictEqual(runTmp, outer, "pulumi got its own TMPDIR");
      assert.strictEqual(path.dirname(runTmp), outer, "inside the caller's temp folder");
      assert.ok(!fs.existsSync(runTmp), "removed when the run ended");
      assert.deepStrictEqual(
        fs.readdirSync(outer).filter((f) => f.startsWith("kubeconfig") || f.startsWith("iko-plus-pulumi")),
        [],
      );
    } finally {
      fs.rmSync(outer, { recursive: true, force: true });
    }
  });
  it("runs every pulumi command in the folder of the stack's file (examples/fleet for fleet), and dev at the root", () => {
    const outer = fs.mkdtempSync(path.join(os.tmpdir(), "iko-pulumi-sh-"));
    try {
      const bin = path.join(outer, "bin");
      fs.mkdirSync(bin);
      const seen = path.join(outer, "seen-pwd");
      fs.writeFileSync(path.join(bin, "pulumi"), `#!/usr/bin/env bash\necho "$1 $PWD" >> ${JSON.stringify(seen)}\n`, {
        mode: 0o755,
      });
      const run = (stack: string) => {
        fs.rmSync(seen, { force: true });
        const res = child.spawnSync("bash", [path.join(REPO, "scripts", "pulumi.sh"), "refresh"], {
          encoding: "utf8",
          env: {
            ...process.env,
            PATH: `${bin}:${process.env.PATH ?? ""}`,
            STACK: stack,
            PULUMI_CONFIG_PASSPHRASE: "x",
            PULUMI_BACKEND_URL: `file://${outer}`,
          },
        });
        assert.strictEqual(res.status, 0, res.stderr);
        return fs.readFileSync(seen, "utf8").trim().split("\n");
      };
      const root = path.resolve(REPO);
      assert.deepStrictEqual(run("fleet"), [`stack ${root}/examples/fleet`, `refresh ${root}/examples/fleet`]);
      assert.deepStrictEqual(run("dr-fleet"), [`stack ${root}/examples/dr`, `refresh ${root}/examples/dr`]);
      assert.deepStrictEqual(run("dev"), [`stack ${root}`, `refresh ${root}`]);
    } finally {
      fs.rmSync(outer, { recursive: true, force: true });
    }
  });
});
