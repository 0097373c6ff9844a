/**
 * testbed/lab/build.sh leaves no binaries behind after a version change: a full build removes the cache's
 * folders that no target uses and none used for a day; a build of named binaries removes
 * nothing. Real script; a fake `go` that "builds" an empty executable, so every target is built
 * in a moment.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const REPO = path.resolve(__dirname, "../..");
const FAKE_GO = [
  "#!/bin/sh",
  'case "$1" in',
  '  build) while [ $# -gt 0 ]; do if [ "$1" = -o ]; then printf "#!/bin/sh\\n" > "$2"; chmod +x "$2"; fi; shift; done ;;',
  "  list) pwd ;;",
  "esac",
  "exit 0",
  "",
].join("\n");

describe("testbed/lab/build.sh prune (unit, real script, fake go)", function () {
  this.timeout(60_000);
  let tmp: string;
  let cache: string;
  let env: NodeJS.ProcessEnv;
  const build = (...names: string[]) =>
    child.spawnSync("bash", [path.join(REPO, "testbed/lab/build.sh"), ...names], { encoding: "utf8", env });
  /** A folder of binaries under the cache's bin/, last used `hoursAgo` hours ago. */
  const leftover = (name: string, hoursAgo: number) => {
    const dir = path.join(cache, "bin", name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "kwok"), "#!/bin/sh\n", { mode: 0o755 });
    const t = new Date(Date.now() - hoursAgo * 3_600_000);
    fs.utimesSync(dir, t, t);
    return dir;
  };

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-build-prune-"));
    cache = path.join(tmp, "cache");
    const bin = path.join(tmp, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "go"), FAKE_GO, { mode: 0o755 });
    env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, IKO_LAB_CACHE: cache };
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("a full build removes a folder no target uses and none used for a day, and keeps the rest", () => {
    const stale = leftover("kwok-v0.7.0", 48);
    const recent = leftover("kwok-v0.7.1", 2);
    const res = build();
    assert.strictEqual(res.status, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /build\.sh: removing kwok-v0\.7\.0 \(no lab binary uses it, none did for a day\)/);
    assert.ok(!fs.existsSync(stale), "the stale folder is gone");
    assert.ok(fs.existsSync(recent), "a folder used within the day stays (another checkout may use it)");
    // Every current binary's folder stays, and a second full build removes nothing.
    const current = fs
      .readdirSync(path.join(cache, "current"))
      .map((n) => fs.realpathSync(path.join(cache, "current", n)));
    assert.ok(current.length >= 10, `current binaries: ${current.length}`);
    for (const f of current) assert.ok(fs.existsSync(f), f);
    const again = build();
    assert.strictEqual(again.status, 0, again.stdout + again.stderr);
    assert.doesNotMatch(again.stdout, /removing/);
  });

  it("a build of named binaries removes nothing", () => {
    const stale = leftover("kwok-v0.7.0", 48);
    const res = build("kubectl");
    assert.strictEqual(res.status, 0, res.stdout + res.stderr);
    assert.doesNotMatch(res.stdout, /removing/);
    assert.ok(fs.existsSync(stale));
  });
});
