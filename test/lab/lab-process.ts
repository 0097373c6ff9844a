/**
 * Stopping and restarting one process of the running lab (e.g. a member's kube-apiserver, to make
 * the member not ready the way a region outage does). The restarted process replaces the old
 * record in <labdir>/state.json, so `npm run lab:down` still stops exactly what runs.
 */
import * as fs from "fs";
import { isAlive, startProcess, stopProcesses } from "../../testbed/lab/src/proc";
import { ProcessRecord, readLabState, writeLabState } from "../../testbed/lab/src/state";
import { labDir } from "./kube";

export interface StoppedProcess {
  record: ProcessRecord;
  /** The command line it ran with (/proc/<pid>/cmdline), to start it again the same way. */
  argv: string[];
}

/** Stops the lab's `<owner>/<component>` process (SIGTERM, then SIGKILL) and returns how to start it again. */
export async function stopLabProcess(owner: string, component: string): Promise<StoppedProcess> {
  const state = readLabState(labDir());
  const record = state.processes.find((p) => p.owner === owner && p.component === component);
  if (!record) throw new Error(`the lab at ${labDir()} has no process ${owner}/${component}`);
  if (!isAlive(record)) throw new Error(`${owner}/${component} (pid ${record.pid}) is not running`);
  const argv = fs
    .readFileSync(`/proc/${record.pid}/cmdline`, "utf8")
    .split("\0")
    .filter((a) => a.length > 0);
  const left = await stopProcesses([record]);
  if (left.length > 0) throw new Error(`${owner}/${component} (pid ${record.pid}) did not stop`);
  return { record, argv };
}

/** Starts a stopped process again with the same command line, ports and log, and records it. */
export function restartLabProcess(stopped: StoppedProcess): ProcessRecord {
  const { record, argv } = stopped;
  const started = startProcess({
    owner: record.owner,
    component: record.component,
    bin: argv[0],
    args: argv.slice(1),
    logFile: record.logFile,
    ports: record.ports,
  });
  const state = readLabState(labDir());
  state.processes = state.processes.map((p) =>
    p.pid === record.pid && p.owner === record.owner && p.component === record.component ? started : p,
  );
  writeLabState(state);
  return started;
}
