/**
 * Mocha root hooks for the unit tier: the run gets its own temp folder (TMPDIR, so `os.tmpdir()`
 * and the programs the tests start use it), removed when the run ends. Tests make many temp
 * folders (kubeconfig files, chart copies, fake commands) and not every one removes its own: a run
 * left about forty in /tmp before.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-unit-"));
process.env.TMPDIR = runTmp;

export const mochaHooks = {
  afterAll(): void {
    fs.rmSync(runTmp, { recursive: true, force: true });
  },
};
