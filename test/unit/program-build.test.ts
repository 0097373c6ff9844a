/**
 * The precompiled program (scripts/program-build.js, main.js): what is a source, when a build is
 * reused, that a build runs, and that type errors stop a checked build.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script, typed by its JSDoc
const build = require("../../scripts/program-build") as {
  programSources(root: string): string[];
  buildKey(root: string, mode: "checked" | "transpile", typescriptVersion: string): string;
  ensureProgramBuild(root: string, opts?: { mode?: "checked" | "transpile"; log?: (msg: string) => void }): string;
};

const REPO = path.resolve(__dirname, "..", "..");

/** A tiny project laid out like ours: index.ts, components/, stacks/ and a tsconfig.json. */
function tinyProject(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-build-"));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write(
    "tsconfig.json",
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2020", module: "commonjs", skipLibCheck: true, types: [] },
    }),
  );
  write(
    "components/greet/greet.ts",
    "/** Greets. */\nexport function greet(who: string): string {\n  // a comment a dynamic provider would carry into state\n  return `hello ${who}`;\n}\n",
  );
  write("components/greet/types.d.ts", "export type Unused = string;\n");
  write(
    "stacks/answer.ts",
    'import { greet } from "../components/greet/greet";\nexport const answer: string = greet("fleet");\n',
  );
  write("index.ts", 'export { answer } from "./stacks/answer";\n');
  write("test/ignored.ts", "this is not a program source\n");
  // The compiled program resolves packages from the project's node_modules, as ours does.
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(root, "node_modules"));
  return root;
}

describe("program build (main.js)", () => {
  let root: string;
  beforeEach(() => {
    root = tinyProject();
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("takes index.ts and the .ts files under components/ and stacks/, sorted, without .d.ts or tests", () => {
    assert.deepStrictEqual(build.programSources(root), ["components/greet/greet.ts", "index.ts", "stacks/answer.ts"]);
  });

  it("keys a build by content, mode and TypeScript version", () => {
    const key = build.buildKey(root, "transpile", "5.9.3");
    assert.match(key, /^[0-9a-f]{16}$/);
    assert.strictEqual(build.buildKey(root, "transpile", "5.9.3"), key, "same inputs, same key");
    assert.notStrictEqual(build.buildKey(root, "checked", "5.9.3"), key, "mode");
    assert.notStrictEqual(build.buildKey(root, "transpile", "5.9.2"), key, "TypeScript version");
    fs.appendFileSync(path.join(root, "stacks", "answer.ts"), "// an edit\n");
    assert.notStrictEqual(build.buildKey(root, "transpile", "5.9.3"), key, "source edit");
  });

  it("main.js runs the build with V8's own stack traces, not the source-map-support Pulumi's runner installs (real node, the tiny project)", function () {
    this.timeout(120000);
    fs.mkdirSync(path.join(root, "scripts"));
    fs.copyFileSync(path.join(REPO, "scripts", "program-build.js"), path.join(root, "scripts", "program-build.js"));
    fs.copyFileSync(path.join(REPO, "main.js"), path.join(root, "main.js"));
    fs.writeFileSync(
      path.join(root, "index.ts"),
      'export const formatter: string = typeof Error.prepareStackTrace;\nexport const frame: string = (new Error().stack ?? "").split("\\n")[1];\n',
    );
    // As Pulumi's `cmd/run` does: source-map-support registered before the program is required.
    const res = child.spawnSync(
      process.execPath,
      ["-r", "source-map-support/register", "-e", 'process.stdout.write(JSON.stringify(require("./main.js")))'],
      { cwd: root, encoding: "utf8", env: { ...process.env, PULUMI_NODEJS_TRANSPILE_ONLY: "true" } },
    );
    assert.strictEqual(res.status, 0, res.stderr);
    const out = JSON.parse(res.stdout.trim().split("\n").pop() as string) as { formatter: string; frame: string };
    assert.strictEqual(out.formatter, "undefined", "source-map-support's prepareStackTrace is still installed");
    assert.match(out.frame, /at .*\.iko-plus\/program\/[0-9a-f]{16}\/index\.js:\d+:\d+/);
  });

  for (const mode of ["transpile", "checked"] as const) {
    it(`${mode}: compiles once into .iko-plus/program/<key>/, runs, and reuses the build until a source changes`, function () {
      this.timeout(120000);
      const logs: string[] = [];
      const first = build.ensureProgramBuild(root, { mode, log: (m) => logs.push(m) });
      assert.strictEqual(path.dirname(first), path.join(root, ".iko-plus", "program"));
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled program
      assert.strictEqual((require(path.join(first, "index.js")) as { answer: string }).answer, "hello fleet");
      assert.strictEqual(logs.length, 1);
      assert.match(logs[0], new RegExp(`compiled the program \\(${mode}\\) in \\d+ ms`));
      assert.ok(!fs.existsSync(path.join(first, "index.js.map")), "no source maps");
      const emitted = fs.readFileSync(path.join(first, "components", "greet", "greet.js"), "utf8");
      assert.ok(
        emitted.includes("hello ${who}") && !/a comment|Greets/.test(emitted),
        `comments are not emitted (they would be serialized with dynamic providers):\n${emitted}`,
      );

      assert.strictEqual(build.ensureProgramBuild(root, { mode, log: (m) => logs.push(m) }), first);
      assert.strictEqual(logs.length, 1, "a cached build compiles nothing");

      fs.writeFileSync(
        path.join(root, "components", "greet", "greet.ts"),
        "export function greet(who: string): string { return `hi ${who}`; }\n",
      );
      const second = build.ensureProgramBuild(root, { mode, log: (m) => logs.push(m) });
      assert.notStrictEqual(second, first);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled program
      assert.strictEqual((require(path.join(second, "index.js")) as { answer: string }).answer, "hi fleet");
      assert.deepStrictEqual(
        fs.readdirSync(path.join(root, ".iko-plus", "program")).sort(),
        [path.basename(first), path.basename(second)].sort(),
        "no temporary folder left",
      );
    });
  }

  it("checked: a type error stops the build with the compiler's message and leaves no build", function () {
    this.timeout(120000);
    fs.writeFileSync(path.join(root, "stacks", "answer.ts"), 'export const answer: number = "not a number";\n');
    assert.throws(
      () => build.ensureProgramBuild(root, { mode: "checked" }),
      (e: Error) =>
        /does not compile/.test(e.message) &&
        /stacks\/answer\.ts\(1,14\): error TS2322/.test(e.message) &&
        /PULUMI_NODEJS_TRANSPILE_ONLY=true/.test(e.message),
    );
    assert.deepStrictEqual(fs.readdirSync(path.join(root, ".iko-plus", "program")), []);
    // Transpile mode strips types only, as ts-node's transpile-only does.
    assert.ok(fs.existsSync(path.join(build.ensureProgramBuild(root, { mode: "transpile" }), "stacks", "answer.js")));
  });
});
