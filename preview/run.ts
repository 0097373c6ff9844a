/**
 * `npm run preview:pr -- --base <ref> [--stacks lab-wfh,lab-fleet] [--out file.md]`: deploys the
 * base ref into a fresh lab, previews the working tree against it, and writes a Markdown summary
 * for a pull-request comment (preview/markdown.ts). Prints the summary's path.
 *
 * Steps: `git worktree add` of the base in a temporary folder (node_modules linked from this
 * checkout unless package-lock.json differs, then `npm ci`); a fresh lab in its own folder with
 * just the clusters the stacks name; per stack, `pulumi up` from the base worktree into a
 * temporary file:// backend, then `pulumi preview --diff --json` from the working tree against the
 * same backend. Both sides use generated stack config files (lab paths pointed at the new lab,
 * generated lab secrets, one passphrase salt), passed with `--config-file`, so no tracked file is
 * touched. The lab, the worktree and the temporary folder are removed whatever happens.
 * Exit code: 0 when every stack previewed, 1 otherwise (the summary is written either way).
 */
import * as child from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { StackFileDoc, readStackFile } from "../scripts/stack-config";
import { stackFilePath } from "../scripts/stack-files";
import { binDirFromEnv } from "../testbed/lab/src/config";
import { LabSecretKey, labNeeds, labSecretKeys, parsePreviewArgs, rewriteLabPaths } from "./lab-config";
import { renderMarkdown } from "./markdown";
import { StackSummary, parsePreviewJson, summarizeStack } from "./summary";
import { fileBackendUrl } from "./backend";

/** This checkout (the tool's own lab scripts and shims live here). */
const TOOL = path.resolve(__dirname, "..");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  echo?: boolean;
}

/** Runs one command to its end (a test passes a fake in `Deps`). */
export type Runner = (cmd: string, args: string[], opts: RunOptions) => Promise<Run>;

/** Runs a command, collecting its output; `echo` copies it to stderr as it comes. */
export function spawnRun(cmd: string, args: string[], opts: RunOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = child.spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    p.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    p.on("error", reject);
    p.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The last `lines` lines of a command's stdout then stderr. */
export function tail(r: Run, lines = 40): string {
  return (r.stdout + "\n" + r.stderr).trim().split("\n").slice(-lines).join("\n");
}

/** A runner that throws, naming the command and its output's tail, when the command fails. */
export function okRunner(run: Runner): Runner {
  return async (cmd, args, opts) => {
    const r = await run(cmd, args, opts);
    if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.code}:\n${tail(r)}`);
    return r;
  };
}

const started = Date.now();
const stderrLog = (msg: string) =>
  process.stderr.write(`preview:pr [${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);

/** What `main` does to the outside world besides files: commands, progress lines, stdout, exit. */
export interface Deps {
  run: Runner;
  log: (msg: string) => void;
  print: (line: string) => void;
  exit: (code: number) => void;
}

const DEFAULT_DEPS: Deps = {
  run: spawnRun,
  log: stderrLog,
  print: (line) => console.log(line),
  exit: (code) => process.exit(code),
};

/** A stack file as this command reads it (scripts/stack-config.ts reads it for every command too). */
export type StackFile = StackFileDoc;
export { readStackFile };

/** A fresh value for a lab secret: text, or a JSON object with one `password` for `json` keys. */
export function secretValue(s: LabSecretKey): string {
  const v = `lab-${s.key}-${crypto.randomBytes(12).toString("hex")}`;
  return s.shape === "json" ? JSON.stringify({ password: v }) : v;
}

/**
 * Runs `pulumi` with the lab's CLI and plugins, a temporary backend and home, nothing downloaded,
 * and its own TMPDIR under `tmp`: the Kubernetes provider writes each provider's kubeconfig (the
 * credentials included) to a temporary file at every start and never removes it, so it goes where
 * the run's clean-up removes it.
 */
export function pulumiEnv(tmp: string, passphrase: string, binDir = binDirFromEnv()): NodeJS.ProcessEnv {
  const home = path.join(tmp, "pulumi-home");
  const backend = path.join(tmp, "backend");
  const osTmp = path.join(tmp, "os-tmp");
  for (const dir of [home, backend, osTmp]) fs.mkdirSync(dir, { recursive: true });
  return {
    ...process.env,
    TMPDIR: osTmp,
    PATH: [binDir, path.join(TOOL, "testbed", "lab", "shims"), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: fileBackendUrl(backend),
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_CONFIG_PASSPHRASE_FILE: "",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    NO_COLOR: "1",
  };
}

export async function main(argv: string[], deps: Partial<Deps> = {}): Promise<number> {
  const { run, log, print, exit } = { ...DEFAULT_DEPS, ...deps };
  const ok = okRunner(run);
  const args = parsePreviewArgs(argv);
  const repo = (await ok("git", ["rev-parse", "--show-toplevel"], { cwd: process.cwd() })).stdout.trim();
  const baseSha = (await ok("git", ["rev-parse", "--verify", `${args.base}^{commit}`], { cwd: repo })).stdout.trim();
  const headSha = (await ok("git", ["rev-parse", "HEAD"], { cwd: repo })).stdout.trim();
  const dirty =
    (await ok("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: repo })).stdout.trim() !== "";
  const out = path.resolve(repo, args.out ?? path.join(".iko-plus", "preview", "summary.md"));

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-preview-"));
  const labDir = path.resolve(args.labDir ?? path.join(tmp, "lab"));
  const worktree = path.join(tmp, "base");
  const cleanups: (() => Promise<void>)[] = [async () => fs.rmSync(tmp, { recursive: true, force: true })];
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        log(`cleanup: ${(e as Error).message}`);
      }
    }
  };
  const onSignal = (sig: NodeJS.Signals) => {
    log(`${sig}: tearing down`);
    void cleanup().then(() => exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const passphrase = crypto.randomBytes(18).toString("base64");
  const redact = [passphrase];
  const summaries: StackSummary[] = [];
  try {
    log(`base ${args.base} = ${baseSha.slice(0, 12)}; worktree in ${worktree}`);
    cleanups.push(async () => {
      await run("git", ["worktree", "remove", "--force", worktree], { cwd: repo });
      await run("git", ["worktree", "prune"], { cwd: repo });
    });
    await ok("git", ["worktree", "add", "--detach", worktree, baseSha], { cwd: repo });
    const lock = (dir: string) => {
      try {
        return fs.readFileSync(path.join(dir, "package-lock.json"), "utf8");
      } catch {
        return undefined;
      }
    };
    const present = (p: string) => {
      try {
        fs.lstatSync(p);
        return true;
      } catch {
        return false;
      }
    };
    if (present(path.join(worktree, "node_modules"))) {
      log("the base worktree has its own node_modules");
    } else if (
      lock(repo) !== undefined &&
      lock(repo) === lock(worktree) &&
      fs.existsSync(path.join(repo, "node_modules"))
    ) {
      fs.symlinkSync(path.join(repo, "node_modules"), path.join(worktree, "node_modules"), "dir");
    } else {
      log("package-lock.json differs from the base: npm ci in the base worktree");
      await ok("npm", ["ci", "--no-audit", "--no-fund"], { cwd: worktree });
    }

    const files = args.stacks.map((s) => ({
      stack: s,
      // Wherever each side keeps it (the root, examples/*/ or testbed/stacks/).
      base: readStackFile(stackFilePath(worktree, s)),
      head: readStackFile(stackFilePath(repo, s)),
    }));
    const need = labNeeds(files.flatMap((f) => [f.base?.config ?? {}, f.head?.config ?? {}]));
    log(`lab in ${labDir}: members [${need.members.join(", ")}]${need.karmada ? " + karmada" : ""}`);
    const labEnv = {
      ...process.env,
      IKO_LAB_DIR: labDir,
      IKO_LAB_MEMBERS: need.members.join(","),
      IKO_LAB_KARMADA: need.karmada ? "1" : "0",
    };
    const labCli = (cmd: string) => [
      `-r`,
      `ts-node/register/transpile-only`,
      path.join(TOOL, "testbed", "lab", "src", "cli.ts"),
      cmd,
    ];
    cleanups.push(async () => {
      await run(process.execPath, labCli("down"), { cwd: TOOL, env: labEnv });
    });
    if (need.members.length || need.karmada) await ok(process.execPath, labCli("up"), { cwd: TOOL, env: labEnv });

    const env = pulumiEnv(tmp, passphrase);
    const values = new Map<string, string>();
    const valueOf = (s: LabSecretKey) => {
      if (!values.has(s.key)) {
        values.set(s.key, secretValue(s));
        redact.push(values.get(s.key) as string);
      }
      return values.get(s.key) as string;
    };
    for (const f of files) {
      summaries.push(await previewStack(f, { env, tmp, worktree, repo, labDir, valueOf, run, log }));
    }
  } catch (e) {
    summaries.push({
      stack: "(preview)",
      counts: { create: 0, update: 0, replace: 0, delete: 0, same: 0 },
      destructive: [],
      resources: [],
      errors: [(e as Error).message],
    });
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    log("tearing down the lab and the worktree");
    await cleanup();
  }

  const intro =
    `Base \`${args.base}\` (\`${baseSha.slice(0, 12)}\`) deployed into a fresh lab, then the working tree ` +
    `(\`${headSha.slice(0, 12)}\`${dirty ? " with uncommitted changes" : ""}) previewed against it with \`pulumi preview --diff --json\`. ` +
    "Changed properties are listed by path; secret values are never shown. Stack outputs are not compared.";
  const title = `Pulumi preview: ${args.stacks.map((s) => `\`${s}\``).join(", ")}`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, renderMarkdown(summaries, { title, intro, redact, maxChars: args.maxChars }));
  fs.writeFileSync(
    out.replace(/(\.md)?$/, "-full.md"),
    renderMarkdown(summaries, { title, intro, redact, maxChars: Number.MAX_SAFE_INTEGER }),
  );
  print(out);
  return summaries.some((s) => s.errors.length) ? 1 : 0;
}

interface StackContext {
  env: NodeJS.ProcessEnv;
  tmp: string;
  worktree: string;
  repo: string;
  labDir: string;
  valueOf: (s: LabSecretKey) => string;
  run: Runner;
  log: (msg: string) => void;
}

/** Deploys one stack from the base worktree, previews the working tree against it, summarizes. */
async function previewStack(
  f: { stack: string; base?: StackFile; head?: StackFile },
  c: StackContext,
): Promise<StackSummary> {
  const { run, log } = c;
  const ok = okRunner(run);
  const failed = (msg: string): StackSummary => ({
    stack: f.stack,
    counts: { create: 0, update: 0, replace: 0, delete: 0, same: 0 },
    destructive: [],
    resources: [],
    errors: [msg],
  });
  if (!f.head) return failed(`the working tree has no Pulumi.${f.stack}.yaml`);
  const initDir = path.join(c.tmp, `init-${f.stack}`);
  fs.mkdirSync(initDir);
  fs.copyFileSync(path.join(c.repo, "Pulumi.yaml"), path.join(initDir, "Pulumi.yaml"));
  await ok("pulumi", ["stack", "init", f.stack, "--secrets-provider", "passphrase", "--non-interactive"], {
    cwd: initDir,
    env: c.env,
  });
  const salt = readStackFile(path.join(initDir, `Pulumi.${f.stack}.yaml`))?.encryptionsalt;
  const configFile = async (side: "base" | "head", file: StackFile): Promise<string> => {
    const p = path.join(c.tmp, `${f.stack}.${side}.yaml`);
    const config = rewriteLabPaths(file.config ?? {}, c.labDir);
    fs.writeFileSync(p, YAML.stringify({ ...(salt ? { encryptionsalt: salt } : {}), config }));
    for (const s of labSecretKeys(config)) {
      await ok(
        "pulumi",
        ["config", "set", "--secret", s.key, c.valueOf(s), "--stack", f.stack, "--config-file", p, "--non-interactive"],
        { cwd: initDir, env: c.env },
      );
    }
    return p;
  };
  if (f.base) {
    const baseCfg = await configFile("base", f.base);
    log(`${f.stack}: pulumi up of the base`);
    const up = await run(
      "pulumi",
      [
        "up",
        "--yes",
        "--skip-preview",
        "--stack",
        f.stack,
        "--config-file",
        baseCfg,
        "--non-interactive",
        "--color",
        "never",
      ],
      { cwd: c.worktree, env: c.env },
    );
    if (up.code !== 0)
      return failed(
        `pulumi up of the base failed (exit ${up.code}), so there is nothing to compare against:\n${tail(up, 30)}`,
      );
  } else {
    log(`${f.stack}: the base has no Pulumi.${f.stack}.yaml; previewing against an empty stack`);
  }
  const headCfg = await configFile("head", f.head);
  log(`${f.stack}: pulumi preview --diff --json of the working tree`);
  const pv = await run(
    "pulumi",
    [
      "preview",
      "--diff",
      "--json",
      "--stack",
      f.stack,
      "--config-file",
      headCfg,
      "--non-interactive",
      "--color",
      "never",
    ],
    { cwd: c.repo, env: c.env },
  );
  let summary: StackSummary;
  try {
    summary = summarizeStack(f.stack, parsePreviewJson(pv.stdout));
  } catch (e) {
    return failed(`pulumi preview exited ${pv.code}; ${(e as Error).message}\n${tail(pv, 30)}`);
  }
  if (pv.code !== 0 && !summary.errors.length)
    summary.errors.push(`pulumi preview exited ${pv.code}:\n${tail(pv, 30)}`);
  return summary;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`preview:pr: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
