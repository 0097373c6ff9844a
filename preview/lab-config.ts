/**
 * Pure: what the PR preview needs to know about a lab stack file (Pulumi.lab-*.yaml): which lab
 * clusters it names (`.lab/<name>/...` paths), the same config pointed at another lab folder, the
 * secret config keys it expects to be set, and the command's arguments.
 */
import * as path from "path";

/** The lab folder prefix committed lab stack files use (`npm run lab:up`'s default folder). */
export const LAB_PREFIX = ".lab/";
/** The Karmada control plane's folder name in a lab. */
export const KARMADA = "karmada";

type Json = unknown;

function walkStrings(v: Json, visit: (s: string) => string): Json {
  if (typeof v === "string") return visit(v);
  if (Array.isArray(v)) return v.map((x) => walkStrings(x, visit));
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v as Record<string, Json>).map(([k, x]) => [k, walkStrings(x, visit)]));
  }
  return v;
}

/** The lab clusters a stack config names through `.lab/<name>/…` paths, sorted. */
export function labClustersIn(config: Record<string, Json>): string[] {
  const names = new Set<string>();
  walkStrings(config, (s) => {
    if (s.startsWith(LAB_PREFIX)) {
      const name = s.slice(LAB_PREFIX.length).split("/")[0];
      if (name) names.add(name);
    }
    return s;
  });
  return [...names].sort();
}

/** The lab a set of stack configs needs: members (lab:up's IKO_LAB_MEMBERS) and whether Karmada runs. */
export function labNeeds(configs: Record<string, Json>[]): { members: string[]; karmada: boolean } {
  const all = new Set(configs.flatMap(labClustersIn));
  return { members: [...all].filter((n) => n !== KARMADA).sort(), karmada: all.has(KARMADA) };
}

/** The config with every `.lab/<rest>` string replaced by `<labDir>/<rest>` (labDir absolute). */
export function rewriteLabPaths(config: Record<string, Json>, labDir: string): Record<string, Json> {
  return walkStrings(config, (s) =>
    s.startsWith(LAB_PREFIX) ? path.join(labDir, s.slice(LAB_PREFIX.length)) : s,
  ) as Record<string, Json>;
}

/** A secret config key a stack config names, and the shape of value it needs. */
export interface LabSecretKey {
  /** Config key without the project namespace, e.g. `irisLicenseKey`. */
  key: string;
  /** `text`: any string (a license key); `json`: a JSON object of string values (fleet Secret data). */
  shape: "text" | "json";
}

/**
 * The secret config keys a stack config refers to by name: `federatedIrisClusters[].licenseKeyConfig`
 * (text) and `fleetSecrets[].dataKey` (JSON object), in the `iko-plus` namespace; keys the file
 * already sets are left out.
 */
export function labSecretKeys(config: Record<string, Json>, project = "iko-plus"): LabSecretKey[] {
  const out = new Map<string, LabSecretKey>();
  const list = (k: string) =>
    Array.isArray(config[`${project}:${k}`]) ? (config[`${project}:${k}`] as Record<string, Json>[]) : [];
  for (const f of list("federatedIrisClusters")) {
    if (typeof f?.licenseKeyConfig === "string")
      out.set(f.licenseKeyConfig, { key: f.licenseKeyConfig, shape: "text" });
  }
  for (const s of list("fleetSecrets")) {
    if (typeof s?.dataKey === "string") out.set(s.dataKey, { key: s.dataKey, shape: "json" });
  }
  return [...out.values()].filter((s) => !(`${project}:${s.key}` in config) && !(s.key in config));
}

export interface PreviewArgs {
  /** Git ref of the base (required). */
  base: string;
  /** Stacks to compare. Default: lab-wfh, lab-fleet. */
  stacks: string[];
  /** Markdown output file. Default: `.iko-plus/preview/summary.md` in the repository. */
  out?: string;
  /** Lab folder. Default: a new temporary folder. */
  labDir?: string;
  /** Largest summary in characters. Default: 60,000. */
  maxChars?: number;
}

export const USAGE =
  "usage: npm run preview:pr -- --base <git ref> [--stacks lab-wfh,lab-fleet] [--out <file.md>] [--lab-dir <dir>] [--max-chars <n>]";

/** Parses the command's arguments; throws one message naming the argument and the fix. */
export function parsePreviewArgs(argv: string[]): PreviewArgs {
  const args: Partial<PreviewArgs> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] =
      a.startsWith("--") && a.includes("=")
        ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
        : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "" || (inline === undefined && v.startsWith("--")))
        throw new Error(`${flag} needs a value; ${USAGE}`);
      return v;
    };
    switch (flag) {
      case "--base":
        args.base = value();
        break;
      case "--stacks": {
        const stacks = value()
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        const bad = stacks.find((s) => !/^[A-Za-z0-9_.-]+$/.test(s));
        if (bad !== undefined)
          throw new Error(`--stacks: "${bad}" is not a stack name (letters, digits, "-", "_", ".")`);
        args.stacks = [...new Set(stacks)];
        break;
      }
      case "--out":
        args.out = value();
        break;
      case "--lab-dir":
        args.labDir = value();
        break;
      case "--max-chars": {
        const raw = value();
        const n = Number(raw);
        if (!Number.isInteger(n) || n < 2_000 || n > 65_536)
          throw new Error(`--max-chars ${raw}: expected an integer from 2000 to 65536 (GitHub's comment limit)`);
        args.maxChars = n;
        break;
      }
      default:
        throw new Error(`unknown argument "${a}"; ${USAGE}`);
    }
  }
  if (!args.base) throw new Error(`--base is required (the git ref to compare against, e.g. origin/main); ${USAGE}`);
  return {
    base: args.base,
    stacks: args.stacks?.length ? args.stacks : ["lab-wfh", "lab-fleet"],
    out: args.out,
    labDir: args.labDir,
    maxChars: args.maxChars,
  };
}
