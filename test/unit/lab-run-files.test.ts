/** The lab tier's run files (test/lab/hooks.ts) and its transcript (test/lab/transcript.ts): nothing left behind. */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { finishRunFiles, prepareRunFiles } from "../lab/hooks";
import { knownSecrets, recordKnownSecret, recordRun } from "../lab/transcript";

describe("lab run files (unit)", () => {
  let tmp: string;
  const saved = process.env.IKO_LAB_TRANSCRIPT;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-run-files-"));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.IKO_LAB_TRANSCRIPT;
    else process.env.IKO_LAB_TRANSCRIPT = saved;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("makes one folder for the files the caller did not name, and removes it at the end", () => {
    const env: NodeJS.ProcessEnv = {};
    const dir = prepareRunFiles(env, tmp);
    assert.ok(dir !== undefined && fs.existsSync(dir));
    assert.strictEqual(env.IKO_LAB_RESULTS, path.join(dir, "results.json"));
    assert.strictEqual(env.IKO_LAB_TRANSCRIPT, path.join(dir, "transcript.log"));
    fs.writeFileSync(env.IKO_LAB_TRANSCRIPT, "=== pulumi up\n");
    finishRunFiles(env, dir, () => assert.fail("nothing to say"));
    assert.deepStrictEqual(fs.readdirSync(tmp), []);
  });

  it("keeps the folder with IKO_LAB_KEEP_RUN=1 and says where it is", () => {
    const env: NodeJS.ProcessEnv = { IKO_LAB_KEEP_RUN: "1" };
    const dir = prepareRunFiles(env, tmp);
    const said: string[] = [];
    finishRunFiles(env, dir, (line) => said.push(line));
    assert.ok(dir !== undefined && fs.existsSync(dir));
    assert.deepStrictEqual(said, [`lab run files kept in ${dir} (IKO_LAB_KEEP_RUN=1)`]);
  });

  it("leaves files the caller named alone and makes no folder", () => {
    const env: NodeJS.ProcessEnv = { IKO_LAB_RESULTS: "/x/r.json", IKO_LAB_TRANSCRIPT: "/x/t.log" };
    assert.strictEqual(prepareRunFiles(env, tmp), undefined);
    assert.deepStrictEqual(env, { IKO_LAB_RESULTS: "/x/r.json", IKO_LAB_TRANSCRIPT: "/x/t.log" });
    assert.deepStrictEqual(fs.readdirSync(tmp), []);
  });

  it("records nothing without IKO_LAB_TRANSCRIPT (the kind tier and the bench), and everything with it", () => {
    delete process.env.IKO_LAB_TRANSCRIPT;
    const cwdBefore = fs.readdirSync(os.tmpdir()).sort();
    recordRun({ backendDir: tmp }, ["config", "set", "--secret", "k", "a-secret-value"], {
      code: 0,
      stdout: "",
      stderr: "",
    });
    recordKnownSecret("another-secret-value");
    assert.deepStrictEqual(knownSecrets(), []);
    assert.deepStrictEqual(fs.readdirSync(os.tmpdir()).sort(), cwdBefore);

    const file = path.join(tmp, "t.log");
    process.env.IKO_LAB_TRANSCRIPT = file;
    recordRun({ backendDir: tmp }, ["config", "set", "--secret", "k", "a-secret-value"], {
      code: 0,
      stdout: "ok",
      stderr: "",
    });
    assert.strictEqual(fs.readFileSync(file, "utf8"), "=== pulumi config set --secret k <value> (exit 0)\nok\n\n");
    assert.deepStrictEqual(knownSecrets(), ["a-secret-value"]);
  });
});
