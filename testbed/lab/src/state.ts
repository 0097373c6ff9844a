/**
 * The running lab, as recorded in <labdir>/state.json: what integration tests import.
 *
 *   import { readLabState } from "../../testbed/lab/src/state";
 *   const lab = readLabState();            // throws LabError when no lab is up
 *   lab.members[0].kubeconfigPath; lab.karmada?.kubeconfigPath
 */
import * as fs from "fs";
import * as path from "path";
import { LabError, labDirFromEnv } from "./config";

/** One process the lab started. `startTicks` (field 22 of /proc/<pid>/stat) guards against PID reuse. */
export interface ProcessRecord {
  /** Member name or "karmada". */
  owner: string;
  /** e.g. "etcd", "kube-apiserver", "karmada-webhook". */
  component: string;
  pid: number;
  startTicks: number;
  logFile: string;
  /** Ports it listens on, by role (e.g. { client: 40123, peer: 40124 }). */
  ports: Record<string, number>;
}

/** What a cluster (member or Karmada) offers its clients. */
export interface ClusterInfo {
  name: string;
  /** Folder: pki/, logs/, etcd data, kubeconfig. */
  dir: string;
  /** Admin kubeconfig (embedded client cert, O=system:masters), mode 0600; cluster/context/user = name. */
  kubeconfigPath: string;
  /** https://127.0.0.1:<port> */
  server: string;
  /** Context name inside the kubeconfig (same as name). */
  context: string;
  /** The cluster CA certificate file (PEM). */
  caFile: string;
  /** http://127.0.0.1:<port> of its etcd. */
  etcd: string;
}

export interface MemberInfo extends ClusterInfo {
  /** Simulated kwok Node names. */
  nodes: string[];
}

export interface KarmadaInfo extends ClusterInfo {
  /** https://127.0.0.1:<port> of karmada-aggregated-apiserver (cluster.karmada.io). */
  aggregatedApiserver: string;
  /** https://127.0.0.1:<port> of karmada-webhook. */
  webhook: string;
}

/** A process stopped on purpose (testbed/lab/src/control.ts), with the command line to start it again. */
export interface StoppedRecord extends ProcessRecord {
  /** Its command line, binary first. */
  argv: string[];
  stoppedAt: string;
}

export interface LabState {
  version: 1;
  labDir: string;
  binDir: string;
  /** "starting" while `up` runs, "running" after it succeeded, "failed" if it gave up. */
  status: "starting" | "running" | "failed";
  startedAt: string;
  /** Seconds `up` took, once running. */
  upSeconds?: number;
  members: MemberInfo[];
  karmada?: KarmadaInfo;
  processes: ProcessRecord[];
  /** Components stopped by `cli.ts stop` and not started again yet. */
  stopped?: StoppedRecord[];
}

export function statePath(labDir: string = labDirFromEnv()): string {
  return path.join(labDir, "state.json");
}

/** The state file's content, or undefined when there is none. */
export function tryReadLabState(labDir: string = labDirFromEnv()): LabState | undefined {
  const file = statePath(labDir);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as LabState;
  } catch {
    throw new LabError(`${file} is not valid JSON; run \`npm run lab:down\` to clear the lab`);
  }
}

/** The running lab (status "running"); a LabError naming `npm run lab:up` when there is none. */
export function readLabState(labDir: string = labDirFromEnv()): LabState {
  const state = tryReadLabState(labDir);
  if (!state) throw new LabError(`no lab at ${labDir} (no state.json): start one with \`npm run lab:up\``);
  if (state.status !== "running") {
    throw new LabError(
      `the lab at ${labDir} is "${state.status}", not running: \`npm run lab:down\`, then \`npm run lab:up\``,
    );
  }
  return state;
}

/** A member of the running lab by name. */
export function labMember(state: LabState, name: string): MemberInfo {
  const m = state.members.find((x) => x.name === name);
  if (!m)
    throw new LabError(`the lab has no member "${name}" (members: ${state.members.map((x) => x.name).join(", ")})`);
  return m;
}

/** Writes the state atomically (temp file + rename). */
export function writeLabState(state: LabState): void {
  const file = statePath(state.labDir);
  fs.mkdirSync(state.labDir, { recursive: true });
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
  fs.renameSync(tmp, file);
}
