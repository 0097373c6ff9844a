/**
 * Figures the lab tests count themselves, printed by scripts/test.sh as `RESULT <name> <n>` lines
 * (e.g. fault_scenarios_survived, objects_lost). Every test file adds to one JSON file, so the
 * counts survive mocha's files and processes:
 *
 *   recordResult("fault_scenarios_survived", 1);   // after all of a scenario's assertions passed
 *   printResults();                                // RESULT fault_scenarios_survived 4
 *
 * The file is IKO_LAB_RESULTS, or <os.tmpdir()>/iko-plus-lab-results.json.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/** The results file: IKO_LAB_RESULTS, or iko-plus-lab-results.json in the OS temp folder. */
export function resultsFile(): string {
  return process.env.IKO_LAB_RESULTS || path.join(os.tmpdir(), "iko-plus-lab-results.json");
}

/** The counts recorded so far ({} when the file is missing). */
export function readResults(): Record<string, number> {
  let text: string;
  try {
    text = fs.readFileSync(resultsFile(), "utf8");
  } catch {
    return {};
  }
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error(`${resultsFile()} does not hold a JSON object`);
  return parsed as Record<string, number>;
}

/**
 * Adds `delta` to the count `name` (creating the file and the count; a delta of 0 still makes the
 * count exist). Read-modify-write through a temp file and rename, so a reader never sees half a file.
 */
export function recordResult(name: string, delta: number): void {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`result name "${name}": use lower-case letters, digits and _`);
  if (!Number.isFinite(delta)) throw new Error(`result ${name}: delta ${delta} is not a number`);
  const results = readResults();
  results[name] = (results[name] ?? 0) + delta;
  const file = resultsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(results, null, 2) + "\n");
  fs.renameSync(tmp, file);
}

/** The `RESULT <name> <n>` lines of every recorded count, sorted by name. */
export function resultLines(): string[] {
  return Object.entries(readResults())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `RESULT ${k} ${v}`);
}

/** Prints the `RESULT <name> <n>` lines to stdout. */
export function printResults(): void {
  for (const line of resultLines()) console.log(line);
}

// `node -r ts-node/register/transpile-only test/lab/results.ts` prints the lines (for scripts).
if (require.main === module) printResults();
