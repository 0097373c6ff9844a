// Mocha reporter: the usual spec output, plus the run's totals written as JSON to the file named
// by $IKO_TEST_TOTALS, so scripts/test.sh can print one totals line across all test tiers.
"use strict";
const fs = require("fs");
const Mocha = require("mocha");

class TotalsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.IKO_TEST_TOTALS;
      if (!file) return;
      const s = runner.stats;
      fs.writeFileSync(file, JSON.stringify({ passed: s.passes, failed: s.failures, skipped: s.pending }));
    });
  }
}

module.exports = TotalsReporter;
