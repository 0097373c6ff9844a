/** Shared by the config tests: a wfh stack's config problems, or [] when it is valid. */
import * as assert from "assert";
import { ConfigError, validateWfhConfig } from "../../stacks";

/** Validates a wfh stack's raw config and returns the problems (none → []). */
export function problemsOf(raw: Record<string, unknown>): string[] {
  try {
    validateWfhConfig(raw);
    return [];
  } catch (e) {
    assert.ok(e instanceof ConfigError, `expected ConfigError, got ${e}`);
    return (e as ConfigError).problems;
  }
}
