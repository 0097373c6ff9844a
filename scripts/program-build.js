// @ts-check
/**
 * The precompiled Pulumi program. `main.js` (Pulumi.yaml's `main`) runs the program as JavaScript
 * from `.iko-plus/program/<key>/`, compiled from the TypeScript sources the first time a set of
 * sources is seen. Running compiled JavaScript instead of ts-node saves ts-node's start-up and,
 * above all, its source-map-support: the Pulumi SDK captures a stack trace for every output, and
 * source-map-support made each capture several times dearer (see testbed/bench/).
 *
 * The key is a hash of every program source (index.ts, components/, stacks/), tsconfig.json, the
 * TypeScript version and the mode, so an edit always compiles again and a checkout of an older
 * commit reuses its earlier build. A build goes to a temporary folder that is renamed into place,
 * so concurrent `pulumi` runs on one checkout never see half a build.
 *
 * Modes: "checked" type-checks like `tsc` (type errors fail the run, with the compiler's
 * messages); "transpile" only strips types, like ts-node's transpile-only. PULUMI_NODEJS_TRANSPILE_ONLY=true
 * (Pulumi's own switch) selects "transpile".
 */
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");

/** Folders (besides index.ts) that hold program sources. */
const SOURCE_DIRS = ["components", "stacks"];
/** Builds older than this are pruned when a new one lands (a running program may still use one). */
const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The program's TypeScript sources under `root`, sorted, as paths relative to `root` with "/".
 * @param {string} root
 * @returns {string[]}
 */
function programSources(root) {
  const out = ["index.ts"];
  /** @param {string} rel */
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(child);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return out.sort();
}

/** Bumped when the emit options below change, so an older build is not reused. */
const BUILD_EMIT_VERSION = 2;

/**
 * The build key: sha256 over the emit version, the mode, the TypeScript version, tsconfig.json and every source
 * (path and content), shortened to 16 hex digits.
 * @param {string} root
 * @param {"checked" | "transpile"} mode
 * @param {string} typescriptVersion
 * @returns {string}
 */
function buildKey(root, mode, typescriptVersion) {
  const hash = crypto.createHash("sha256");
  hash.update(`mode=${mode}\ntypescript=${typescriptVersion}\nemit=${BUILD_EMIT_VERSION}\n`);
  for (const rel of ["tsconfig.json", ...programSources(root)]) {
    hash.update(`${rel}\0`);
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * Compiler options for the program build: the project's tsconfig.json, emitting CommonJS into
 * `outDir`, no source maps and no declarations, only the program's own files.
 * @param {typeof import("typescript")} ts
 * @param {string} root
 * @param {string} outDir
 */
function compilerOptions(ts, root, outDir) {
  const configFile = path.join(root, "tsconfig.json");
  const read = ts.readConfigFile(configFile, ts.sys.readFile);
  if (read.error) throw new Error(formatDiagnostics(ts, root, [read.error]));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configFile);
  return {
    ...parsed.options,
    types: ["node"],
    noEmit: false,
    outDir,
    rootDir: root,
    sourceMap: false,
    inlineSourceMap: false,
    declaration: false,
    incremental: false,
    // Comments never reach the emitted code: Pulumi serializes each dynamic provider's functions
    // into the state of every resource it manages, so every comment would be stored once per resource.
    removeComments: true,
  };
}

/**
 * @param {typeof import("typescript")} ts
 * @param {string} root
 * @param {readonly import("typescript").Diagnostic[]} diagnostics
 */
function formatDiagnostics(ts, root, diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  });
}

/**
 * Compiles the program into `outDir`. Throws with the compiler's messages when a checked build
 * finds errors (nothing is written then).
 * @param {typeof import("typescript")} ts
 * @param {string} root
 * @param {string} outDir
 * @param {"checked" | "transpile"} mode
 */
function compileProgram(ts, root, outDir, mode) {
  const options = compilerOptions(ts, root, outDir);
  const files = programSources(root).map((rel) => path.join(root, rel));
  if (mode === "transpile") {
    for (const file of files) {
      const out = ts.transpileModule(fs.readFileSync(file, "utf8"), {
        compilerOptions: options,
        fileName: file,
        reportDiagnostics: false,
      });
      const target = path.join(outDir, path.relative(root, file)).replace(/\.ts$/, ".js");
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, out.outputText);
    }
    return;
  }
  const program = ts.createProgram(files, options);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    throw new Error(
      `iko-plus: the program does not compile (fix these, or set PULUMI_NODEJS_TRANSPILE_ONLY=true to skip type checks):\n${formatDiagnostics(ts, root, diagnostics)}`,
    );
  }
  const emitted = program.emit();
  if (emitted.emitSkipped) throw new Error(formatDiagnostics(ts, root, emitted.diagnostics));
}

/**
 * Returns the folder of an up-to-date build of the program under `root`, compiling it first if
 * needed. Safe to call from several processes at once.
 * @param {string} root
 * @param {{ mode?: "checked" | "transpile", log?: (msg: string) => void }} [opts]
 * @returns {string}
 */
function ensureProgramBuild(root, opts = {}) {
  const mode = opts.mode ?? (process.env.PULUMI_NODEJS_TRANSPILE_ONLY === "true" ? "transpile" : "checked");
  const buildsDir = path.join(root, ".iko-plus", "program");
  // The version from package.json: loading the compiler itself costs ~200 ms, only paid on a build.
  const dir = path.join(buildsDir, buildKey(root, mode, require("typescript/package.json").version));
  if (fs.existsSync(path.join(dir, "index.js"))) return dir;

  const ts = require("typescript");

  const started = Date.now();
  fs.mkdirSync(buildsDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(buildsDir, ".tmp-"));
  try {
    compileProgram(ts, root, tmp, mode);
    try {
      fs.renameSync(tmp, dir);
    } catch (e) {
      // Another process landed the same build first: use it.
      if (!fs.existsSync(path.join(dir, "index.js"))) throw e;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  opts.log?.(`iko-plus: compiled the program (${mode}) in ${Date.now() - started} ms into ${path.relative(root, dir)}`);
  pruneBuilds(buildsDir, dir);
  return dir;
}

/**
 * Removes builds (and abandoned temporary folders) older than a day, except `keep`.
 * @param {string} buildsDir
 * @param {string} keep
 */
function pruneBuilds(buildsDir, keep) {
  const now = Date.now();
  for (const name of fs.readdirSync(buildsDir)) {
    const full = path.join(buildsDir, name);
    if (full === keep) continue;
    try {
      if (now - fs.statSync(full).mtimeMs > PRUNE_AFTER_MS) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // Pruning is best effort: another process may be pruning the same folder.
    }
  }
}

module.exports = { programSources, buildKey, compileProgram, ensureProgramBuild };
