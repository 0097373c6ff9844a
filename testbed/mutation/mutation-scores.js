// @ts-check
/**
 * Per-folder mutation scores from the records that testbed/mutation/mutation.sh keeps after each run under
 * ${IKO_MUTATION_KEEP:-testbed/mutation/records} (committed, so runs made on one machine count on the next).
 * A record is a Stryker report made small: per file, the SHA-256 of the source it mutated, the
 * count of each mutant status and where the survivors are; it also lists, with no mutants, the
 * files its run mutated but found none in. A whole run over the four folders takes hours on a
 * 2-core machine, so runs of a few files each add up: for every source file the newest record
 * that holds it counts, and only while the file is unchanged (a file edited since is stale and left
 * out, so is a file that no longer exists). Full Stryker reports (with `source`) are read too.
 *
 * score = (killed + timeout) / (killed + timeout + survived + no coverage), as Stryker counts it,
 * per top-level folder, over the files measured. A folder with files not measured yet says so
 * (`partial: n of m files`) and gets no RESULT line, since a partial score is not the folder's.
 * Exits 1 when a measured folder is under the minimum (IKO_MUTATION_MIN, default 80).
 *
 * Usage: node testbed/mutation/mutation-scores.js [record.json ...]   (default: the kept records)
 *        node testbed/mutation/mutation-scores.js --keep REPORT OUT COMMIT   (what mutation.sh keeps: REPORT with the
 *                                                           files it mutated but found no mutant in)
 */
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");

/** The folders `npm run test:mutation` mutates (testbed/mutation/stryker.config.json). */
const FOLDERS = ["components", "stacks", "policy", "preview"];

/**
 * @typedef {{ status: string, mutatorName?: string, replacement?: string, location?: { start: { line: number, column: number } } }} Mutant
 * @typedef {{ source?: string, mutants: Mutant[] }} FileResult
 * @typedef {{ sha256: string, counts: Record<string, number>, survivors: string[] }} FileRecord
 * @typedef {{ date?: string, files: Record<string, FileResult | FileRecord> }} Report
 * @typedef {{ name: string, time: number, report: Report }} DatedReport
 * @typedef {{ file: string, from: string, counts: Record<string, number> }} FileScore
 */

/** @param {string} text */
function sha256(text) {
  return crypto.createHash("sha256").update(text).digest("hex");
}

/**
 * A file's result as a record: the hash of the source it mutated, the count of each status, and the
 * mutants that survived or had no test (`line:column Mutator -> replacement`, the replacement cut
 * at 80 characters), in the order of the source.
 * @param {FileResult} result
 * @returns {FileRecord}
 */
function fileRecord(result) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const m of result.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
  const at = (/** @type {Mutant} */ m) => [m.location?.start.line ?? 0, m.location?.start.column ?? 0];
  const survivors = result.mutants
    .filter((m) => m.status === "Survived" || m.status === "NoCoverage")
    .sort((a, b) => at(a)[0] - at(b)[0] || at(a)[1] - at(b)[1])
    .map((m) => {
      const repl = (m.replacement ?? "").replace(/\s+/g, " ");
      const cut = repl.length > 80 ? `${repl.slice(0, 79)}…` : repl;
      return `${at(m).join(":")} ${m.mutatorName ?? "?"}${m.status === "NoCoverage" ? " (no coverage)" : ""} -> ${cut}`;
    });
  return { sha256: sha256(result.source ?? ""), counts, survivors };
}

/**
 * For each file, the newest report's result, if the source it mutated is the file as it is now.
 * `current(file)` gives the file's text now, or undefined when it is gone.
 * @param {DatedReport[]} reports
 * @param {(file: string) => string | undefined} current
 * @returns {{ files: FileScore[], stale: string[] }}
 */
function latestResults(reports, current) {
  /** @type {Map<string, { time: number, from: string, result: FileResult }>} */
  const newest = new Map();
  for (const r of reports) {
    for (const [file, result] of Object.entries(r.report.files)) {
      const seen = newest.get(file);
      if (!seen || seen.time < r.time) newest.set(file, { time: r.time, from: r.name, result });
    }
  }
  /** @type {FileScore[]} */
  const files = [];
  /** @type {string[]} */
  const stale = [];
  for (const [file, { from, result }] of [...newest.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const now = current(file);
    const record = "sha256" in result ? result : result.source === undefined ? undefined : fileRecord(result);
    if (record === undefined || now === undefined || sha256(now) !== record.sha256) {
      stale.push(file);
      continue;
    }
    files.push({ file, from, counts: record.counts });
  }
  return { files, stale };
}

/**
 * A RegExp for a Stryker `mutate` glob (without its leading `!`): `**' + '/` any folders, `*` any
 * characters but `/`, `?` one of them.
 * @param {string} glob
 */
function globRegExp(glob) {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*" && glob[i + 2] === "/") {
      re += "(?:.*/)?";
      i += 2;
    } else if (c === "*" && glob[i + 1] === "*") {
      re += ".*";
      i += 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/**
 * Whether `file` is one a run with these `mutate` globs mutated: it matches a pattern and no
 * `!` pattern.
 * @param {string} file
 * @param {string[]} globs
 */
function mutatedBy(file, globs) {
  const matches = (/** @type {string} */ g) => globRegExp(g).test(file);
  return (
    globs.some((g) => !g.startsWith("!") && matches(g)) && !globs.some((g) => g.startsWith("!") && matches(g.slice(1)))
  );
}

/**
 * The report with the files its run mutated but found no mutant in (a file of re-exports, say)
 * added with their source and no mutants, so they count as measured while unchanged. Stryker's
 * report leaves them out.
 * @param {Report & { config?: { mutate?: string[] } }} report
 * @param {string[]} candidates the files to mutate (`mutatedSources`, flattened)
 * @param {(file: string) => string | undefined} read
 * @returns {Report}
 */
function completeReport(report, candidates, read) {
  const files = { ...report.files };
  const globs = report.config?.mutate ?? [];
  for (const f of candidates) {
    if (files[f] !== undefined || !mutatedBy(f, globs)) continue;
    const source = read(f);
    if (source !== undefined) files[f] = { source, mutants: [] };
  }
  return { ...report, files };
}

/**
 * Killed + timeout over killed + timeout + survived + no coverage, in percent (100 with no mutant).
 * @param {Record<string, number>} c
 */
function score(c) {
  const detected = (c.Killed ?? 0) + (c.Timeout ?? 0);
  const valid = detected + (c.Survived ?? 0) + (c.NoCoverage ?? 0);
  return valid === 0 ? 100 : (100 * detected) / valid;
}

/**
 * Per folder: the summed counts of its measured files, and how many of its files were measured.
 * @param {FileScore[]} files
 * @param {Record<string, string[]>} sources the files to mutate, by folder
 * @returns {{ folder: string, counts: Record<string, number>, measured: number, total: number }[]}
 */
function folderScores(files, sources) {
  return Object.keys(sources)
    .sort()
    .map((folder) => {
      /** @type {Record<string, number>} */
      const counts = {};
      // Only the files Stryker's config mutates: a run given its own --mutate globs may hold others.
      const inFolder = files.filter((f) => f.file.split("/")[0] === folder && sources[folder].includes(f.file));
      for (const f of inFolder) for (const [s, n] of Object.entries(f.counts)) counts[s] = (counts[s] ?? 0) + n;
      return { folder, counts, measured: inFolder.length, total: sources[folder].length };
    });
}

/**
 * The report lines: one per folder, then `RESULT mutation_score_<folder>` for each folder measured
 * whole. Returns the lines and whether a measured folder is under `min`.
 * @param {ReturnType<typeof folderScores>} folders
 * @param {number} min
 */
function formatScores(folders, min) {
  /** @type {string[]} */
  const lines = [];
  let low = false;
  for (const { folder, counts: c, measured, total } of folders) {
    if (measured === 0) {
      lines.push(`${folder.padEnd(12)}   not measured (0 of ${total} files)`);
      continue;
    }
    const s = score(c);
    if (s < min) low = true;
    const other = Object.entries(c)
      .filter(([k]) => !["Killed", "Timeout", "Survived", "NoCoverage"].includes(k))
      .reduce((n, [, v]) => n + v, 0);
    const part = measured < total ? `, partial: ${measured} of ${total} files` : "";
    lines.push(
      `${folder.padEnd(12)} ${s.toFixed(2).padStart(6)} %  (killed ${c.Killed ?? 0}, timeout ${c.Timeout ?? 0}, survived ${c.Survived ?? 0}, no coverage ${c.NoCoverage ?? 0}, other ${other}${part})`,
    );
    if (measured === total) lines.push(`RESULT mutation_score_${folder} ${s.toFixed(2)}`);
  }
  return { lines, low };
}

/** The kept records' folder (relative paths from the repo's root). */
function keepDir() {
  return process.env.IKO_MUTATION_KEEP ?? path.join("testbed", "mutation", "records");
}

/**
 * The .ts files Stryker mutates in each folder (testbed/mutation/stryker.config.json's globs, spelled out: every
 * .ts file but declarations and components/postrender/cli.ts), relative to `root`.
 * @param {string} root
 */
function mutatedSources(root) {
  /** @type {Record<string, string[]>} */
  const out = {};
  /** @param {string} dir @returns {string[]} */
  const walk = (dir) =>
    fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
  for (const folder of FOLDERS)
    out[folder] = walk(folder).filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && f !== "components/postrender/cli.ts",
    );
  return out;
}

/**
 * A report file, its files' keys made relative to `root` (Stryker may write them absolute).
 * @param {string} file
 * @param {string} root
 * @returns {DatedReport}
 */
function readDated(file, root) {
  const report = /** @type {Report} */ (JSON.parse(fs.readFileSync(file, "utf8")));
  const files = Object.fromEntries(
    Object.entries(report.files).map(([f, r]) => [
      path.relative(root, path.resolve(root, f)).split(path.sep).join("/"),
      r,
    ]),
  );
  // A record's own date: a fresh clone gives every file the same modification time.
  const time = report.date !== undefined ? Date.parse(report.date) : fs.statSync(file).mtimeMs;
  return { name: file, time, report: { ...report, files } };
}

/**
 * The record kept of a completed report: each file made a `fileRecord`, with the run's date,
 * commit and `mutate` globs.
 * @param {Report & { config?: { mutate?: string[] } }} report
 * @param {{ date: string, commit: string }} run
 */
function compactReport(report, run) {
  const files = Object.fromEntries(
    Object.entries(report.files)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([f, r]) => [f, "sha256" in r ? r : fileRecord(r)]),
  );
  return { date: run.date, commit: run.commit, mutate: report.config?.mutate ?? [], files };
}

/**
 * `--keep REPORT OUT COMMIT`: writes the record of REPORT completed (`completeReport`, with today's
 * sources) to OUT.
 * @param {string} report @param {string} out @param {string} commit
 */
function keep(report, out, commit) {
  const root = process.cwd();
  const read = (/** @type {string} */ f) => {
    const p = path.join(root, f);
    return fs.existsSync(p) ? fs.readFileSync(p, "utf8") : undefined;
  };
  const completed = completeReport(readDated(report, root).report, Object.values(mutatedSources(root)).flat(), read);
  const record = compactReport(completed, { date: new Date().toISOString(), commit });
  if (Object.keys(record.files).length === 0) {
    console.error(
      `mutation-scores: the run mutated no file (globs ${JSON.stringify(record.mutate)}); no record kept. ` +
        "Give several folders as one comma-separated --mutate; Stryker does not expand {a,b}",
    );
    process.exit(1);
  }
  fs.writeFileSync(out, `${JSON.stringify(record, null, 1)}\n`);
}

function main() {
  const root = process.cwd();
  if (process.argv[2] === "--keep") return keep(process.argv[3], process.argv[4], process.argv[5] ?? "");
  let names = process.argv.slice(2);
  if (names.length === 0 && fs.existsSync(keepDir()))
    names = fs
      .readdirSync(keepDir())
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.join(keepDir(), f));
  if (names.length === 0) {
    console.error(`mutation-scores: no report (run npm run test:mutation; kept reports go to ${keepDir()})`);
    process.exit(1);
  }
  const { files, stale } = latestResults(
    names.map((n) => readDated(n, root)),
    (f) => {
      const p = path.join(root, f);
      return fs.existsSync(p) ? fs.readFileSync(p, "utf8") : undefined;
    },
  );
  const { lines, low } = formatScores(
    folderScores(files, mutatedSources(root)),
    Number(process.env.IKO_MUTATION_MIN ?? 80),
  );
  for (const l of lines) console.log(l);
  if (stale.length > 0) console.log(`left out, changed since their report or gone: ${stale.join(", ")}`);
  process.exit(low ? 1 : 0);
}

if (require.main === module) main();

module.exports = {
  latestResults,
  score,
  folderScores,
  formatScores,
  mutatedSources,
  keepDir,
  mutatedBy,
  completeReport,
  compactReport,
  fileRecord,
  readDated,
};
