// Unit (pure): how scripts/mutation-scores.js adds up Stryker reports of partial runs.
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script, not a module with types
const scores = require("../../scripts/mutation-scores.js") as {
  latestResults: (
    reports: {
      name: string;
      time: number;
      report: { files: Record<string, { source?: string; mutants: { status: string }[] }> };
    }[],
    current: (file: string) => string | undefined,
  ) => { files: { file: string; from: string; counts: Record<string, number> }[]; stale: string[] };
  score: (c: Record<string, number>) => number;
  folderScores: (
    files: { file: string; from: string; counts: Record<string, number> }[],
    sources: Record<string, string[]>,
  ) => { folder: string; counts: Record<string, number>; measured: number; total: number }[];
  formatScores: (
    folders: { folder: string; counts: Record<string, number>; measured: number; total: number }[],
    min: number,
  ) => { lines: string[]; low: boolean };
  mutatedSources: (root: string) => Record<string, string[]>;
  mutatedBy: (file: string, globs: string[]) => boolean;
  completeReport: (
    report: {
      files: Record<string, { source?: string; mutants: { status: string }[] }>;
      config?: { mutate?: string[] };
    },
    candidates: string[],
    read: (file: string) => string | undefined,
  ) => { files: Record<string, { source?: string; mutants: { status: string }[] }> };
};

const mutants = (...statuses: string[]) => statuses.map((status) => ({ status }));

describe("mutation scores across partial runs (scripts/mutation-scores.js)", () => {
  it("takes each file's newest report, and leaves out a file changed since or gone", () => {
    const now: Record<string, string> = { "a/x.ts": "x2", "a/y.ts": "y1", "b/z.ts": "z1" };
    const { files, stale } = scores.latestResults(
      [
        {
          name: "new",
          time: 2,
          report: { files: { "a/x.ts": { source: "x2", mutants: mutants("Killed", "Survived") } } },
        },
        {
          name: "old",
          time: 1,
          report: {
            files: {
              "a/x.ts": { source: "x1", mutants: mutants("Killed") },
              "a/y.ts": { source: "y0", mutants: mutants("Killed") },
              "b/z.ts": { source: "z1", mutants: mutants("Timeout", "NoCoverage", "Ignored") },
              "b/gone.ts": { source: "g", mutants: mutants("Killed") },
            },
          },
        },
      ],
      (f) => now[f],
    );
    assert.deepStrictEqual(files, [
      { file: "a/x.ts", from: "new", counts: { Killed: 1, Survived: 1 } },
      { file: "b/z.ts", from: "old", counts: { Timeout: 1, NoCoverage: 1, Ignored: 1 } },
    ]);
    assert.deepStrictEqual(stale, ["a/y.ts", "b/gone.ts"]);
  });

  it("scores killed and timed-out over all but ignored, per folder, with how many files were measured", () => {
    assert.strictEqual(scores.score({ Killed: 3, Timeout: 1, Survived: 1, NoCoverage: 0, Ignored: 9 }), 80);
    assert.strictEqual(scores.score({}), 100);
    const folders = scores.folderScores(
      [
        { file: "a/x.ts", from: "r", counts: { Killed: 1, Survived: 1 } },
        { file: "a/y.ts", from: "r", counts: { Killed: 2 } },
        { file: "b/z.ts", from: "r", counts: { Survived: 1 } },
      ],
      { a: ["a/x.ts", "a/y.ts"], b: ["b/z.ts", "b/w.ts"], c: ["c/v.ts"] },
    );
    assert.deepStrictEqual(folders, [
      { folder: "a", counts: { Killed: 3, Survived: 1 }, measured: 2, total: 2 },
      { folder: "b", counts: { Survived: 1 }, measured: 1, total: 2 },
      { folder: "c", counts: {}, measured: 0, total: 1 },
    ]);
  });

  it("gives a RESULT line only to a folder measured whole, and fails on a measured folder under the minimum", () => {
    const { lines, low } = scores.formatScores(
      [
        { folder: "a", counts: { Killed: 3, Survived: 1 }, measured: 2, total: 2 },
        { folder: "b", counts: { Killed: 1, Survived: 1 }, measured: 1, total: 2 },
        { folder: "c", counts: {}, measured: 0, total: 1 },
      ],
      80,
    );
    assert.deepStrictEqual(lines, [
      "a             75.00 %  (killed 3, timeout 0, survived 1, no coverage 0, other 0)",
      "RESULT mutation_score_a 75.00",
      "b             50.00 %  (killed 1, timeout 0, survived 1, no coverage 0, other 0, partial: 1 of 2 files)",
      "c              not measured (0 of 1 files)",
    ]);
    assert.strictEqual(low, true);
    assert.strictEqual(
      scores.formatScores([{ folder: "a", counts: { Killed: 4, Survived: 1 }, measured: 1, total: 1 }], 80).low,
      false,
    );
  });

  it("matches Stryker's mutate globs: ** across folders, * within one, ! to leave out", () => {
    const globs = ["components/**/*.ts", "stacks/*.ts", "!components/postrender/cli.ts"];
    assert.strictEqual(scores.mutatedBy("components/names/index.ts", globs), true);
    assert.strictEqual(scores.mutatedBy("components/x.ts", globs), true);
    assert.strictEqual(scores.mutatedBy("components/postrender/cli.ts", globs), false);
    assert.strictEqual(scores.mutatedBy("stacks/fleet.ts", globs), true);
    assert.strictEqual(scores.mutatedBy("stacks/config/fleet.ts", globs), false);
    assert.strictEqual(scores.mutatedBy("components/names/index.tsx", globs), false);
    assert.strictEqual(scores.mutatedBy("componentsXnames.ts", ["components.ts"]), false);
  });

  it("a kept report lists the files its run mutated but found no mutant in, with their source, so they count while unchanged", () => {
    const completed = scores.completeReport(
      {
        config: { mutate: ["a/**/*.ts"] },
        files: { "a/x.ts": { source: "x", mutants: mutants("Killed") } },
      },
      ["a/x.ts", "a/index.ts", "b/y.ts"],
      (f) => ({ "a/x.ts": "x-now", "a/index.ts": "export * from './x';", "b/y.ts": "y" })[f],
    );
    assert.deepStrictEqual(completed.files, {
      "a/x.ts": { source: "x", mutants: mutants("Killed") },
      "a/index.ts": { source: "export * from './x';", mutants: [] },
    });
    const { files } = scores.latestResults([{ name: "r", time: 1, report: completed }], (f) =>
      f === "a/index.ts" ? "export * from './x';" : "x",
    );
    assert.deepStrictEqual(
      scores.folderScores(files, { a: ["a/x.ts", "a/index.ts"] }).map((f) => [f.measured, f.total]),
      [[2, 2]],
    );
  });

  it("lists the files Stryker mutates: every .ts of the four folders but declarations and the post-render CLI", () => {
    const root = path.join(__dirname, "..", "..");
    const sources = scores.mutatedSources(root);
    assert.deepStrictEqual(Object.keys(sources), ["components", "stacks", "policy", "preview"]);
    assert.ok(sources.components.includes("components/names/merge.ts"));
    assert.ok(!sources.components.includes("components/postrender/cli.ts"));
    assert.ok(sources.stacks.includes("stacks/config/fleet.ts"));
    for (const files of Object.values(sources))
      for (const f of files) assert.ok(f.endsWith(".ts") && fs.existsSync(path.join(root, f)), f);
  });
});
