/**
 * Runs the real `pulumi` CLI (built by testbed/lab/build.sh) against a throw-away file:// backend, with
 * ambient plugins only: nothing is downloaded.
 */
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { fileBackendUrl } from "../../preview/backend";
import { recordRun } from "./transcript";

export const REPO = path.resolve(__dirname, "../..");

/** The folder of the lab's built binaries. */
export function labBinDir(): string {
  const cache = process.env.IKO_LAB_CACHE ?? path.join(os.homedir(), ".cache", "iko-plus-lab");
  return path.join(cache, "current");
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A `pulumi` run in progress (PulumiCli.start). */
export interface RunningPulumi {
  pid: number;
  /** stdout and stderr so far, interleaved as they arrived. */
  output(): string;
  signal(sig: NodeJS.Signals): boolean;
  done: Promise<RunResult>;
}

export class PulumiCli {
  readonly backendDir: string;
  readonly env: NodeJS.ProcessEnv;

  /**
   * @param passphrase the stack's secrets passphrase
   * @param cliDir a folder whose `pulumi` runs instead of the lab's (the plugins stay the lab's),
   *   e.g. a newer CLI measured side by side in testbed/bench/
   */
  constructor(
    readonly passphrase = "lab-test-passphrase",
    cliDir?: string,
  ) {
    this.backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-backend-"));
    const home = path.join(this.backendDir, ".pulumi-home");
    fs.mkdirSync(home);
    // The Kubernetes provider writes its kubeconfig (credentials included) to a temporary file at
    // every start and never removes it: give the run a TMPDIR that dispose() removes.
    const osTmp = path.join(this.backendDir, ".tmp");
    fs.mkdirSync(osTmp);
    this.env = {
      ...process.env,
      TMPDIR: osTmp,
      PATH: [
        ...(cliDir ? [cliDir] : []),
        labBinDir(),
        path.join(REPO, "testbed", "lab", "shims"),
        process.env.PATH ?? "",
      ].join(path.delimiter),
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: fileBackendUrl(this.backendDir),
      PULUMI_CONFIG_PASSPHRASE: passphrase,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      // As scripts/pulumi.sh: Pulumi's default (4 x CPUs) queues independent members on small machines.
      PULUMI_PARALLEL: process.env.PULUMI_PARALLEL ?? "64",
      NO_COLOR: "1",
    };
  }

  /**
   * Runs `pulumi <args>` in the project (or in `opts.cwd`, e.g. another Pulumi project's folder);
   * resolves with the result whatever the exit code.
   */
  run(args: string[], opts: { input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const proc = child.spawn("pulumi", [...args, "--non-interactive", "--color", "never"], {
        cwd: opts.cwd ?? REPO,
        env: this.env,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      proc.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
      });
      proc.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
      });
      const timer = setTimeout(() => proc.kill("SIGINT"), opts.timeoutMs ?? 10 * 60_000);
      proc.on("error", reject);
      proc.on("close", (code) => {
        clearTimeout(timer);
        const res = { code: code ?? 1, stdout, stderr };
        recordRun(this, args, res);
        resolve(res);
      });
      proc.stdin.end(opts.input ?? "");
    });
  }

  /**
   * Starts `pulumi <args>` and returns at once: `output()` is stdout+stderr so far (to act while it
   * runs, e.g. stop a cluster when a resource shows up), `signal()` sends a signal, `done` resolves
   * with the result whatever the exit code.
   */
  start(args: string[], opts: { cwd?: string } = {}): RunningPulumi {
    const proc = child.spawn("pulumi", [...args, "--non-interactive", "--color", "never"], {
      cwd: opts.cwd ?? REPO,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let all = "";
    proc.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      all += d.toString();
    });
    proc.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      all += d.toString();
    });
    const done = new Promise<RunResult>((resolve, reject) => {
      proc.on("error", reject);
      proc.on("close", (code, sig) => {
        const res = { code: code ?? (sig ? 128 : 1), stdout, stderr };
        recordRun(this, args, res);
        resolve(res);
      });
    });
    return { pid: proc.pid ?? -1, output: () => all, signal: (sig) => proc.kill(sig), done };
  }

  /** Runs `pulumi <args>` and fails with the output's tail when it exits non-zero. */
  async ok(args: string[], opts: { input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<RunResult> {
    const res = await this.run(args, opts);
    if (res.code !== 0) {
      const tail = (res.stdout + "\n" + res.stderr).split("\n").slice(-60).join("\n");
      throw new Error(`pulumi ${args.join(" ")} exited ${res.code}:\n${tail}`);
    }
    return res;
  }

  /** Removes the backend folder (stacks must have been destroyed by the test). */
  dispose(): void {
    fs.rmSync(this.backendDir, { recursive: true, force: true });
  }
}
