/**
 * Reads and validates the stack's config, then runs the stack program it names.
 */
import * as pulumi from "@pulumi/pulumi";
import { chartRepoChecks, chartRepoProblems } from "./chart-check";
import { clusterEndpointChecks, endpointProblems, kubeconfigCheck } from "./preflight";
import { ConfigError } from "./problems";
import {
  FleetConfig,
  PROJECT,
  RegionConfig,
  WfhConfig,
  stackClusters,
  validateFleetConfig,
  validateRegionConfig,
  validateWfhConfig,
} from "./config";
import { fleetStack } from "./fleet";
import { fleetTlsSecretKeys } from "./config/tls";
import { regionStack } from "./region";
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

/** The full keys of secret config values, as the language host passes them. */
export function secretConfigKeys(env: NodeJS.ProcessEnv = process.env): string[] {
  try {
    const keys = JSON.parse(env.PULUMI_CONFIG_SECRET_KEYS ?? "[]") as unknown;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Validates the raw config for the program it names; throws ConfigError listing every problem.
 * `currentStack` (this stack's name) lets a region stack refuse itself as its fleet.
 */
export function validateConfig(
  raw: Record<string, unknown>,
  secretKeys: string[],
  currentStack?: string,
): WfhConfig | FleetConfig | RegionConfig {
  if (raw.program === "region") return validateRegionConfig(raw, secretKeys, currentStack);
  return raw.program === "fleet" ? validateFleetConfig(raw, secretKeys) : validateWfhConfig(raw, secretKeys);
}

/** The outputs that have a value: a program's optional outputs it did not make are left out. */
export function definedOutputs(outputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).filter(([, v]) => v !== undefined));
}

/**
 * Runs the stack program; resolves to its outputs (secret ones stay secret). Nothing is declared
 * before the config is valid and every existing cluster answers.
 */
export async function runProgram(): Promise<Record<string, unknown>> {
  const config = new pulumi.Config(PROJECT);
  const raw = rawProjectConfig(pulumi.runtime.allConfig());
  let cfg: WfhConfig | FleetConfig | RegionConfig;
  try {
    cfg = validateConfig(raw, secretConfigKeys(), pulumi.getStack());
    const checks = clusterEndpointChecks(stackClusters(cfg), raw);
    if (cfg.program === "fleet" && cfg.karmada.mode === "existing") {
      const karmada = kubeconfigCheck(
        "karmada.kubeconfigPath",
        cfg.karmada.kubeconfigPath,
        cfg.karmada.kubeconfigSecret,
        raw,
      );
      if (karmada) checks.push(karmada);
    }
    const dead = await endpointProblems(checks);
    // `up` only: a preview fetches no chart, and must work on a machine that reaches no repository.
    const charts = pulumi.runtime.isDryRun() ? [] : await chartRepoProblems(chartRepoChecks(cfg));
    if (dead.length + charts.length > 0) throw new ConfigError([...dead, ...charts]);
  } catch (err) {
    // RunError prints the message alone (no stack trace): one line per problem.
    if (err instanceof ConfigError) throw new pulumi.RunError(err.message);
    throw err;
  }
  // Secret kubeconfigs: exactly the keys the validated config names, read as Pulumi secrets.
  const secrets: Record<string, pulumi.Output<string>> = {};
  for (const c of stackClusters(cfg))
    if (c.kubeconfigSecretKey) secrets[c.kubeconfigSecretKey] = config.requireSecret(c.kubeconfigSecretKey);
  const registryMirror = cfg.registryMirror;
  if (cfg.program === "wfh") return { program: cfg.program, ...wfhStack(cfg, { secrets, registryMirror }) };
  if (cfg.program === "region") return { program: cfg.program, ...regionStack(cfg, { secrets, registryMirror }) };
  if (cfg.karmada.kubeconfigSecret)
    secrets[cfg.karmada.kubeconfigSecret] = config.requireSecret(cfg.karmada.kubeconfigSecret);
  const secretObjects: Record<string, pulumi.Output<unknown>> = {};
  for (const f of cfg.federatedIrisClusters)
    if (f.licenseKeyConfig) secretObjects[f.licenseKeyConfig] = config.requireSecret(f.licenseKeyConfig);
  for (const s of cfg.fleetSecrets) secretObjects[s.dataKey] = config.requireSecretObject(s.dataKey);
  for (const k of fleetTlsSecretKeys(cfg.fleetTls)) secretObjects[k] = config.requireSecret(k);
  return { program: cfg.program, ...fleetStack(cfg, { secrets, secretObjects, registryMirror }) };
}
