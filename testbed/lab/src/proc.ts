/**
 * Processes: free loopback ports, detached starts with log files, health waits that explain
 * failures (component, port, log tail), and stopping exactly the recorded PIDs.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as http from "http";
import * as https from "https";
import * as net from "net";
import * as path from "path";
import { LabError } from "./config";
import { ProcessRecord } from "./state";

const handedOut = new Set<number>();

/** A free 127.0.0.1 port: bind port 0, read it, close. Never hands the same port out twice per run. */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.unref();
      srv.on("error", reject);
      srv.listen({ host: "127.0.0.1", port: 0, exclusive: true }, () => {
        const addr = srv.address() as net.AddressInfo;
        srv.close(() => resolve(addr.port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new LabError("could not find a free port on 127.0.0.1");
}

/** Field 22 (starttime, clock ticks since boot) of /proc/<pid>/stat, or undefined if no such process. */
export function procStartTicks(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // comm (field 2) may hold spaces/parens: split after the last ")".
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (rest[0] === "Z" || rest[0] === "X") return undefined; // zombie/dead
    return Number(rest[19]);
  } catch {
    return undefined;
  }
}

/** True if the recorded process still runs (same PID and same start time). */
export function isAlive(rec: ProcessRecord): boolean {
  const ticks = procStartTicks(rec.pid);
  return ticks !== undefined && ticks === rec.startTicks;
}

/** Resident memory of a process in KiB (VmRSS), 0 if unknown. */
export function rssKiB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const exited = new Map<number, string>();
const children: ChildProcess[] = [];

export interface StartSpec {
  owner: string;
  component: string;
  bin: string;
  args: string[];
  logFile: string;
  ports: Record<string, number>;
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * Starts a process detached (own session and process group), stdout+stderr appended to its log
 * file, so it outlives this Node process. The command line goes to the log's first line.
 */
export function startProcess(spec: StartSpec): ProcessRecord {
  fs.mkdirSync(path.dirname(spec.logFile), { recursive: true });
  fs.appendFileSync(spec.logFile, `# ${new Date().toISOString()} ${spec.bin} ${spec.args.join(" ")}\n`);
  const fd = fs.openSync(spec.logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(spec.bin, spec.args, {
      detached: true,
      stdio: ["ignore", fd, fd],
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
    });
  } finally {
    fs.closeSync(fd);
  }
  if (child.pid === undefined) throw new LabError(`${spec.owner}/${spec.component}: could not start ${spec.bin}`);
  const pid = child.pid;
  child.on("exit", (code, signal) => exited.set(pid, signal ? `signal ${signal}` : `exit code ${code}`));
  child.on("error", (e) => exited.set(pid, e.message));
  child.unref();
  children.push(child);
  return {
    owner: spec.owner,
    component: spec.component,
    pid,
    startTicks: procStartTicks(pid) ?? 0,
    logFile: spec.logFile,
    ports: spec.ports,
  };
}

/** The last `n` lines of a log file, indented, for error messages. */
export function tailLog(file: string, n = 15): string {
  try {
    const lines = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    return lines
      .slice(-n)
      .map((l) => `    ${l.length > 400 ? l.slice(0, 400) + "…" : l}`)
      .join("\n");
  } catch {
    return "    (no log)";
  }
}

function describe(rec: ProcessRecord): string {
  const ports = Object.entries(rec.ports)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return `${rec.owner}/${rec.component} (pid ${rec.pid}${ports ? `, port ${ports}` : ""})`;
}

/** Why a started process is no longer running, or undefined while it runs. */
export function deathOf(rec: ProcessRecord): string | undefined {
  const how = exited.get(rec.pid);
  if (how) return how;
  return isAlive(rec) ? undefined : "exited";
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let abortReason: string | undefined;

/** Makes every pending and later wait of this run fail fast (a sibling start failed, or a signal). */
export function abortWaits(reason: string): void {
  abortReason = abortReason ?? reason;
}

/** Throws when the run was aborted. */
export function checkAborted(): void {
  if (abortReason) throw new LabError(`aborted: ${abortReason}`);
}

/**
 * Polls `probe` until it returns true; fails after `timeoutMs`, or at once when `rec` dies, with
 * the component, its ports, the probe's last complaint and the tail of its log.
 */
export async function waitFor(
  what: string,
  rec: ProcessRecord | undefined,
  timeoutMs: number,
  probe: () => Promise<true | string>,
  intervalMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "not checked yet";
  for (;;) {
    checkAborted();
    if (rec) {
      const death = deathOf(rec);
      if (death) {
        throw new LabError(
          `${describe(rec)} ${death} while waiting for ${what}\n  log ${rec.logFile}:\n${tailLog(rec.logFile)}`,
        );
      }
    }
    try {
      const r = await probe();
      if (r === true) return;
      last = r;
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() > deadline) {
      const who = rec ? `${describe(rec)}: ` : "";
      const log = rec ? `\n  log ${rec.logFile}:\n${tailLog(rec.logFile)}` : "";
      throw new LabError(
        `${who}timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${what} (last: ${last})${log}`,
      );
    }
    await sleep(intervalMs);
  }
}

export interface TlsFiles {
  ca?: string;
  cert?: string;
  key?: string;
}

/** GET a URL (http or https with optional client cert); resolves with status and body. */
export function httpGet(url: string, tls: TlsFiles = {}, timeoutMs = 3000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const opts: https.RequestOptions = { method: "GET", timeout: timeoutMs };
    if (u.protocol === "https:") {
      opts.ca = tls.ca ? fs.readFileSync(tls.ca) : undefined;
      opts.cert = tls.cert ? fs.readFileSync(tls.cert) : undefined;
      opts.key = tls.key ? fs.readFileSync(tls.key) : undefined;
      opts.rejectUnauthorized = Boolean(tls.ca);
    }
    const req = (u.protocol === "https:" ? https : http).request(u, opts, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}

/** A probe that wants HTTP 200 from `url`. */
export function http200(url: string, tls: TlsFiles = {}): () => Promise<true | string> {
  return async () => {
    const r = await httpGet(url, tls);
    return r.status === 200 ? true : `HTTP ${r.status} ${r.body.slice(0, 200).replace(/\s+/g, " ")}`;
  };
}

/**
 * Stops exactly the recorded processes: SIGTERM to those still running (same PID and start time),
 * then SIGKILL to survivors after `graceMs`. Returns the records that are still alive afterwards.
 */
export async function stopProcesses(recs: ProcessRecord[], graceMs = 10000): Promise<ProcessRecord[]> {
  const signal = (sig: NodeJS.Signals, list: ProcessRecord[]): void => {
    for (const r of list) {
      try {
        process.kill(r.pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  let alive = recs.filter(isAlive);
  signal("SIGTERM", alive);
  const deadline = Date.now() + graceMs;
  while (alive.length && Date.now() < deadline) {
    await sleep(100);
    alive = alive.filter(isAlive);
  }
  if (alive.length) {
    signal("SIGKILL", alive);
    const killDeadline = Date.now() + 5000;
    while (alive.length && Date.now() < killDeadline) {
      await sleep(100);
      alive = alive.filter(isAlive);
    }
  }
  return alive;
}
