// Mocha reporter: the usual spec output, plus the run's totals written as JSON to the file named
// by $IKO_TEST_TOTALS, so scripts/test.sh can print one totals line across all test tiers.
//
// The totals account for every test the tier's spec files declare, so none can vanish:
// - a test that never started (its suite's `before all` hook failed, or mocha emptied the suite)
//   counts as skipped and is named;
// - a spec file that ran no test at all (no test passed or failed: it declares none, or every one
//   was skipped or never started) counts as one failure and is named.
"use strict";
const fs = require("fs");
const path = require("path");
const Mocha = require("mocha");

/** Every test under `suite`, depth first. */
function allTests(suite) {
  return [...suite.tests, ...suite.suites.flatMap(allTests)];
}

/**
 * The run's totals from its tests and spec files: `tests` as mocha left them (state "passed" or
 * "failed", `isPending()`, or none of these: never started), `hookFailures` the failed hooks,
 * `failedFiles` the files of failed hooks.
 */
function totals(tests, files, hookFailures, failedFiles = new Set()) {
  const passed = tests.filter((t) => t.state === "passed").length;
  const failedTests = tests.filter((t) => t.state === "failed").length;
  const pending = tests.filter((t) => t.state !== "passed" && t.state !== "failed" && t.isPending()).length;
  const notRun = tests.filter((t) => t.state !== "passed" && t.state !== "failed" && !t.isPending());
  const ran = new Set(tests.filter((t) => t.state === "passed" || t.state === "failed").map((t) => t.file));
  // A file whose hook failed has its failure counted already.
  const silentFiles = files.filter((f) => !ran.has(f) && !failedFiles.has(f));
  return {
    passed,
    failed: failedTests + hookFailures + silentFiles.length,
    skipped: pending + notRun.length,
    notRun: notRun.map((t) => t.fullTitle()),
    silentFiles,
  };
}

class TotalsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    let hookFailures = 0;
    const failedFiles = new Set();
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (runnable) => {
      if (runnable.type !== "hook") return;
      hookFailures++;
      const file = runnable.file || (runnable.parent && runnable.parent.file);
      if (file) failedFiles.add(file);
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const files = (options && options.files) || [];
      const t = totals(allTests(runner.suite), files, hookFailures, failedFiles);
      for (const title of t.notRun) console.log(`  not run (counted as skipped): ${title}`);
      for (const f of t.silentFiles)
        console.log(`  FAILED: ${path.relative(process.cwd(), f)} ran no test (counted as a failure)`);
      // Mocha's exit code is its runner's failure count, read after this listener.
      runner.failures += t.silentFiles.length;
      const file = process.env.IKO_TEST_TOTALS;
      if (!file) return;
      fs.writeFileSync(file, JSON.stringify({ passed: t.passed, failed: t.failed, skipped: t.skipped }));
    });
  }
}

module.exports = TotalsReporter;
module.exports.totals = totals;
