/**
 * The library as a user gets it: `npm pack` of this repo (which builds dist/ first, `prepack`),
 * installed into a copy of an example project under examples/ in a temporary folder, and the
 * example compiled with its own TypeScript. Nothing of the repo's node_modules or sources is
 * visible to the example: it sees only what the tarball holds and what npm installs for it (from
 * npm's cache when the repo's own install put the same versions there).
 */
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export const REPO = path.resolve(__dirname, "../..");

export interface InstalledExample {
  /** The example's folder, with node_modules and its compiled bin/. */
  dir: string;
  /** The packed tarball the example installed. */
  tarball: string;
  /** The files the tarball holds, relative to its package/ folder. */
  packedFiles: string[];
}

/** Runs a command; throws with its output when it fails. */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const res = child.spawnSync(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (res.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) exited ${res.status}:\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

const installed = new Map<string, InstalledExample>();

/** Packs the repo once per process and installs it into a fresh copy of `examples/<name>`. */
export function installExample(name: string): InstalledExample {
  const done = installed.get(name);
  if (done) return done;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `iko-plus-${name}-`));
  // npm's output on stdout is the tarball's name; --json lists its files too.
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", tmp], REPO)) as {
    filename: string;
    files: { path: string }[];
  }[];
  const tarball = path.join(tmp, packed[0].filename);
  const dir = path.join(tmp, name);
  fs.cpSync(path.join(REPO, "examples", name), dir, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|bin)$/.test(src),
  });
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], dir);
  run("npm", ["run", "build"], dir);
  const result = { dir, tarball, packedFiles: packed[0].files.map((f) => f.path) };
  installed.set(name, result);
  return result;
}

/** Removes the temporary folder of an installed example. */
export function removeExample(example: InstalledExample): void {
  fs.rmSync(path.dirname(example.dir), { recursive: true, force: true });
  for (const [k, v] of installed) if (v === example) installed.delete(k);
}
