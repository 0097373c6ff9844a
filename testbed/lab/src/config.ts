/**
 * Lab settings from the environment, and where the lab's binaries live.
 *
 *   IKO_LAB_MEMBERS   comma list of member clusters (default ikohome,ikowork,ikofett,ikoclone,ikogke)
 *   IKO_LAB_KARMADA   0 = no Karmada control plane (default 1)
 *   IKO_LAB_DIR       lab folder (default <repo>/.lab)
 *   IKO_LAB_NODES     simulated kwok Nodes per member (default 1)
 *   IKO_LAB_BIN_DIR   binaries (default: what `bash testbed/lab/build.sh --print-bin-dir` prints)
 *   IKO_LAB_PARALLEL  members started at once (default 2: the machines have 2 cores)
 *   IKO_LAB_TIMEOUT   seconds each health wait may take (default 120)
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

/** The repository root (testbed/lab/src/../..). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");

export const DEFAULT_MEMBERS = ["ikohome", "ikowork", "ikofett", "ikoclone", "ikogke"];

/** The Karmada control plane's name: its folder, kubeconfig cluster/context/user. */
export const KARMADA_NAME = "karmada";

export interface LabConfig {
  labDir: string;
  binDir: string;
  members: string[];
  karmada: boolean;
  nodesPerMember: number;
  parallel: number;
  /** Milliseconds a single health wait may take. */
  timeoutMs: number;
}

/** A lab problem worth a one-line message rather than a stack trace. */
export class LabError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LabError";
  }
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,46}[a-z0-9])?$/;

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new LabError(`${name}=${raw}: expected an integer >= ${min}`);
  return n;
}

/** The lab folder: IKO_LAB_DIR or <repo>/.lab. */
export function labDirFromEnv(): string {
  return path.resolve(process.env.IKO_LAB_DIR || path.join(REPO_ROOT, ".lab"));
}

/** The member names from IKO_LAB_MEMBERS, validated as Karmada cluster names (DNS labels, <= 48). */
export function membersFromEnv(): string[] {
  const raw = process.env.IKO_LAB_MEMBERS;
  const names =
    raw === undefined || raw.trim() === ""
      ? DEFAULT_MEMBERS
      : raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  const seen = new Set<string>();
  for (const n of names) {
    if (!DNS_LABEL.test(n)) throw new LabError(`IKO_LAB_MEMBERS: "${n}" is not a DNS label of at most 48 characters`);
    if (n === KARMADA_NAME)
      throw new LabError(`IKO_LAB_MEMBERS: "${KARMADA_NAME}" is reserved for the Karmada control plane`);
    if (seen.has(n)) throw new LabError(`IKO_LAB_MEMBERS: "${n}" is listed twice`);
    seen.add(n);
  }
  return names;
}

/** The binaries' folder: IKO_LAB_BIN_DIR, else `bash testbed/lab/build.sh --print-bin-dir`. */
export function binDirFromEnv(): string {
  if (process.env.IKO_LAB_BIN_DIR) return path.resolve(process.env.IKO_LAB_BIN_DIR);
  try {
    return execFileSync("bash", [path.join(REPO_ROOT, "testbed", "lab", "build.sh"), "--print-bin-dir"], {
      encoding: "utf8",
    }).trim();
  } catch {
    const cache = process.env.IKO_LAB_CACHE || path.join(process.env.HOME || "/root", ".cache", "iko-plus-lab");
    return path.join(cache, "current");
  }
}

export function loadConfig(): LabConfig {
  return {
    labDir: labDirFromEnv(),
    binDir: binDirFromEnv(),
    members: membersFromEnv(),
    karmada: process.env.IKO_LAB_KARMADA !== "0",
    nodesPerMember: intEnv("IKO_LAB_NODES", 1, 1),
    parallel: intEnv("IKO_LAB_PARALLEL", 2, 1),
    timeoutMs: intEnv("IKO_LAB_TIMEOUT", 120, 5) * 1000,
  };
}

/** The path of a built binary; a clear error naming the build command when it is missing. */
export function binary(binDir: string, name: string): string {
  const p = path.join(binDir, name);
  try {
    fs.accessSync(p, fs.constants.X_OK);
  } catch {
    throw new LabError(
      `binary ${name} not found (or not executable) at ${p}: build it with \`bash testbed/lab/build.sh ${name}\``,
    );
  }
  return p;
}

/** Binaries each part of the lab needs, checked before anything starts. */
export const MEMBER_BINARIES = ["etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"];
export const KARMADA_BINARIES = [
  "etcd",
  "kube-apiserver",
  "kube-controller-manager",
  "karmada-aggregated-apiserver",
  "karmada-webhook",
  "karmada-controller-manager",
  "karmada-scheduler",
];
