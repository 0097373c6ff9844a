/**
 * Reads and validates the stack's config, then runs the stack program it names.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigError } from "./problems";
import { KNOWN_KEYS, PROJECT, validateWfhConfig } from "./config";
import { wfhStack } from "./wfh";

/** Raw config of this project from the runtime: keys without prefix, values JSON-parsed. */
export function rawProjectConfig(all: Record<string, string>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [fullKey, value] of Object.entries(all)) {
    if (!fullKey.startsWith(`${PROJECT}:`)) continue;
    const key = fullKey.slice(PROJECT.length + 1);
    try {
      raw[key] = key.toLowerCase().includes("kubeconfig") ? value : JSON.parse(value);
    } catch {
      raw[key] = value;
    }
  }
  return raw;
}

/** Runs the stack program; returns its outputs (secret ones stay secret). */
export function runProgram(): Record<string, unknown> {
  const config = new pulumi.Config(PROJECT);
  const raw = rawProjectConfig(pulumi.runtime.allConfig());
  let cfg;
  try {
    cfg = validateWfhConfig(raw);
  } catch (err) {
    // RunError prints the message alone (no stack trace): one line per problem.
    if (err instanceof ConfigError) throw new pulumi.RunError(err.message);
    throw err;
  }
  const secrets: Record<string, pulumi.Output<string>> = {};
  for (const key of KNOWN_KEYS.filter((k) => k.endsWith("Kubeconfig"))) {
    const value = config.getSecret(key);
    if (value !== undefined) secrets[key] = value;
  }
  const outputs = wfhStack(cfg, { secrets });
  return { program: cfg.program, ...outputs };
}
