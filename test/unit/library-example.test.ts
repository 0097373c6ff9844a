/**
 * The components as a library: the packed package installed in a user's own project
 * (examples/library-wfh, copied to a temporary folder), compiled with the project's own
 * TypeScript and run under Pulumi's mocks by its own test. Real npm, real tsc, real node; mocks
 * for Pulumi's engine.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as path from "path";
import { InstalledExample, REPO, installExample, removeExample, run } from "../library/example";

describe("library (packed package, mocks): a user's own program built from the components", function () {
  this.timeout(5 * 60_000);
  let example: InstalledExample;

  before(() => {
    example = installExample("library-wfh");
  });
  after(() => {
    if (example) removeExample(example);
  });

  it("the tarball holds compiled JavaScript and declarations only, and needs no TypeScript at run time", () => {
    const files = example.packedFiles;
    assert.ok(files.includes("dist/index.js") && files.includes("dist/index.d.ts"), files.join(", "));
    assert.ok(files.includes("dist/postrender/cli.js"), "the Helm post-renderer's entry point is compiled");
    const sources = files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
    assert.deepStrictEqual(sources, [], "no TypeScript sources");
    assert.deepStrictEqual(
      files.filter((f) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(f)),
      [],
      "nothing but dist/, package.json, README.md and LICENSE",
    );
    const pkg = JSON.parse(fs.readFileSync(path.join(example.dir, "node_modules/iko-plus/package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    for (const dev of ["typescript", "ts-node", "@pulumi/policy", "mocha"])
      assert.strictEqual(pkg.dependencies[dev], undefined, `${dev} is not a run-time dependency`);
    // One copy of Pulumi's SDK: the user's, not one of the library's own.
    assert.deepStrictEqual(Object.keys(pkg.peerDependencies).sort(), ["@pulumi/kubernetes", "@pulumi/pulumi"]);
    assert.ok(!fs.existsSync(path.join(example.dir, "node_modules/iko-plus/node_modules/@pulumi/pulumi")));
  });

  it("the program runs under mocks: two kind clusters with Cilium, IKO at home reconciling at work", () => {
    const res = child.spawnSync("npm", ["test"], {
      cwd: example.dir,
      encoding: "utf8",
      env: {
        ...process.env,
        IKO_CHART_PATH: path.join(REPO, "test/fixtures/iko-chart/iris-operator"),
        IKO_CRD_PATH: path.join(REPO, "test/fixtures/crds/irisclusters.intersystems.com.yaml"),
      },
    });
    const out = `${res.stdout}\n${res.stderr}`;
    assert.strictEqual(res.status, 0, out);
    assert.match(out, /# pass 1\b/, out);
    assert.match(out, /# fail 0\b/, out);
  });

  it("each concern is an entry point of its own, and a misspelt arg does not compile", () => {
    const probe = path.join(example.dir, "probe.ts");
    fs.writeFileSync(
      probe,
      [
        'import { KindCluster } from "iko-plus";',
        'import { kindConfigYaml } from "iko-plus/kind";',
        'import { karmadaAgentImage } from "iko-plus/karmada";',
        'export const agent: string = karmadaAgentImage("v1.18.2");',
        "export const yaml: string = kindConfigYaml({ workers: 1 });",
        'export const c = new KindCluster("x", { wrokers: 1 });',
        "",
      ].join("\n"),
    );
    const res = child.spawnSync("npx", ["--no-install", "tsc", "--noEmit", "--strict", "--skipLibCheck", probe], {
      cwd: example.dir,
      encoding: "utf8",
    });
    const out = `${res.stdout}${res.stderr}`;
    assert.notStrictEqual(res.status, 0, out);
    const errors = out.split("\n").filter((l) => /error TS/.test(l));
    assert.strictEqual(errors.length, 1, out);
    assert.match(errors[0], /probe\.ts\(6,.*'wrokers' does not exist in type 'KindClusterArgs'/);
    const loaded = run(
      "node",
      [
        "-e",
        'const k = require("iko-plus/kind"); console.log(typeof k.kindConfigYaml, typeof require("iko-plus").KindCluster)',
      ],
      example.dir,
    );
    assert.strictEqual(loaded.trim(), "function function");
  });
});
