/**
 * Lab lifecycle: up (start members + Karmada, record everything in state.json), down (stop exactly
 * the recorded PIDs, verify, wipe the lab folder) and status (liveness, readiness, memory).
 */
import * as fs from "fs";
import * as path from "path";
import { KARMADA_BINARIES, LabConfig, LabError, MEMBER_BINARIES, binary } from "./config";
import { Ctx } from "./controlplane";
import { startKarmada } from "./karmada";
import { startMember } from "./member";
import { requireOpenssl } from "./pki";
import { abortWaits, httpGet, isAlive, rssKiB, stopProcesses } from "./proc";
import { LabState, ProcessRecord, statePath, tryReadLabState, writeLabState } from "./state";

/** A file marking a folder as a lab folder: `down` and `up` only ever wipe folders that hold it. */
const MARKER = ".iko-lab";

function isLabDir(dir: string): boolean {
  return fs.existsSync(path.join(dir, MARKER)) || fs.existsSync(statePath(dir));
}

function wipe(dir: string): void {
  if (!fs.existsSync(dir)) return;
  if (!isLabDir(dir)) throw new LabError(`${dir} exists but is not a lab folder (no ${MARKER}); refusing to delete it`);
  fs.rmSync(dir, { recursive: true, force: true });
}

const elapsed = (t0: number): string => `${((Date.now() - t0) / 1000).toFixed(1)}s`;

/** Runs tasks with at most `limit` at once; rejects with the first error after all have settled. */
async function pool(limit: number, tasks: (() => Promise<void>)[], onFirstError: (e: unknown) => void): Promise<void> {
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const worker = async (): Promise<void> => {
    while (!failed && next < tasks.length) {
      const task = tasks[next++];
      try {
        await task();
      } catch (e) {
        if (!failed) {
          failed = true;
          firstError = e;
          onFirstError(e);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (failed) throw firstError;
}

export async function up(cfg: LabConfig, log: (msg: string) => void): Promise<LabState> {
  const t0 = Date.now();
  requireOpenssl();
  const needed = new Set([...(cfg.members.length ? MEMBER_BINARIES : []), ...(cfg.karmada ? KARMADA_BINARIES : [])]);
  const bins = new Map([...needed].map((n) => [n, binary(cfg.binDir, n)]));

  const old = tryReadLabState(cfg.labDir);
  if (old) {
    const alive = old.processes.filter(isAlive);
    if (alive.length) {
      throw new LabError(
        `a lab is already ${old.status} at ${cfg.labDir} (${alive.length} of its processes alive): ` +
          "run `npm run lab:down` first (or set IKO_LAB_DIR to another folder)",
      );
    }
    log(`removing a stale lab folder (${old.status}, no live processes): ${cfg.labDir}`);
  }
  wipe(cfg.labDir);
  fs.mkdirSync(cfg.labDir, { recursive: true });
  fs.writeFileSync(path.join(cfg.labDir, MARKER), "iko-plus fleet lab; `npm run lab:down` removes this folder\n");

  const state: LabState = {
    version: 1,
    labDir: cfg.labDir,
    binDir: cfg.binDir,
    status: "starting",
    startedAt: new Date().toISOString(),
    members: [],
    processes: [],
  };
  writeLabState(state);
  let aborted = false;
  const ctx: Ctx = {
    cfg,
    bin: (n) => bins.get(n) ?? binary(cfg.binDir, n),
    record: (rec: ProcessRecord) => {
      state.processes.push(rec);
      writeLabState(state);
      if (aborted) {
        void stopProcesses([rec], 2000);
        throw new LabError(`${rec.owner}/${rec.component}: lab start aborted`);
      }
    },
    log: (msg) => log(`[${elapsed(t0)}] ${msg}`),
  };
  const abort = (e?: unknown): void => {
    aborted = true;
    abortWaits(e instanceof Error ? e.message.split("\n")[0] : "interrupted");
    void stopProcesses(state.processes.slice(), 2000);
  };
  let interruptedBy: string | undefined;
  const onSignal = (sig: NodeJS.Signals): void => {
    interruptedBy = sig;
    log(`${sig}: stopping what was started`);
    abort(new LabError(`interrupted by ${sig}`));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const tasks: (() => Promise<void>)[] = [];
  if (cfg.karmada) {
    tasks.push(async () => {
      state.karmada = await startKarmada(ctx);
      writeLabState(state);
    });
  }
  for (const name of cfg.members) {
    tasks.push(async () => {
      const m = await startMember(ctx, name);
      state.members.push(m);
      state.members.sort((a, b) => cfg.members.indexOf(a.name) - cfg.members.indexOf(b.name));
      writeLabState(state);
    });
  }
  try {
    await pool(cfg.parallel, tasks, abort);
    if (aborted) throw new LabError("interrupted");
  } catch (e) {
    aborted = true;
    const left = await stopProcesses(state.processes, 5000);
    state.status = "failed";
    writeLabState(state);
    const tail = left.length ? `; could not stop pids ${left.map((r) => r.pid).join(", ")}` : "";
    const why = interruptedBy ? `interrupted by ${interruptedBy}` : (e as Error).message;
    throw new LabError(
      `lab up failed after ${elapsed(t0)}: ${why}\n` +
        `stopped the ${state.processes.length} processes it had started${tail}; logs kept under ${cfg.labDir} ` +
        "(`npm run lab:down` removes them)",
    );
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
  state.status = "running";
  state.upSeconds = Math.round((Date.now() - t0) / 100) / 10;
  writeLabState(state);
  return state;
}

export interface DownResult {
  stopped: number;
  seconds: number;
  found: boolean;
}

export async function down(labDir: string): Promise<DownResult> {
  const t0 = Date.now();
  const state = tryReadLabState(labDir);
  if (!state) {
    const found = fs.existsSync(labDir);
    wipe(labDir);
    return { stopped: 0, seconds: (Date.now() - t0) / 1000, found };
  }
  const alive = state.processes.filter(isAlive);
  const left = await stopProcesses(alive, 15000);
  if (left.length) {
    throw new LabError(
      `could not stop: ${left.map((r) => `${r.owner}/${r.component} pid ${r.pid}`).join(", ")}; lab folder kept`,
    );
  }
  wipe(labDir);
  return { stopped: alive.length, seconds: (Date.now() - t0) / 1000, found: true };
}

export interface StatusRow {
  owner: string;
  component: string;
  pid: number;
  alive: boolean;
  rssMiB: number;
}

export interface LabStatus {
  state?: LabState;
  rows: StatusRow[];
  totalRssMiB: number;
  /** server URL -> "ok" or a complaint (GET /readyz with the admin cert). */
  readiness: Record<string, string>;
  healthy: boolean;
}

export async function status(labDir: string): Promise<LabStatus> {
  const state = tryReadLabState(labDir);
  if (!state) return { rows: [], totalRssMiB: 0, readiness: {}, healthy: false };
  const rows = state.processes.map((r) => {
    const alive = isAlive(r);
    return { owner: r.owner, component: r.component, pid: r.pid, alive, rssMiB: alive ? rssKiB(r.pid) / 1024 : 0 };
  });
  const readiness: Record<string, string> = {};
  const clusters = [...state.members, ...(state.karmada ? [state.karmada] : [])];
  await Promise.all(
    clusters.map(async (c) => {
      const pki = path.join(c.dir, "pki");
      try {
        const r = await httpGet(`${c.server}/readyz`, {
          ca: c.caFile,
          cert: path.join(pki, "admin.crt"),
          key: path.join(pki, "admin.key"),
        });
        readiness[c.name] = r.status === 200 ? "ok" : `HTTP ${r.status}`;
      } catch (e) {
        readiness[c.name] = (e as Error).message;
      }
    }),
  );
  const totalRssMiB = rows.reduce((s, r) => s + r.rssMiB, 0);
  const healthy =
    state.status === "running" && rows.every((r) => r.alive) && Object.values(readiness).every((v) => v === "ok");
  return { state, rows, totalRssMiB, readiness, healthy };
}
