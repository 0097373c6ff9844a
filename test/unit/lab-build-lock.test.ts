/** testbed/lab/build.sh runs one build at a time per cache (real script, a fake `go` that only logs). */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const REPO = path.resolve(__dirname, "../..");

describe("testbed/lab/build.sh lock (unit, real script, fake go)", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-build-lock-"));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("waits while another build holds the cache's lock, and says so", async () => {
    const bin = path.join(tmp, "bin");
    const cache = path.join(tmp, "cache");
    const goLog = path.join(tmp, "go.log");
    fs.mkdirSync(bin);
    fs.mkdirSync(cache);
    // The fake go notes when it was asked to build and fails, so the build ends at once.
    fs.writeFileSync(path.join(bin, "go"), `#!/bin/sh\ndate +%s%N >> ${goLog}\nexit 1\n`, { mode: 0o755 });
    const lockFile = path.join(cache, ".build.lock");
    const holder = child.spawn("flock", [lockFile, "sh", "-c", "sleep 1.5; date +%s%N"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    let released = "";
    holder.stdout.on("data", (d: Buffer) => (released += d.toString()));
    const holderDone = new Promise((r) => holder.on("exit", r));
    // Let the holder take the lock first.
    for (let i = 0; i < 50 && !fs.existsSync(lockFile); i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    const res = child.spawnSync("bash", [path.join(REPO, "testbed/lab/build.sh"), "kubectl"], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, IKO_LAB_CACHE: cache },
    });
    await holderDone;
    assert.strictEqual(res.status, 1, res.stdout + res.stderr);
    assert.match(
      res.stdout,
      new RegExp(`build.sh: waiting for another testbed/lab/build.sh on ${cache} \\(lock ${lockFile}\\)`),
    );
    const built = BigInt(fs.readFileSync(goLog, "utf8").trim().split("\n")[0]);
    assert.ok(built > BigInt(released.trim()), "go ran only after the other build let go of the lock");
  });

  it("does not wait when the cache is free", () => {
    const bin = path.join(tmp, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "go"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    const res = child.spawnSync("bash", [path.join(REPO, "testbed/lab/build.sh"), "kubectl"], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, IKO_LAB_CACHE: path.join(tmp, "cache") },
    });
    assert.strictEqual(res.status, 1);
    assert.doesNotMatch(res.stdout, /waiting/);
    assert.match(res.stdout, /building kubectl v1\.34\.12 \.\.\. FAILED/);
  });
});
