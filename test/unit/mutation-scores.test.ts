// Unit (pure): how testbed/mutation/mutation-scores.js adds up Stryker reports of partial runs.
import * as assert from "assert";
import { spawnSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

type Mutant = {
  status: string;
  mutatorName?: string;
  replacement?: string;
  location?: { start: { line: number; column: number } };
};

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script, not a module with types
const scores = require("../../testbed/mutation/mutation-scores.js") as {
  latestResults: (
    reports: {
      name: string;
      time: number;
      report: {
        files: Record<
          string,
          | { source?: string; mutants: { status: string }[] }
          | { sha256: string; counts: Record<string, number>; survivors: string[] }
        >;
      };
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
  readDated: (
    file: string,
    root: string,
  ) => {
    name: string;
    time: number;
    report: { files: Record<string, { sha256: string; counts: Record<string, number>; survivors: string[] }> };
  };
  mutatedBy: (file: string, globs: string[]) => boolean;
  fileRecord: (result: { source?: string; mutants: Mutant[] }) => {
    sha256: string;
    counts: Record<string, number>;
    survivors: string[];
  };
  compactReport: (
    report: { files: Record<string, { source?: string; mutants: Mutant[] }>; config?: { mutate?: string[] } },
    run: { date: string; commit: string },
  ) => {
    date: string;
    commit: string;
    mutate: string[];
    files: Record<string, { sha256: string; counts: Record<string, number>; survivors: string[] }>;
  };
  completeReport: (
    report: {
      files: Record<string, { source?: string; mutants: { status: string }[] }>;
      config?: { mutate?: string[] };
    },
    candidates: string[],
    read: (file: string) => string | undefined,
  ) => { files: Record<string, { source?: string; mutants: { status: string }[] }> };
};

const REPO = path.join(__dirname, "..", "..");
const mutants = (...statuses: string[]) => statuses.map((status) => ({ status }));

describe("mutation scores across partial runs (testbed/mutation/mutation-scores.js)", () => {
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
        { file: "b/left-out.ts", from: "r", counts: { NoCoverage: 26 } },
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

  it("keeps a record, not the report: the source's SHA-256, each status counted, the survivors in source order", () => {
    const source = "export const x = 1;\n";
    const record = scores.compactReport(
      {
        config: { mutate: ["a/**/*.ts"] },
        files: {
          "a/x.ts": {
            source,
            mutants: [
              {
                status: "Survived",
                mutatorName: "StringLiteral",
                replacement: `"${"y".repeat(100)}"`,
                location: { start: { line: 9, column: 2 } },
              },
              {
                status: "Killed",
                mutatorName: "BooleanLiteral",
                replacement: "false",
                location: { start: { line: 1, column: 1 } },
              },
              {
                status: "NoCoverage",
                mutatorName: "ConditionalExpression",
                replacement: "true\n  && x",
                location: { start: { line: 3, column: 14 } },
              },
            ],
          },
          "a/index.ts": { source: "", mutants: [] },
        },
      },
      { date: "2026-12-02T21:00:00.000Z", commit: "abc1234" },
    );
    assert.deepStrictEqual(record, {
      date: "2026-12-02T21:00:00.000Z",
      commit: "abc1234",
      mutate: ["a/**/*.ts"],
      files: {
        "a/index.ts": {
          sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
          counts: {},
          survivors: [],
        },
        "a/x.ts": {
          sha256: "b40dedde60828bf61d1fadbfc3bb7ea2e0421e9511d22f1b5fb44ae5ba07dbb3",
          counts: { Survived: 1, Killed: 1, NoCoverage: 1 },
          survivors: [
            "3:14 ConditionalExpression (no coverage) -> true && x",
            `9:2 StringLiteral -> "${"y".repeat(78)}…`,
          ],
        },
      },
    });
  });

  it("scores a file by a record while the file hashes as the record says, and orders records by their own date", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-mutation-records-"));
    try {
      const record = (date: string, counts: Record<string, number>, source: string) => ({
        date,
        files: {
          "a/x.ts": { sha256: createHash("sha256").update(source).digest("hex"), counts, survivors: [] },
        },
      });
      // The older record has the newer modification time, as any file may have after a clone.
      fs.writeFileSync(path.join(dir, "new.json"), JSON.stringify(record("2026-12-02T10:00:00Z", { Killed: 2 }, "x2")));
      fs.writeFileSync(
        path.join(dir, "old.json"),
        JSON.stringify(record("2026-12-01T10:00:00Z", { Survived: 2 }, "x2")),
      );
      fs.utimesSync(path.join(dir, "new.json"), new Date("2026-12-02T00:00:00Z"), new Date("2026-12-02T00:00:00Z"));
      fs.utimesSync(path.join(dir, "old.json"), new Date("2026-12-03T00:00:00Z"), new Date("2026-12-03T00:00:00Z"));
      const reports = ["old.json", "new.json"].map((n) => scores.readDated(path.join(dir, n), dir));
      assert.deepStrictEqual(scores.latestResults(reports, () => "x2").files, [
        { file: "a/x.ts", from: path.join(dir, "new.json"), counts: { Killed: 2 } },
      ]);
      assert.deepStrictEqual(
        scores.latestResults(reports, () => "x3"),
        { files: [], stale: ["a/x.ts"] },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--keep refuses a run that mutated no file (brace globs Stryker does not expand) and keeps no record", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-mutation-keep-"));
    try {
      const report = path.join(dir, "mutation.json");
      fs.writeFileSync(
        report,
        JSON.stringify({ files: {}, config: { mutate: ["components/{kind", "iris}/**/*.ts"] } }),
      );
      const out = path.join(dir, "record.json");
      const res = spawnSync(
        process.execPath,
        [path.join(REPO, "testbed/mutation/mutation-scores.js"), "--keep", report, out, "abc"],
        {
          cwd: REPO,
          encoding: "utf8",
        },
      );
      assert.strictEqual(res.status, 1);
      assert.match(res.stderr, /the run mutated no file .*Stryker does not expand \{a,b\}/);
      assert.ok(!fs.existsSync(out), "no record written");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
