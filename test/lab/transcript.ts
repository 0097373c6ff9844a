/**
 * The lab's transcript of every `pulumi` run (PulumiCli): the command, its exit code, its stdout and
 * stderr, and after each run that writes state (up, refresh, destroy, import) the stack's state
 * file as the file backend stores it (runs with --show-secrets are listed without their output).
 * The final plaintext scan (final/plaintext-scan.spec.ts) reads it.
 * Secret values a test sets with `pulumi config set --secret` are kept aside as known secrets (and
 * left out of the transcript), so the scan can look for them too.
 *
 * Files: IKO_LAB_TRANSCRIPT (the lab tier's hooks set it for each run), known secrets in the same
 * path with ".secrets.json" appended. Without it nothing is recorded: the kind tier and the bench
 * run PulumiCli too, and have no scan to feed.
 */
import * as fs from "fs";
import * as path from "path";

/** The transcript, or undefined when IKO_LAB_TRANSCRIPT is not set (nothing is recorded then). */
export function transcriptFile(): string | undefined {
  return process.env.IKO_LAB_TRANSCRIPT || undefined;
}

export function knownSecretsFile(): string | undefined {
  const file = transcriptFile();
  return file === undefined ? undefined : `${file}.secrets.json`;
}

/** The secret values recorded so far. */
export function knownSecrets(): string[] {
  const file = knownSecretsFile();
  if (file === undefined) return [];
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as string[];
  } catch {
    return [];
  }
}

/**
 * Adds a value to the known secrets, and each string inside it when it is a JSON object (Secret
 * data given as JSON); values too short to search for meaningfully are ignored.
 */
export function recordKnownSecret(value: string): void {
  const file = knownSecretsFile();
  if (file === undefined) return;
  const all = new Set(knownSecrets());
  const add = (v: string) => {
    if (v.length >= 8) all.add(v);
  };
  add(value);
  try {
    const parsed = JSON.parse(value) as unknown;
    if (parsed && typeof parsed === "object") for (const v of Object.values(parsed)) if (typeof v === "string") add(v);
  } catch {
    // Not JSON: the value alone.
  }
  fs.writeFileSync(file, JSON.stringify([...all], null, 1));
}

const STATE_WRITERS = new Set(["up", "refresh", "destroy", "import", "cancel"]);

/** The value of `--stack` in a command line. */
function stackOf(args: string[]): string | undefined {
  const i = args.indexOf("--stack");
  return i >= 0 ? args[i + 1] : undefined;
}

/** The state files of a stack in a file backend (project-scoped layout). */
function stateFiles(backendDir: string, stack: string): string[] {
  const root = path.join(backendDir, ".pulumi", "stacks");
  if (!fs.existsSync(root)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const file = entry.isDirectory() ? path.join(root, entry.name, `${stack}.json`) : path.join(root, entry.name);
    if (fs.existsSync(file) && path.basename(file) === `${stack}.json`) out.push(file);
  }
  return out;
}

/** Appends one run (and, for commands that write state, the stack's state) to the transcript. */
export function recordRun(
  cli: { backendDir: string },
  args: string[],
  res: { code: number; stdout: string; stderr: string },
): void {
  const file = transcriptFile();
  if (file === undefined) return;
  let shown = args;
  if (args[0] === "config" && args[1] === "set") {
    const positional = args.filter(
      (a, i) => !a.startsWith("--") && !(i > 0 && ["--stack", "--config-file", "--path"].includes(args[i - 1])),
    );
    const value = positional.length >= 4 ? positional[positional.length - 1] : undefined;
    if (value !== undefined) {
      if (args.includes("--secret")) recordKnownSecret(value);
      shown = args.map((a) => (a === value ? "<value>" : a));
    }
  }
  // A run that asks for secrets in clear (`--show-secrets`) is a test reading them on purpose: its
  // output is left out (the scan looks for leaks, not for what was asked for).
  const parts = args.includes("--show-secrets")
    ? [`=== pulumi ${shown.join(" ")} (exit ${res.code}) [output left out: --show-secrets]`]
    : [`=== pulumi ${shown.join(" ")} (exit ${res.code})`, res.stdout, res.stderr];
  const stack = stackOf(args);
  if (STATE_WRITERS.has(args[0]) && stack) {
    for (const state of stateFiles(cli.backendDir, stack))
      parts.push(`=== state ${stack} (${path.basename(path.dirname(state))})`, fs.readFileSync(state, "utf8"));
  }
  fs.appendFileSync(file, parts.join("\n") + "\n");
}
