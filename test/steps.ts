/**
 * Suites whose tests are steps that build on each other (up, then what up made, then destroy).
 *
 * `stopAfterFirstFailure(this)` in such a describe: after the suite's first failed test, every
 * later test of the suite (nested suites included) is reported as skipped, naming that failure;
 * the suite's after hooks still run. It replaces mocha's `this.bail(true)`, which looks at the
 * run's *global* failure count: with one failure in an earlier file, mocha empties every later
 * bail suite before it starts (`if (self.failures && suite._bail) tests = []`), so its tests
 * were neither run nor counted.
 */
import type { Suite } from "mocha";

export function stopAfterFirstFailure(suite: Suite): void {
  let firstFailure: string | undefined;
  suite.afterEach(function () {
    const t = this.currentTest;
    if (firstFailure === undefined && t?.state === "failed") firstFailure = t.fullTitle();
  });
  suite.beforeEach(function () {
    if (firstFailure === undefined) return;
    console.log(`      skipped: an earlier step of this suite failed (${firstFailure})`);
    this.skip();
  });
}
