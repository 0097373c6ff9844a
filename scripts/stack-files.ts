/**
 * Where a stack's file (Pulumi.<stack>.yaml) lives. The repository has several Pulumi project
 * folders that all run the root's program (main.js) under the root's project name:
 *   .                the root project: dev, and any stack a user creates there
 *   examples/<name>/ the example projects (fleet, dr)
 *   testbed/stacks/  the lab stacks (lab-*), which target the proving ground's local fleet lab
 * `npm run up` (scripts/pulumi.sh) runs Pulumi in the folder that holds the stack's file; the
 * tests, the benchmarks and the PR preview find the committed stack files the same way.
 *
 * CLI: `node -r ts-node/register/transpile-only scripts/stack-files.ts dir <stack>` prints the
 * stack's project folder relative to the root (`.` when no folder holds its file yet).
 */
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";

/** Whether `dir` (relative to `root`) is a Pulumi project whose `main` is the root's main.js. */
function runsRootProgram(root: string, dir: string): boolean {
  const file = path.join(root, dir, "Pulumi.yaml");
  if (!fs.existsSync(file)) return false;
  const main = (YAML.parse(fs.readFileSync(file, "utf8")) as { main?: unknown } | null)?.main;
  return typeof main === "string" && path.resolve(root, dir, main) === path.resolve(root, "main.js");
}

/**
 * The project folders other than the root that run the root's program, relative to the root, in
 * the order they are searched. (An example with a program of its own, such as
 * examples/library-wfh, keeps its own stacks.)
 */
export function projectDirs(root: string): string[] {
  const examples = path.join(root, "examples");
  const exampleDirs = fs.existsSync(examples)
    ? fs
        .readdirSync(examples, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => `examples/${d.name}`)
        .sort()
    : [];
  return [...exampleDirs, "testbed/stacks"].filter((d) => runsRootProgram(root, d));
}

/**
 * The project folder (relative to `root`) whose Pulumi.<stack>.yaml exists; `.` when none has
 * it (a new stack is created at the root). Throws when two folders hold it, naming both.
 */
export function stackProjectDir(root: string, stack: string): string {
  const found = [".", ...projectDirs(root)].filter((d) => fs.existsSync(path.join(root, d, `Pulumi.${stack}.yaml`)));
  if (found.length > 1)
    throw new Error(
      `stack ${stack}: Pulumi.${stack}.yaml is in ${found.join(" and ")}; keep one (a stack name is one stack in the backend)`,
    );
  return found[0] ?? ".";
}

/** The path of Pulumi.<stack>.yaml under `root` (where it is, or where a new one goes). */
export function stackFilePath(root: string, stack: string): string {
  return path.join(root, stackProjectDir(root, stack), `Pulumi.${stack}.yaml`);
}

/** The stack a file name Pulumi.<stack>.yaml is for, or undefined. */
export function stackOfFile(file: string): string | undefined {
  return /^Pulumi\.(.+)\.yaml$/.exec(path.basename(file))?.[1];
}

if (require.main === module) {
  const [cmd, stack] = process.argv.slice(2);
  if (cmd !== "dir" || !stack) {
    console.error("usage: stack-files.ts dir <stack>");
    process.exit(2);
  }
  try {
    console.log(stackProjectDir(path.resolve(__dirname, ".."), stack));
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    process.exit(1);
  }
}
