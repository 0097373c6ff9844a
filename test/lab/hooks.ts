/**
 * Mocha root hooks for the lab tier: every run starts with a fresh results file and transcript
 * (unless the caller set IKO_LAB_RESULTS / IKO_LAB_TRANSCRIPT), and ends by printing the figures
 * the tests counted, one `RESULT <name> <n>` line each. The folder made for the files is removed
 * at the end (the plaintext scan has read the transcript by then); set IKO_LAB_KEEP_RUN=1 to keep
 * it, or name the files yourself, which are then left alone.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { printResults } from "./results";

let runDir: string | undefined;

/**
 * Makes a fresh folder for whichever of the two files the caller did not name and points the
 * variable at it; returns the folder, or undefined when both were named.
 */
export function prepareRunFiles(env: NodeJS.ProcessEnv, tmp: string = os.tmpdir()): string | undefined {
  if (env.IKO_LAB_RESULTS && env.IKO_LAB_TRANSCRIPT) return undefined;
  const dir = fs.mkdtempSync(path.join(tmp, "iko-plus-lab-run-"));
  env.IKO_LAB_RESULTS ||= path.join(dir, "results.json");
  env.IKO_LAB_TRANSCRIPT ||= path.join(dir, "transcript.log");
  return dir;
}

/** Removes the folder prepareRunFiles made, unless IKO_LAB_KEEP_RUN=1 (then says where it is). */
export function finishRunFiles(env: NodeJS.ProcessEnv, dir: string | undefined, log: (line: string) => void): void {
  if (dir === undefined) return;
  if (env.IKO_LAB_KEEP_RUN === "1") {
    log(`lab run files kept in ${dir} (IKO_LAB_KEEP_RUN=1)`);
    return;
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

export const mochaHooks = {
  beforeAll(): void {
    runDir = prepareRunFiles(process.env);
  },
  afterAll(): void {
    try {
      printResults();
    } finally {
      finishRunFiles(process.env, runDir, (line) => console.log(line));
    }
  },
};
