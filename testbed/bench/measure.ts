/**
 * How the benchmarks measure on a shared, noisy machine: each sample records wall time beside the
 * CPU the measured side used (this process and the children it waited for, e.g. `pulumi` and its
 * plugins, or `kubectl`), the CPU the lab's servers used (kube-apiservers, Karmada), the CPU the
 * rest of the machine used meanwhile, the CPU the hypervisor took from this machine (steal), and
 * the load average. A reader can then tell a change of the code (CPU moves) from a busy machine
 * (others' CPU, steal and load move, wall time with them). `loopMs` times a fixed piece of work,
 * so runs on different days can be compared for the machine's own speed.
 * The summaries (min/median/max) and the ratio formatting are pure and tested.
 */
import * as fs from "fs";
import * as os from "os";
import { Worker } from "worker_threads";

/** One measured run. Times in seconds. */
export interface Sample {
  wall: number;
  /** CPU of this process and of the children it waited for during the run. */
  cpu: number;
  /** CPU of the lab's server processes (those whose command line names the lab folder). */
  labCpu: number;
  /** CPU the rest of the machine used during the run (all busy CPU minus the two above). */
  othersCpu: number;
  /** CPU time the hypervisor gave to other machines while this one had work (/proc/stat steal). */
  stolen: number;
  /** 1-minute load average at the end of the run. */
  load: number;
}

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function median(xs: number[]): number {
  if (xs.length === 0) throw new Error("median of no values");
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function spread(xs: number[]): Spread {
  return { min: Math.min(...xs), median: median(xs), max: Math.max(...xs) };
}

/** `median (min–max)` with `digits` decimals, e.g. `5.28 (5.01–6.03)`. */
export function formatSpread(xs: number[], digits = 2): string {
  const s = spread(xs);
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

/** The headings of the columns `sampleColumns` gives, after the row's name. */
export const SAMPLE_HEADINGS = [
  "wall s",
  "own CPU s",
  "lab servers' CPU s",
  "others' CPU s",
  "stolen by the host s",
  "load (1 min)",
] as const;

/** The columns of one measured row: wall, own CPU, lab CPU, others' CPU, steal, load, each as `formatSpread`. */
export function sampleColumns(samples: Sample[]): string[] {
  const col = (f: (s: Sample) => number, d = 2) => formatSpread(samples.map(f), d);
  return [
    col((s) => s.wall),
    col((s) => s.cpu),
    col((s) => s.labCpu),
    col((s) => s.othersCpu),
    col((s) => s.stolen),
    col((s) => s.load),
  ];
}

/** Ratio of two sides' medians of a field. */
export function medianRatio(top: Sample[], bottom: Sample[], field: keyof Sample = "wall"): number {
  return median(top.map((s) => s[field])) / median(bottom.map((s) => s[field]));
}

const TICKS = 100; // USER_HZ on Linux

function machineCpuFields(stat: string): number[] {
  const cpu = stat.split("\n").find((l) => l.startsWith("cpu "));
  if (!cpu) throw new Error("/proc/stat has no cpu line");
  return cpu.trim().split(/\s+/).slice(1).map(Number);
}

/** CPU seconds this machine's processors ran work so far (/proc/stat: all but idle, iowait and steal). */
export function machineBusySeconds(stat = fs.readFileSync("/proc/stat", "utf8")): number {
  const [user, nice, system, , , irq, softirq] = machineCpuFields(stat);
  return (user + nice + system + irq + softirq) / TICKS;
}

/** CPU seconds the hypervisor took from this machine so far (/proc/stat's steal; 0 where not given). */
export function machineStealSeconds(stat = fs.readFileSync("/proc/stat", "utf8")): number {
  return (machineCpuFields(stat)[7] ?? 0) / TICKS;
}

/**
 * Milliseconds one thread takes for a fixed piece of integer work (`iterations` xorshift steps):
 * the machine's own speed, printed beside the figures so runs on different days can be compared.
 */
export function loopMs(iterations = 100_000_000): number {
  const t0 = process.hrtime.bigint();
  let x = 2463534242;
  for (let i = 0; i < iterations; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (x === 0) throw new Error("xorshift reached 0"); // never: uses x so the loop is not optimised away
  return ms;
}

/** CPU seconds of this process plus the children it has waited for (/proc/self/stat utime..cstime). */
export function ownCpuSeconds(stat = fs.readFileSync("/proc/self/stat", "utf8")): number {
  // Fields after the command (which may hold spaces) start at the state letter (field 3).
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [utime, stime, cutime, cstime] = rest.slice(11, 15).map(Number);
  return (utime + stime + cutime + cstime) / TICKS;
}

/** CPU seconds so far of every process whose command line contains `marker` (the lab folder). */
export function processesCpuSeconds(marker: string): number {
  let total = 0;
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(rest[11]) + Number(rest[12])) / TICKS;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Runs `fn` and measures it; `labMarker` names the lab folder whose servers are counted apart. */
export async function measure<T>(labMarker: string, fn: () => Promise<T>): Promise<{ sample: Sample; value: T }> {
  const busy0 = machineBusySeconds();
  const steal0 = machineStealSeconds();
  const own0 = ownCpuSeconds();
  const lab0 = processesCpuSeconds(labMarker);
  const t0 = process.hrtime.bigint();
  const value = await fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = ownCpuSeconds() - own0;
  const labCpu = Math.max(0, processesCpuSeconds(labMarker) - lab0);
  const othersCpu = Math.max(0, machineBusySeconds() - busy0 - cpu - labCpu);
  const stolen = machineStealSeconds() - steal0;
  return { sample: { wall, cpu, labCpu, othersCpu, stolen, load: os.loadavg()[0] }, value };
}

/** A worker thread's source: `loopMs` itself (its text; it uses nothing outside it), posting its milliseconds. */
const LOOP_WORKER = `
const { parentPort, workerData } = require("worker_threads");
const loopMs = ${loopMs.toString()};
parentPort.postMessage({ ms: loopMs(workerData) });
`;

/** What the machine did while every core ran the loop: the wall time, and the share of it the host took. */
export interface CoresLoop {
  /** Milliseconds until the last core finished. */
  ms: number;
  /** Each worker's own milliseconds for the loop, one worker thread per core. */
  perCoreMs: number[];
  /** Share of the machine's CPU time in the loop that the hypervisor took (steal over busy + steal), 0 to 1. */
  stealShare: number;
}

/** Steal's share of the CPU time between two /proc/stat readings: stolen / (busy + stolen); 0 when nothing ran. */
export function stealShare(before: string, after: string): number {
  const stolen = machineStealSeconds(after) - machineStealSeconds(before);
  const busy = machineBusySeconds(after) - machineBusySeconds(before);
  return busy + stolen > 0 ? stolen / (busy + stolen) : 0;
}

/**
 * The loop on every core at once, each for `iterations` steps (about 3 s per core at 10^9 on this
 * machine): a machine whose host takes CPU from it shows here, where one thread for 0.3 s
 * (`loopMs`) fits between the host's interruptions.
 */
export async function coresLoop(iterations = 1_000_000_000, cores = os.cpus().length): Promise<CoresLoop> {
  const stat0 = fs.readFileSync("/proc/stat", "utf8");
  const t0 = process.hrtime.bigint();
  const perCoreMs = await Promise.all(
    Array.from(
      { length: cores },
      () =>
        new Promise<number>((resolve, reject) => {
          const w = new Worker(LOOP_WORKER, { eval: true, workerData: iterations });
          w.once("message", (m: { ms: number }) => resolve(m.ms));
          w.once("error", reject);
          w.once("exit", (code) => reject(new Error(`loop worker exited (${code}) before it reported`)));
        }),
    ),
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms, perCoreMs, stealShare: stealShare(stat0, fs.readFileSync("/proc/stat", "utf8")) };
}
