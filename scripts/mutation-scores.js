// @ts-check
/**
 * Per-folder mutation scores from Stryker's JSON report (reports/mutation/mutation.json):
 * score = (killed + timeout) / (killed + timeout + survived + no coverage), as Stryker counts it,
 * for each top-level folder. Prints one line per folder and `RESULT mutation_score_<folder> <n>`;
 * exits 1 when a folder is under the minimum (IKO_MUTATION_MIN, default 80).
 */
const fs = require("fs");
const path = require("path");

const report = JSON.parse(
  fs.readFileSync(process.argv[2] ?? path.join("reports", "mutation", "mutation.json"), "utf8"),
);
const min = Number(process.env.IKO_MUTATION_MIN ?? 80);
/** @type {Record<string, Record<string, number>>} */
const folders = {};
for (const [file, data] of Object.entries(report.files)) {
  const folder = path.relative(process.cwd(), path.resolve(file)).split(path.sep)[0];
  const counts = (folders[folder] ??= {});
  for (const m of data.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
}
let low = false;
for (const [folder, c] of Object.entries(folders).sort()) {
  const detected = (c.Killed ?? 0) + (c.Timeout ?? 0);
  const valid = detected + (c.Survived ?? 0) + (c.NoCoverage ?? 0);
  const score = valid === 0 ? 100 : (100 * detected) / valid;
  if (score < min) low = true;
  console.log(
    `${folder.padEnd(12)} ${score.toFixed(2).padStart(6)} %  (killed ${c.Killed ?? 0}, timeout ${c.Timeout ?? 0}, survived ${c.Survived ?? 0}, no coverage ${c.NoCoverage ?? 0}, other ${Object.entries(
      c,
    )
      .filter(([s]) => !["Killed", "Timeout", "Survived", "NoCoverage"].includes(s))
      .reduce((n, [, v]) => n + v, 0)})`,
  );
  console.log(`RESULT mutation_score_${folder} ${score.toFixed(2)}`);
}
process.exit(low ? 1 : 0);
