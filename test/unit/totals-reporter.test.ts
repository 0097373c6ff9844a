/**
 * The tiers' totals (test/totals-reporter.js) and step suites (test/steps.ts), run for real: mocha
 * in a child process on the fixture spec files of test/fixtures/steps, as a tier runs its files.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const REPO = path.resolve(__dirname, "../..");
const FIXTURES = path.join(REPO, "test/fixtures/steps");

interface Run {
  code: number | null;
  out: string;
  totals: { passed: number; failed: number; skipped: number };
}

/** Runs mocha with the tiers' reporter on fixture files, in this order. */
function mocha(files: string[], env: NodeJS.ProcessEnv = {}): Run {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "totals-"));
  const totalsFile = path.join(dir, "totals.json");
  try {
    const res = child.spawnSync(
      process.execPath,
      [
        path.join(REPO, "node_modules/mocha/bin/mocha.js"),
        "--no-config",
        "--require",
        "ts-node/register/transpile-only",
        "--reporter",
        path.join(REPO, "test/totals-reporter.js"),
        ...files.map((f) => path.join(FIXTURES, f)),
      ],
      { cwd: REPO, encoding: "utf8", env: { ...process.env, ...env, IKO_TEST_TOTALS: totalsFile } },
    );
    const out = res.stdout + res.stderr;
    assert.ok(fs.existsSync(totalsFile), `the reporter wrote its totals:\n${out}`);
    return { code: res.status, out, totals: JSON.parse(fs.readFileSync(totalsFile, "utf8")) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("unit (real mocha, fixture suites): totals that cannot hide a test", () => {
  it("a failing first file no longer drops a later step suite: its tests run and count", () => {
    const r = mocha(["a-fails-at-step-two.spec.ts", "b-later-steps.spec.ts"]);
    // a: a1 passed, a2 failed, a3 and a4 skipped; b: both passed.
    assert.deepStrictEqual(r.totals, { passed: 3, failed: 1, skipped: 2 }, r.out);
    assert.match(r.out, /✔ b1 passes/);
    assert.match(r.out, /✔ b2 passes/);
    assert.match(r.out, /- a3 is skipped/);
    assert.match(r.out, /- a4 is skipped too/);
    assert.match(
      r.out,
      /skipped: an earlier step of this suite failed \(fixture a: steps, the second fails a2 fails\)/,
    );
    assert.strictEqual(r.code, 1);
  });

  it("a suite mocha drops (this.bail after an earlier failure) is counted: its tests skipped, its file a failure", () => {
    const r = mocha(["a-fails-at-step-two.spec.ts", "b-later-steps.spec.ts"], { STEPS_FIXTURE_BAIL: "1" });
    // mocha runs neither b1 nor b2; before, they were in no count at all (3 tests where 6 exist).
    assert.doesNotMatch(r.out, /✔ b1 passes/);
    assert.deepStrictEqual(r.totals, { passed: 1, failed: 2, skipped: 4 }, r.out);
    assert.match(r.out, /not run \(counted as skipped\): fixture b: later steps b1 passes/);
    assert.match(r.out, /FAILED: test\/fixtures\/steps\/b-later-steps\.spec\.ts ran no test \(counted as a failure\)/);
    assert.strictEqual(r.code, 2, "mocha's exit code counts the silent file");
  });

  it("the tests of a suite whose `before all` failed count as skipped, the hook as the file's one failure", () => {
    const r = mocha(["c-before-fails.spec.ts", "b-later-steps.spec.ts"]);
    assert.deepStrictEqual(r.totals, { passed: 2, failed: 1, skipped: 2 }, r.out);
    assert.match(r.out, /not run \(counted as skipped\): fixture c: before all fails c1 never starts/);
    assert.doesNotMatch(r.out, /c-before-fails\.spec\.ts ran no test/);
  });

  it("a spec file that declares no test fails the totals, naming the file", () => {
    const r = mocha(["b-later-steps.spec.ts", "d-no-tests.spec.ts"]);
    assert.deepStrictEqual(r.totals, { passed: 2, failed: 1, skipped: 0 }, r.out);
    assert.match(r.out, /FAILED: test\/fixtures\/steps\/d-no-tests\.spec\.ts ran no test/);
    assert.strictEqual(r.code, 1);
  });

  it("a clean run counts what ran and nothing else", () => {
    const r = mocha(["b-later-steps.spec.ts"]);
    assert.deepStrictEqual(r.totals, { passed: 2, failed: 0, skipped: 0 }, r.out);
    assert.strictEqual(r.code, 0);
  });
});
