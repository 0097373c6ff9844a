/**
 * Fault injection on a running lab: stop one component (e.g. a member's kube-apiserver, or
 * Karmada's controller-manager) and start it again later with the same command line, so the same
 * port, certificates and etcd data serve again and every kubeconfig stays valid.
 *
 *   const s = await stopComponent(labDir, "ikoclone", "kube-apiserver");   // recorded in state.json
 *   await startComponent(labDir, "ikoclone", "kube-apiserver");            // waits until healthy
 *
 * The stopped component's command line is kept in state.json (`stopped`), so `start` works from
 * another process (`cli.ts stop ikoclone/kube-apiserver`, later `cli.ts start ikoclone/kube-apiserver`).
 * The new process replaces the old record, so `lab:down` still stops exactly what runs.
 */
import * as fs from "fs";
import * as path from "path";
import { LabError } from "./config";
import { http200, isAlive, startProcess, stopProcesses, waitFor } from "./proc";
import { ClusterInfo, LabState, ProcessRecord, StoppedRecord, readLabState, writeLabState } from "./state";

/**
 * Components that can be stopped and started again. They read everything from their command line
 * (no environment of their own: kwok needs KWOK_WORKDIR, and the environment is never stored).
 */
export const RESTARTABLE = [
  "kube-apiserver",
  "kube-controller-manager",
  "kube-scheduler",
  "karmada-controller-manager",
  "karmada-scheduler",
  "karmada-webhook",
  "karmada-aggregated-apiserver",
];

/** "<owner>/<component>" (e.g. "ikoclone/kube-apiserver") split, or a LabError naming the form. */
export function parseComponent(spec: string): { owner: string; component: string } {
  const m = /^([a-z0-9-]+)\/([a-z0-9-]+)$/.exec(spec);
  if (!m) throw new LabError(`"${spec}": expected <member or karmada>/<component>, e.g. ikoclone/kube-apiserver`);
  return { owner: m[1], component: m[2] };
}

function findRecord(state: LabState, owner: string, component: string): ProcessRecord {
  const rec = state.processes.find((p) => p.owner === owner && p.component === component);
  if (!rec) {
    const known = [...new Set(state.processes.map((p) => `${p.owner}/${p.component}`))].join(", ");
    throw new LabError(`the lab at ${state.labDir} has no process ${owner}/${component} (it has: ${known})`);
  }
  return rec;
}

function clusterOf(state: LabState, owner: string): ClusterInfo {
  const c = owner === state.karmada?.name ? state.karmada : state.members.find((m) => m.name === owner);
  if (!c) throw new LabError(`the lab has no cluster "${owner}"`);
  return c;
}

/** The probe that says a (re)started component serves again. */
function readiness(state: LabState, rec: ProcessRecord): (() => Promise<true | string>) | undefined {
  const c = clusterOf(state, rec.owner);
  const pki = path.join(c.dir, "pki");
  if (rec.component === "kube-apiserver") {
    return http200(`${c.server}/readyz`, {
      ca: c.caFile,
      cert: path.join(pki, "admin.crt"),
      key: path.join(pki, "admin.key"),
    });
  }
  if (rec.ports.health) return http200(`http://127.0.0.1:${rec.ports.health}/healthz`);
  if (rec.ports.secure) return http200(`https://127.0.0.1:${rec.ports.secure}/healthz`);
  return undefined;
}

/**
 * Stops `<owner>/<component>` (SIGTERM, SIGKILL after `graceMs`) and records how to start it again.
 * Fails when it is not running or not restartable.
 */
export async function stopComponent(
  labDir: string,
  owner: string,
  component: string,
  graceMs = 10000,
): Promise<StoppedRecord> {
  if (!RESTARTABLE.includes(component))
    throw new LabError(`${component} cannot be stopped and restarted (restartable: ${RESTARTABLE.join(", ")})`);
  const state = readLabState(labDir);
  const rec = findRecord(state, owner, component);
  if (!isAlive(rec)) throw new LabError(`${owner}/${component} (pid ${rec.pid}) is not running`);
  const argv = fs
    .readFileSync(`/proc/${rec.pid}/cmdline`, "utf8")
    .split("\0")
    .filter((a) => a.length > 0);
  const left = await stopProcesses([rec], graceMs);
  if (left.length) throw new LabError(`${owner}/${component} (pid ${rec.pid}) did not stop`);
  const stopped: StoppedRecord = { ...rec, argv, stoppedAt: new Date().toISOString() };
  const now = readLabState(labDir);
  now.stopped = [...(now.stopped ?? []).filter((s) => !(s.owner === owner && s.component === component)), stopped];
  writeLabState(now);
  return stopped;
}

/**
 * Starts a component `stopComponent` stopped, with the same command line, ports and log file;
 * waits until it serves again (kube-apiserver /readyz, a health port's /healthz) and returns its
 * new record. Fails when it was not stopped this way.
 */
export async function startComponent(
  labDir: string,
  owner: string,
  component: string,
  timeoutMs = 120000,
): Promise<ProcessRecord> {
  const state = readLabState(labDir);
  const stopped = (state.stopped ?? []).find((s) => s.owner === owner && s.component === component);
  if (!stopped)
    throw new LabError(
      `${owner}/${component} was not stopped by \`cli.ts stop\` (nothing recorded in ${state.labDir}/state.json)`,
    );
  const old = findRecord(state, owner, component);
  if (isAlive(old)) throw new LabError(`${owner}/${component} already runs (pid ${old.pid})`);
  const [bin, ...args] = stopped.argv;
  const rec = startProcess({ owner, component, bin, args, logFile: stopped.logFile, ports: stopped.ports });
  state.processes = state.processes.map((p) => (p === old ? rec : p));
  state.stopped = (state.stopped ?? []).filter((s) => s !== stopped);
  writeLabState(state);
  const probe = readiness(state, rec);
  if (probe) await waitFor(`${owner}/${component} serving again`, rec, timeoutMs, probe, 250);
  return rec;
}
