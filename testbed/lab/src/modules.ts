/**
 * Files read from Go modules in the module cache (Karmada's CRDs and manifests, kwok's Stages):
 * the version comes from testbed/lab/tools/<group>/go.mod, nothing is copied into the repo.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { LabError, REPO_ROOT } from "./config";

const cache = new Map<string, string>();

function requiredVersion(goMod: string, module: string): string | undefined {
  const text = fs.readFileSync(goMod, "utf8");
  const re = new RegExp(`^\\s*(?:require\\s+)?${module.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s+(v\\S+)`, "m");
  return re.exec(text)?.[1];
}

function goModCache(): string {
  if (process.env.GOMODCACHE) return process.env.GOMODCACHE;
  try {
    const out = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
    if (out) return out;
  } catch {
    /* no go on PATH: fall back to the default location */
  }
  return path.join(process.env.GOPATH || path.join(process.env.HOME || "/root", "go"), "pkg", "mod");
}

/** Module path escaping of the module cache (uppercase -> !lowercase). */
function escapeModule(module: string): string {
  return module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/**
 * The source folder of `module` at the version testbed/lab/tools/<group>/go.mod requires: the module cache
 * path if present, else `go mod download -json` inside testbed/lab/tools/<group> (which downloads it).
 */
export function moduleDir(group: string, module: string): string {
  const key = `${group} ${module}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const toolsDir = path.join(REPO_ROOT, "testbed", "lab", "tools", group);
  const goMod = path.join(toolsDir, "go.mod");
  if (!fs.existsSync(goMod)) throw new LabError(`${goMod} is missing (it pins ${module})`);
  const version = requiredVersion(goMod, module);
  let dir = version ? path.join(goModCache(), `${escapeModule(module)}@${version}`) : "";
  if (!dir || !fs.existsSync(dir)) {
    try {
      // `go mod download -json` fetches the module when the cache lacks it (go list -m would print no Dir).
      const info = execFileSync("go", ["mod", "download", "-json", module], {
        cwd: toolsDir,
        encoding: "utf8",
        env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: process.env.GOTOOLCHAIN || "local" },
      });
      dir = (JSON.parse(info) as { Dir?: string }).Dir ?? "";
    } catch (e) {
      throw new LabError(
        `cannot locate ${module} (testbed/lab/tools/${group}): ${(e as Error).message.split("\n")[0]}; run \`bash testbed/lab/build.sh\` first`,
      );
    }
  }
  if (!dir || !fs.existsSync(dir))
    throw new LabError(
      `cannot locate ${module} ${version ?? ""} in the Go module cache; run \`bash testbed/lab/build.sh\``,
    );
  cache.set(key, dir);
  return dir;
}

/** A file inside a module; a clear error when that version lacks it. */
export function moduleFile(group: string, module: string, rel: string): string {
  const f = path.join(moduleDir(group, module), rel);
  if (!fs.existsSync(f)) throw new LabError(`${module}: ${rel} not found in ${moduleDir(group, module)}`);
  return f;
}
