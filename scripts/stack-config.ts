/**
 * A stack's committed file stays as committed. `npm run up`, `npm run config` and the rest
 * (scripts/pulumi.sh) never let Pulumi write into Pulumi.<stack>.yaml: each command gets a
 * working copy (`--config-file`) made of
 *   - the committed stack file (the template: what the repository says), and over it
 *   - the stack's local settings, `config/Pulumi.<stack>.yaml` beside the backend's state
 *     (`.state/config/` with the default backend; IKO_STACK_SETTINGS_DIR): the stack's
 *     encryption salt and every top-level key set with `npm run config -- set …` (a secret one
 *     encrypted), which belong to the stack in that backend,
 * and after the command what Pulumi wrote into the copy that differs from the template goes back
 * into the local settings. So a first run, a `config set` or a `config set --secret` leaves the
 * checkout clean, and the committed file can change under a `git pull` without losing what was
 * set locally. A key set locally overrides the stack file's value of that whole top-level key.
 *
 * CLI (scripts/pulumi.sh):
 *   stack-config.ts prepare <stack> <working-file>   writes the working copy; prints the shell
 *                                                    variables project_dir and local_file
 *   stack-config.ts keep <stack> <working-file>      saves what differs from the template
 *   stack-config.ts adopt-salt <stack> <stack-file>  the salt of a stack just created elsewhere
 */
import * as fs from "fs";
import * as path from "path";
import { isDeepStrictEqual } from "util";
import * as YAML from "yaml";
import { stackFilePath, stackProjectDir } from "./stack-files";

/** A stack file as Pulumi reads it (only the fields this module touches are typed). */
export interface StackFileDoc {
  encryptionsalt?: string;
  config?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The working copy Pulumi gets: the template, its config overridden key by key by the local settings. */
export function workingStackFile(template: StackFileDoc | undefined, local: StackFileDoc | undefined): StackFileDoc {
  const salt = local?.encryptionsalt ?? template?.encryptionsalt;
  const config = { ...(template?.config ?? {}), ...(local?.config ?? {}) };
  return {
    ...(template ?? {}),
    ...(salt !== undefined ? { encryptionsalt: salt } : {}),
    config,
  };
}

/**
 * The local settings a working copy holds: its salt unless the template has the same one, and
 * each config key whose value differs from the template's (a key the command removed that the
 * template has cannot be told apart from one it kept, so it is the template's again).
 */
export function localSettings(template: StackFileDoc | undefined, working: StackFileDoc): StackFileDoc {
  const out: StackFileDoc = {};
  if (working.encryptionsalt !== undefined && working.encryptionsalt !== template?.encryptionsalt)
    out.encryptionsalt = working.encryptionsalt;
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(working.config ?? {})) {
    if (!isDeepStrictEqual(value, template?.config?.[key])) config[key] = value;
  }
  if (Object.keys(config).length) out.config = config;
  return out;
}

/** A stack file's content; undefined when there is no such file (an empty file is `{}`). */
export function readStackFile(file: string): StackFileDoc | undefined {
  if (!fs.existsSync(file)) return undefined;
  const doc = YAML.parse(fs.readFileSync(file, "utf8")) as StackFileDoc | null;
  return doc ?? {};
}

/** Where a stack's local settings live: `dir` (default `<root>/.state/config`). */
export function localSettingsPath(root: string, stack: string, dir = process.env.IKO_STACK_SETTINGS_DIR): string {
  return path.join(dir || path.join(root, ".state", "config"), `Pulumi.${stack}.yaml`);
}

function writeLocal(file: string, doc: StackFileDoc): void {
  if (!doc.encryptionsalt && !doc.config) {
    fs.rmSync(file, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    "# Local settings of this stack (scripts/stack-config.ts): its encryption salt and the keys set with\n" +
      "# `npm run config`, over the committed stack file. Not committed; secret values are encrypted.\n" +
      YAML.stringify(doc),
    { mode: 0o600 },
  );
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The CLI, for the repository at `root`; returns the exit code and prints to `out`. */
export function main(argv: string[], root = path.resolve(__dirname, ".."), out = console.log): number {
  const [cmd, stack, file] = argv;
  if (!["prepare", "keep", "adopt-salt"].includes(cmd) || !stack || !file) {
    console.error("usage: stack-config.ts <prepare|keep|adopt-salt> <stack> <file>");
    return 2;
  }
  const template = readStackFile(stackFilePath(root, stack));
  const localFile = localSettingsPath(root, stack);
  if (cmd === "prepare") {
    const working = workingStackFile(template, readStackFile(localFile));
    fs.writeFileSync(file, YAML.stringify(working), { mode: 0o600 });
    out(`project_dir=${shellQuote(stackProjectDir(root, stack))}`);
    out(`local_file=${shellQuote(localFile)}`);
  } else if (cmd === "keep") {
    const working = readStackFile(file);
    if (working) writeLocal(localFile, localSettings(template, working));
  } else {
    const salt = readStackFile(file)?.encryptionsalt;
    if (!salt) {
      console.error(`stack-config: ${file} holds no encryptionsalt`);
      return 1;
    }
    writeLocal(localFile, { ...(readStackFile(localFile) ?? {}), encryptionsalt: salt });
  }
  return 0;
}

if (require.main === module) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    process.exit(1);
  }
}
