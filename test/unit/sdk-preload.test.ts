/**
 * scripts/sdk-preload.js: the Pulumi SDK's start-up requires of `typescript` and
 * `@npmcli/arborist` load on first use. Real node processes with the real SDK from node_modules.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";

const REPO = path.resolve(__dirname, "..", "..");
const PRELOAD = path.join(REPO, "scripts", "sdk-preload.js");
const LIB = path.join(REPO, "scripts", "lib", "sdk-defer.js");

interface Probe {
  typescriptAfterSdk: boolean;
  arboristAfterSdk: boolean;
  serialized: boolean;
  typescriptAfterSerialize: boolean;
  outsideIsProxy: boolean;
}

/** Requires @pulumi/pulumi in a fresh node (with the preload or not), then serializes a function. */
function probe(preload: boolean): Probe {
  const script = `
    const loaded = (re) => Object.keys(require.cache).some((k) => re.test(k));
    const ts = /node_modules[\\\\/]typescript[\\\\/]lib[\\\\/]typescript\\.js$/;
    const arborist = /@npmcli[\\\\/]arborist[\\\\/]lib[\\\\/]index\\.js$/;
    const pulumi = require("@pulumi/pulumi");
    const out = { typescriptAfterSdk: loaded(ts), arboristAfterSdk: loaded(arborist) };
    pulumi.runtime.serializeFunction(function add(a, b) { return a + b; }).then((f) => {
      out.serialized = /return a \\+ b/.test(f.text);
      out.typescriptAfterSerialize = loaded(ts);
      out.outsideIsProxy = require("util").types.isProxy(require("typescript"));
      process.stdout.write(JSON.stringify(out));
    });
  `;
  const res = child.spawnSync(process.execPath, [...(preload ? ["--require", PRELOAD] : []), "-e", script], {
    cwd: REPO,
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.strictEqual(res.status, 0, res.stderr);
  return JSON.parse(res.stdout) as Probe;
}

describe("SDK preload (scripts/sdk-preload.js)", () => {
  it("defers TypeScript and arborist past the SDK's start-up, and closures still serialize (real node, real SDK)", function () {
    this.timeout(120_000);
    const without = probe(false);
    // What the preload is for: without it, the SDK's index loads both.
    assert.deepStrictEqual([without.typescriptAfterSdk, without.arboristAfterSdk], [true, true]);
    const withPreload = probe(true);
    assert.deepStrictEqual(withPreload, {
      typescriptAfterSdk: false,
      arboristAfterSdk: false,
      serialized: true,
      // Serializing a closure parses it with TypeScript: loaded then, on first use.
      typescriptAfterSerialize: true,
      // A require from outside the SDK gets the real module, not a stand-in.
      outsideIsProxy: false,
    });
  });

  it("a stand-in loads on its first use and then answers as the module does", () => {
    // The library only (requiring the preload would hook this test process's own loader).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, no types
    const { deferredExports } = require(LIB) as {
      deferredExports: (load: () => Record<PropertyKey, unknown>) => Record<PropertyKey, unknown>;
    };
    let loads = 0;
    const real = { answer: 42, nested: { x: 1 } };
    const stand = deferredExports(() => {
      loads++;
      return real;
    });
    // __importStar asks for __esModule first: true, without loading, so it keeps the stand-in.
    assert.strictEqual(stand.__esModule, true);
    assert.strictEqual(loads, 0);
    assert.strictEqual(stand.answer, 42);
    assert.strictEqual(stand.nested, real.nested);
    assert.ok("answer" in stand);
    assert.deepStrictEqual(Object.keys(stand), ["answer", "nested"]);
    assert.strictEqual(stand.__esModule, undefined, "after loading, the module's own __esModule");
    assert.strictEqual(loads, 1);
  });

  it("Pulumi.yaml preloads it into the program's node (nodeargs names a file that exists)", () => {
    const project = YAML.parse(fs.readFileSync(path.join(REPO, "Pulumi.yaml"), "utf8")) as {
      runtime: { options: { nodeargs?: string } };
    };
    const args = (project.runtime.options.nodeargs ?? "").split(/\s+/);
    const file = args[args.indexOf("--require") + 1];
    assert.strictEqual(path.resolve(REPO, file), PRELOAD);
  });
});
