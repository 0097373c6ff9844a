/**
 * Mocha root hooks for the lab tier: every run starts with a fresh results file and transcript
 * (unless scripts/test.sh or the caller set IKO_LAB_RESULTS / IKO_LAB_TRANSCRIPT), and ends by
 * printing the figures the tests counted, one `RESULT <name> <n>` line each.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { printResults } from "./results";

export const mochaHooks = {
  beforeAll(): void {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-lab-run-"));
    process.env.IKO_LAB_RESULTS ||= path.join(dir, "results.json");
    process.env.IKO_LAB_TRANSCRIPT ||= path.join(dir, "transcript.log");
  },
  afterAll(): void {
    printResults();
  },
};
