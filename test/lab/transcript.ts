/**
 * The lab's transcript of every `pulumi` run (PulumiCli): the command, its exit code, its stdout and
 * stderr, and after each run that writes state (up, refresh, destroy, import) the stack's state
 * file as the file backend stores it (runs with --show-secrets are listed without their output).
 * The final plaintext scan (final/plaintext-scan.spec.ts) reads it.
 * Secret values a test sets with `pulumi config set --secret` are kept aside as known secrets (and
 * left out of the transcript), so the scan can look for them too.
 *
 * Files: IKO_LAB_TRANSCRIPT, or iko-plus-lab-transcript.log in the OS temp folder; known secrets in
 * the same path with ".secrets.json" appended.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export function transcriptFile(): string {
  return process.env.IKO_LAB_TRANSCRIPT || path.join(os.tmpdir(), "iko-plus-lab-transcript.log");
}

export function knownSecretsFile(): string {
  return `${transcriptFile()}.secrets.json`;
}

/** The secret values recorded so far. */
export function knownSecrets(): string[] {
  try {
    return JSON.parse(fs.readFileSync(knownSecretsFile(), "utf8")) as string[];
  } catch {
    return [];
  }
}

/**
 * Adds a value to the known secrets, and each string inside it when it is a JSON object (Secret
 * data given as JSON); values too short to search for meaningfully are ignored.
 */
export function recordKnownSecret(value: string): void {
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
  fs.writeFileSync(knownSecretsFile(), JSON.stringify([...all], null, 1));
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
    for (const file of stateFiles(cli.backendDir, stack))
      parts.push(`=== state ${stack} (${path.basename(path.dirname(file))})`, fs.readFileSync(file, "utf8"));
  }
  fs.appendFileSync(transcriptFile(), parts.join("\n") + "\n");
}
