/**
 * The PR preview's pure pieces one by one (preview/summary.ts, preview/markdown.ts,
 * preview/lab-config.ts): the edge cases the end-to-end tests in preview-summary.test.ts do not
 * reach, each checked against exact output.
 */
import * as assert from "assert";
import {
  StackSummary,
  SECRET_SIG,
  StepJson,
  UNKNOWN_VALUE,
  displayScalar,
  inputDiffPaths,
  isSecretValue,
  isSensitivePath,
  lookupPath,
  parsePreviewJson,
  parsePropertyPath,
  propertyChanges,
  splitUrn,
  summarizeStack,
} from "../../preview/summary";
import {
  cell,
  countsTable,
  describeProperty,
  renderMarkdown,
  resourceRow,
  stackHeadline,
  totalChanges,
} from "../../preview/markdown";
import {
  USAGE,
  labClustersIn,
  labNeeds,
  labSecretKeys,
  parsePreviewArgs,
  rewriteLabPaths,
} from "../../preview/lab-config";

const T = "kubernetes:core/v1:ConfigMap";
const urn = (name: string, type = T) => `urn:pulumi:s::iko-plus::${type}::${name}`;
const zero = { create: 0, update: 0, replace: 0, delete: 0, same: 0 };
const stack = (name: string, more: Partial<StackSummary> = {}): StackSummary => ({
  stack: name,
  counts: { ...zero },
  destructive: [],
  resources: [],
  errors: [],
  ...more,
});

describe("unit: preview summary, parsing the --json output (preview/summary.ts)", () => {
  it("skips text printed before the JSON object", () => {
    assert.deepStrictEqual(parsePreviewJson('warning: something\n{"steps":[]}'), { steps: [] });
  });
  it("rejects JSON that is not an object, naming what it got", () => {
    for (const text of ["null", "5", "[1,2]", '"x"'])
      assert.throws(() => parsePreviewJson(text), {
        message: `the preview output is not pulumi's --json object (not a JSON object); it starts: ${text}`,
      });
  });
  it("quotes the start of unparsable output on one line, at most 200 characters, or says it was empty", () => {
    assert.throws(() => parsePreviewJson("  \n oops \n\n  more\t "), /\); it starts: oops more$/);
    assert.throws(() => parsePreviewJson(""), /\); it starts: \(empty\)$/);
    assert.throws(
      () => parsePreviewJson(`${"z".repeat(300)}`),
      (e: Error) => e.message.endsWith(`: ${"z".repeat(200)}`),
    );
  });
});

describe("unit: preview summary, property paths (preview/summary.ts)", () => {
  it("reads quoted keys with brackets inside, numeric and non-numeric bare indexes", () => {
    assert.deepStrictEqual(parsePropertyPath('a["x]y"].b'), ["a", "x]y", "b"]);
    assert.deepStrictEqual(parsePropertyPath('a["q\\"r"]'), ["a", 'q"r']);
    assert.deepStrictEqual(parsePropertyPath("a[12]"), ["a", 12]);
    assert.deepStrictEqual(parsePropertyPath("a[b1]"), ["a", "b1"]);
    assert.deepStrictEqual(parsePropertyPath("a[1b]"), ["a", "1b"]);
    assert.deepStrictEqual(parsePropertyPath('a[x"]'), ["a", 'x"']);
  });
  it("keeps an unterminated bracket as the last segment, text and all", () => {
    assert.deepStrictEqual(parsePropertyPath("a[0"), ["a", "[0"]);
    assert.deepStrictEqual(parsePropertyPath('a["b'), ["a", '["b']);
    assert.deepStrictEqual(parsePropertyPath('a["b"x'), ["a", '["b"x']);
    assert.deepStrictEqual(parsePropertyPath('["]'), ['["]']);
  });
  it("ends on an unclosed quoted key after a leading ']' (it looped forever when the quote's -1 became index 0)", () => {
    assert.deepStrictEqual(parsePropertyPath(']["x'), ["]", '["x']);
  });
  it("names the resource and type of URNs, keeping '::' inside a name, and takes a non-URN as the name", () => {
    assert.deepStrictEqual(splitUrn("urn:pulumi:s::p::a:b:C::x::y"), { type: "a:b:C", name: "x::y" });
    assert.deepStrictEqual(splitUrn("not-a-urn"), { type: "", name: "not-a-urn" });
  });
});

describe("unit: preview summary, secrets and values (preview/summary.ts)", () => {
  it("knows secret markers: the placeholder and signed objects, not null, arrays or plain objects", () => {
    assert.strictEqual(isSecretValue("[secret]"), true);
    assert.strictEqual(isSecretValue({ [SECRET_SIG]: "x" }), true);
    assert.strictEqual(isSecretValue(null), false);
    assert.strictEqual(isSecretValue([SECRET_SIG]), false);
    assert.strictEqual(isSecretValue({ a: 1 }), false);
  });
  it("looks a path up: a secret on the way hides the rest; a scalar or a missing key on the way is not found", () => {
    assert.deepStrictEqual(lookupPath({ a: "[secret]" }, ["a", "b"]), { found: true, secret: true });
    assert.deepStrictEqual(lookupPath({ a: 1 }, ["a", "b"]), { found: false, secret: false });
    assert.deepStrictEqual(lookupPath({ a: {} }, ["a", "b"]), { found: false, secret: false });
    assert.deepStrictEqual(lookupPath({ a: null }, ["a", "b"]), { found: false, secret: false });
    assert.deepStrictEqual(lookupPath({ a: [5, 6] }, ["a", 1]), { found: true, value: 6, secret: false });
  });
  it("treats only a Secret's data and stringData as sensitive by position; other types and paths by name", () => {
    assert.strictEqual(isSensitivePath("kubernetes:core/v1:Secret", ["stringData", "x"]), true);
    assert.strictEqual(isSensitivePath("kubernetes:core/v1:Secret", ["data"]), true);
    assert.strictEqual(isSensitivePath("kubernetes:core/v1:Secret", ["metadata", "name"]), false);
    assert.strictEqual(isSensitivePath("x:v1:SecretProviderClass", ["data"]), false);
    assert.strictEqual(isSensitivePath(T, ["data", "tlsCert"]), true);
  });
  it("shows scalars as JSON, cut to 60 characters, unknowns as '(known after apply)', objects not at all", () => {
    assert.strictEqual(displayScalar(UNKNOWN_VALUE), "(known after apply)");
    assert.strictEqual(displayScalar(null), "null");
    assert.strictEqual(displayScalar(true), "true");
    assert.strictEqual(displayScalar(3), "3");
    const exact = "x".repeat(58); // 60 characters as JSON
    assert.strictEqual(displayScalar(exact), `"${exact}"`);
    assert.strictEqual(displayScalar("y".repeat(100)), `"${"y".repeat(58)}…`);
    assert.strictEqual(displayScalar({ a: 1 }), undefined);
    assert.strictEqual(displayScalar([1]), undefined);
  });
});

describe("unit: preview summary, changed inputs of a provider that says only 'changed' (preview/summary.ts)", () => {
  const upd = { kind: "update", inputDiff: true };
  it("names nested paths, added keys and keys beyond the top-level __ bookkeeping", () => {
    assert.deepStrictEqual(inputDiffPaths({ a: { b: 1 } }, { a: { b: 2 } }), [["a.b", upd]]);
    assert.deepStrictEqual(inputDiffPaths({}, { a: 1 }), [["a", { kind: "add", inputDiff: true }]]);
    assert.deepStrictEqual(inputDiffPaths({ a: { __x: 1 } }, { a: { __x: 2 } }), [["a.__x", upd]]);
    assert.deepStrictEqual(inputDiffPaths({ "a b": 1 }, { "a b": 2 }), [['["a b"]', upd]]);
  });
  it("compares an object or array with a value of another shape whole", () => {
    assert.deepStrictEqual(inputDiffPaths({ a: [1] }, { a: { x: 1 } }), [["a", upd]]);
    assert.deepStrictEqual(inputDiffPaths({ a: { x: 1 } }, { a: "s" }), [["a", upd]]);
    assert.deepStrictEqual(inputDiffPaths({ a: null }, { a: { b: 1 } }), [["a", upd]]);
    assert.deepStrictEqual(inputDiffPaths({ a: undefined }, {}), []);
  });
});

describe("unit: preview summary, changed properties of a step (preview/summary.ts)", () => {
  const step = (more: Partial<StepJson>): StepJson => ({ op: "update", urn: urn("r"), ...more });
  it("marks a diffReasons path listed in replaceReasons as forcing replacement, with the input values", () => {
    const s = step({
      diffReasons: ["spec.x"],
      replaceReasons: ["spec.x"],
      oldState: { inputs: { spec: { x: 1 } }, outputs: { spec: { x: 9 } } },
      newState: { inputs: { spec: { x: 2 } } },
    });
    assert.deepStrictEqual(propertyChanges(s, T), [
      { path: "spec.x", kind: "update", replaces: true, secret: false, old: "1", new: "2" },
    ]);
  });
  it("marks a detailedDiff path listed in replaceReasons as forcing replacement, even with a plain kind", () => {
    const s = step({ detailedDiff: { a: { kind: "update" } }, replaceReasons: ["a"] });
    assert.deepStrictEqual(propertyChanges(s, T), [{ path: "a", kind: "update", replaces: true, secret: false }]);
  });
  it("reads an unknown diff kind as a plain update", () => {
    const s = step({ detailedDiff: { a: { kind: "weird" } }, newState: { inputs: { a: 1 } } });
    assert.deepStrictEqual(propertyChanges(s, T), [
      { path: "a", kind: "update", replaces: false, secret: false, new: "1" },
    ]);
  });
  it("takes the old value from the outputs for an output diff, else from the inputs", () => {
    const states = {
      oldState: { inputs: { a: "in" }, outputs: { a: "out" } },
      newState: { inputs: { a: "new" } },
    };
    const old = (d: StepJson["detailedDiff"], st: Partial<StepJson> = states) =>
      propertyChanges(step({ detailedDiff: d, ...st }), T)[0].old;
    assert.strictEqual(old({ a: { kind: "update", inputDiff: false } }), '"out"');
    assert.strictEqual(old({ a: { kind: "update", inputDiff: true } }), '"in"');
    assert.strictEqual(old({ a: { kind: "update" } }), '"in"');
    assert.strictEqual(
      old({ a: { kind: "update", inputDiff: false } }, { oldState: { inputs: { a: "in" } } }),
      '"in"',
      "no outputs: the inputs",
    );
    assert.strictEqual(old({ a: { kind: "update", inputDiff: false } }, {}), undefined, "no old state at all");
  });
  it("shows no old value for an add and no new value for a delete", () => {
    const s = step({
      detailedDiff: { a: { kind: "add" }, b: { kind: "delete" } },
      oldState: { inputs: { a: 1, b: 2 } },
      newState: { inputs: { a: 3, b: 4 } },
    });
    assert.deepStrictEqual(propertyChanges(s, T), [
      { path: "a", kind: "add", replaces: false, secret: false, new: "3" },
      { path: "b", kind: "delete", replaces: false, secret: false, old: "2" },
    ]);
    const noStates = step({ detailedDiff: { a: { kind: "delete" } } });
    assert.deepStrictEqual(propertyChanges(noStates, T), [
      { path: "a", kind: "delete", replaces: false, secret: false },
    ]);
  });
  it("hides a value when either side, or the old inputs, hold a secret there", () => {
    const secretOn = (st: Partial<StepJson>) =>
      propertyChanges(step({ detailedDiff: { a: { kind: "update", inputDiff: false } }, ...st }), T)[0];
    assert.deepStrictEqual(secretOn({ oldState: { inputs: { a: "x" } }, newState: { inputs: { a: "[secret]" } } }), {
      path: "a",
      kind: "update",
      replaces: false,
      secret: true,
    });
    assert.strictEqual(
      secretOn({ oldState: { inputs: { a: "[secret]" }, outputs: { a: "plain" } }, newState: { inputs: { a: "y" } } })
        .secret,
      true,
      "secret in the old inputs, plain in the outputs",
    );
  });
  it("compares inputs for replace and create-replacement steps too, and lists nothing for other steps", () => {
    const st = { oldState: { inputs: { a: 1 } }, newState: { inputs: { a: 2 } } };
    const expected = [{ path: "a", kind: "update", replaces: false, secret: false, old: "1", new: "2" }];
    assert.deepStrictEqual(propertyChanges(step({ op: "replace", ...st }), T), expected);
    assert.deepStrictEqual(propertyChanges(step({ op: "create-replacement", ...st }), T), expected);
    assert.deepStrictEqual(propertyChanges(step({ op: "delete-replaced", ...st }), T), []);
    assert.deepStrictEqual(propertyChanges(step({ op: "replace", newState: { inputs: { a: 2 } } }), T), [
      { path: "a", kind: "add", replaces: false, secret: false, new: "2" },
    ]);
    assert.deepStrictEqual(propertyChanges(step({ op: "replace", oldState: { inputs: { a: 1 } } }), T), [
      { path: "a", kind: "delete", replaces: false, secret: false, old: "1" },
    ]);
  });
});

describe("unit: preview summary, one stack (preview/summary.ts)", () => {
  it("counts a replacement shown as two steps once, with the properties of whichever step has them", () => {
    const create: StepJson = {
      op: "create-replacement",
      urn: urn("cm"),
      detailedDiff: { "metadata.name": { kind: "update-replace" } },
    };
    const del: StepJson = { op: "delete-replaced", urn: urn("cm") };
    const prop = [{ path: "metadata.name", kind: "update", replaces: true, secret: false }];
    for (const steps of [
      [create, del],
      [del, create],
    ]) {
      const s = summarizeStack("s", { steps });
      assert.deepStrictEqual(s.counts, { ...zero, replace: 1 });
      assert.deepStrictEqual(
        s.resources.map((r) => [r.op, r.name, r.properties]),
        [["replace", "cm", prop]],
      );
    }
  });
  it("takes the type from the new state, else the old state, else the URN; lists no properties for creates", () => {
    const s = summarizeStack("s", {
      steps: [
        { op: "delete", urn: urn("a"), oldState: { type: "x:y:Old" } },
        { op: "delete", urn: urn("b") },
        {
          op: "create",
          urn: urn("c"),
          newState: { type: "x:y:New", inputs: { a: 1 } },
          detailedDiff: { a: { kind: "add" } },
        },
      ],
    });
    assert.deepStrictEqual(
      s.resources.map((r) => [r.name, r.type, r.properties.length]),
      [
        ["a", "x:y:Old", 0],
        ["b", T, 0],
        ["c", "x:y:New", 0],
      ],
    );
  });
  it("keeps only error diagnostics with a message, trimmed", () => {
    const s = summarizeStack("s", {
      diagnostics: [
        { severity: "warning", message: "just a warning" },
        { severity: "error", message: "  broke \n" },
        { severity: "error" },
        { severity: "error", message: "   " },
      ],
    });
    assert.deepStrictEqual(s.errors, ["broke"]);
  });
});

describe("unit: preview Markdown, pieces (preview/markdown.ts)", () => {
  it("puts line breaks in a cell as spaces", () => {
    assert.strictEqual(cell("a\nb\r\nc|d"), "a b c\\|d");
  });
  it("describes each kind of property change, secret or not", () => {
    const p = { path: "p", replaces: false, secret: false };
    const cases: [Parameters<typeof describeProperty>[0], string][] = [
      [{ ...p, kind: "add", secret: true, new: "1" }, "`p` added (secret)"],
      [{ ...p, kind: "delete", secret: true, old: "1" }, "`p` removed (secret)"],
      [{ ...p, kind: "update", secret: true }, "`p` changed (secret)"],
      [{ ...p, kind: "add", new: "1" }, "`p` added `1`"],
      [{ ...p, kind: "add" }, "`p` added"],
      [{ ...p, kind: "delete", old: "1" }, "`p` removed `1`"],
      [{ ...p, kind: "delete" }, "`p` removed"],
      [{ ...p, kind: "update", old: "1", new: "2" }, "`p` `1` → `2`"],
      [{ ...p, kind: "update", new: "2" }, "`p` → `2`"],
      [{ ...p, kind: "update", old: "1" }, "`p` changed"],
      [{ ...p, kind: "update" }, "`p` changed"],
      [{ ...p, kind: "update", replaces: true }, "`p` changed **(forces replacement)**"],
    ];
    for (const [change, text] of cases) assert.strictEqual(describeProperty(change), text);
  });
  it("lists exactly maxProps properties without a 'more' line, and a dash for an update without any", () => {
    const props = ["a", "b"].map((path) => ({ path, kind: "add" as const, replaces: false, secret: false }));
    const r = { op: "update" as const, name: "n", type: "t", urn: "u", properties: props };
    assert.strictEqual(resourceRow(r, 2), "| update | `n` | `t` | `a` added<br>`b` added |");
    assert.strictEqual(resourceRow(r, 1), "| update | `n` | `t` | `a` added<br>… 1 more properties |");
    assert.strictEqual(resourceRow({ ...r, properties: [] }), "| update | `n` | `t` | — |");
  });
  it("heads a failed stack 'preview failed' in the headline and the table", () => {
    const failed = stack("f", { counts: { ...zero, create: 2 }, errors: ["x"] });
    assert.strictEqual(stackHeadline(failed), "preview failed");
    assert.strictEqual(countsTable([failed]).split("\n")[2], "| `f` | preview failed | | | | |");
  });
  it("totals creates, updates, replaces and deletes over the stacks, not unchanged ones", () => {
    const a = stack("a", { counts: { create: 1, update: 2, replace: 4, delete: 8, same: 100 } });
    const b = stack("b", { counts: { ...zero, create: 16 } });
    assert.strictEqual(totalChanges([a, b]), 31);
    assert.strictEqual(totalChanges([]), 0);
  });
});

describe("unit: preview Markdown, the whole comment (preview/markdown.ts)", () => {
  const headOnly = (md: string) => md.split("\n\n#### ")[0];
  it("has no marker line with marker '', the given title, and the default title otherwise", () => {
    const s = [stack("s")];
    assert.ok(renderMarkdown(s, { marker: "" }).startsWith("### Pulumi preview\n\n| stack |"));
    assert.ok(renderMarkdown(s, { title: "T", marker: "" }).startsWith("### T\n\n| stack |"));
  });
  it("prints no resource table for a stack without changes (exact)", () => {
    assert.strictEqual(
      renderMarkdown([stack("s")], { marker: "" }),
      [
        "### Pulumi preview",
        "",
        "| stack | create | update | replace | delete | unchanged |",
        "|---|---:|---:|---:|---:|---:|",
        "| `s` | 0 | 0 | 0 | 0 | 0 |",
        "",
        "#### `s`: no changes",
        "",
      ].join("\n"),
    );
  });
  it("lists at most 5 errors, each cut at 1500 characters, with ``` defused", () => {
    const errors = ["a ``` b", "x".repeat(1_501), "y".repeat(1_500), "4", "5", "6", "7"];
    const md = renderMarkdown([stack("s", { errors })], { marker: "" });
    const block = md.split("The preview failed:\n\n```\n")[1];
    assert.strictEqual(
      block,
      ["a ''' b", `${"x".repeat(1_500)}…`, "y".repeat(1_500), "4", "5", "… 2 more errors\n```\n"].join("\n\n"),
    );
    const five = renderMarkdown([stack("s", { errors: ["1", "2", "3", "4", "5"] })], { marker: "" });
    assert.ok(five.endsWith("\n\n5\n```\n"), "exactly 5 errors: no 'more' line");
  });
  it("redacts strings of 4 characters or more, longest first, and leaves shorter ones", () => {
    const md = renderMarkdown([stack("s", { errors: ["k abc abcd abcdef"] })], { redact: ["abcd", "abcdef", "abc"] });
    assert.ok(md.includes("k abc [secret] [secret]\n"), md);
  });
  it("honours maxPropertiesPerResource", () => {
    const props = ["a", "b"].map((path) => ({ path, kind: "add" as const, replaces: false, secret: false }));
    const s = stack("s", {
      counts: { ...zero, update: 1 },
      resources: [{ op: "update", name: "n", type: "t", urn: "u", properties: props }],
    });
    assert.ok(renderMarkdown([s], { maxPropertiesPerResource: 1 }).includes("`a` added<br>… 1 more properties |"));
  });

  /** A stack with `n` updates whose rows are all the same length. */
  const rows = (name: string, n: number): StackSummary =>
    stack(name, {
      counts: { ...zero, update: n },
      resources: Array.from({ length: n }, (_, i) => ({
        op: "update" as const,
        name: `r${String(i).padStart(3, "0")}`,
        type: "t",
        urn: `u${i}`,
        properties: [],
      })),
    });
  const ROW = "\n| update | `r000` | `t` | — |".length;
  const TABLE = "\n\n| op | resource | type | changed properties |\n|---|---|---|---|".length;
  const shown = (md: string, name: string) =>
    (
      md
        .split(`#### \`${name}\``)[1]
        ?.split("#### ")[0]
        .match(/^\| update \|/gm) ?? []
    ).length;

  it("fits rows while keeping (200 + 3 × longest stack name) characters per note still to come", () => {
    const name = "s".repeat(100); // a note's room: 200 + 300 = 500 characters
    const one = [rows(name, 50)];
    const full = renderMarkdown(one, { maxChars: Number.MAX_SAFE_INTEGER });
    const heading = `\n\n#### \`${name}\`: 50 to update`.length;
    const before = headOnly(full).length + heading + TABLE;
    // Room for k rows: the rows, then this stack's note and the last line (2 × 500).
    const budget = (k: number) => before + k * ROW + 2 * 500;
    assert.strictEqual(shown(renderMarkdown(one, { maxChars: budget(10) }), name), 10);
    assert.strictEqual(shown(renderMarkdown(one, { maxChars: budget(10) - 1 }), name), 9);
    // With a later stack, its note is kept free too (3 × 500 while on the first stack).
    const two = [rows(name, 50), rows("b", 1)];
    const before2 = headOnly(renderMarkdown(two, { maxChars: Number.MAX_SAFE_INTEGER })).length + heading + TABLE;
    assert.strictEqual(shown(renderMarkdown(two, { maxChars: before2 + 10 * ROW + 3 * 500 }), name), 10);
    assert.strictEqual(shown(renderMarkdown(two, { maxChars: before2 + 10 * ROW + 3 * 500 - 1 }), name), 9);
  });
  it("keeps room for the notes of every later stack, on a middle stack too", () => {
    const name = "m".repeat(100);
    const three = [rows("a", 1), rows(name, 50), rows("c", 1)];
    const full = renderMarkdown(three, { maxChars: Number.MAX_SAFE_INTEGER });
    const heading = `\n\n#### \`${name}\`: 50 to update`.length;
    const before = full.indexOf(`\n\n#### \`${name}\``) + heading + TABLE;
    // On the middle stack: its note, the last stack's and the last line (3 × 500); 30 rows leave the first
    // stack room for its own row under its larger reserve (4 × 500).
    assert.strictEqual(shown(renderMarkdown(three, { maxChars: before + 30 * ROW + 3 * 500 }), name), 30);
    assert.strictEqual(shown(renderMarkdown(three, { maxChars: before + 30 * ROW + 3 * 500 - 1 }), name), 29);
  });
  it("once a row does not fit, leaves out every later row, shorter ones too", () => {
    const long = { path: "p".repeat(300), kind: "add" as const, replaces: false, secret: false };
    const s = stack("s", {
      counts: { ...zero, update: 3 },
      resources: [
        { op: "update", name: "a", type: "t", urn: "a", properties: [] },
        { op: "update", name: "b", type: "t", urn: "b", properties: [long] },
        { op: "update", name: "c", type: "t", urn: "c", properties: [] },
      ],
    });
    const full = renderMarkdown([s], { maxChars: Number.MAX_SAFE_INTEGER });
    // Room for row a and then some, but not for row b: row c would fit, and is still left out.
    const budget = full.indexOf("\n| update | `b`") + 100 + 2 * 203;
    const md = renderMarkdown([s], { maxChars: budget });
    assert.ok(md.includes("| update | `a` |") && !md.includes("| update | `c` |"), md);
    assert.ok(md.includes("_… 2 more resources of `s` not shown (comment size limit)._"), md);
  });
  it("shows a stack's errors and table head only when they fit, with the blank line before the table", () => {
    const err = "e".repeat(500);
    const s = stack("s", { counts: { ...zero, update: 1 }, errors: [err], resources: rows("x", 1).resources });
    const before = renderMarkdown([s], { maxChars: Number.MAX_SAFE_INTEGER }).split("\n\n#### ")[0].length;
    const heading = "\n\n#### `s`: preview failed".length;
    const errors = `\n\nThe preview failed:\n\n\`\`\`\n${err}\n\`\`\``.length;
    const fits = before + heading + errors + TABLE + 2 * 203; // 203: a note's room for a one-letter stack name
    const md = renderMarkdown([s], { maxChars: fits });
    assert.ok(md.includes(err) && md.includes("| op | resource |"), md);
    const tight = renderMarkdown([s], { maxChars: fits - 1 });
    assert.ok(!tight.includes(err) && !tight.includes("| op | resource |"), tight);
  });
  it("shows only the heading of a stack whose errors do not fit, and says one resource was left out", () => {
    const big = stack("big", {
      counts: { ...zero, update: 1 },
      errors: ["e".repeat(1_400)],
      resources: rows("x", 1).resources,
    });
    const md = renderMarkdown([big], { maxChars: 2_000, marker: "" });
    assert.ok(!md.includes("The preview failed") && !md.includes("| op | resource |"), md);
    assert.ok(md.includes("\n\n_… 1 more resource of `big` not shown (comment size limit)._"), md);
    assert.ok(md.endsWith("\n\n**… 1 more resource not shown** (`big`: 1); the counts above are complete.\n"), md);
  });
  it("returns a comment exactly maxChars long as it is, and cuts a longer one with a last line saying so", () => {
    const s = [stack("s")];
    const text = renderMarkdown(s, { title: "t".repeat(200) });
    assert.strictEqual(renderMarkdown(s, { title: "t".repeat(200), maxChars: text.length }), text);
    assert.strictEqual(
      renderMarkdown(s, { title: "t".repeat(200), maxChars: 100 }),
      `${text.slice(0, 60)}\n\n**… output cut at 100 characters**\n`,
    );
  });
});

describe("unit: preview lab stack files and arguments, edge cases (preview/lab-config.ts)", () => {
  it("rewrites lab paths inside arrays and leaves nulls, numbers and booleans as they are", () => {
    const config = { a: [".lab/x/k", [".lab/y/k"]], b: null, c: 3, d: true, e: { f: ".lab/z/k" } };
    assert.deepStrictEqual(rewriteLabPaths(config, "/L"), {
      a: ["/L/x/k", ["/L/y/k"]],
      b: null,
      c: 3,
      d: true,
      e: { f: "/L/z/k" },
    });
  });
  it("names lab clusters sorted, and ignores '.lab/' with no cluster name", () => {
    assert.deepStrictEqual(labClustersIn({ a: ".lab/zeta/k", b: ".lab/alpha/k", c: ".lab/", d: ".lab//k", e: null }), [
      "alpha",
      "zeta",
    ]);
    assert.deepStrictEqual(labNeeds([{ a: ".lab/zeta/k" }, { a: ".lab/alpha/k" }]), {
      members: ["alpha", "zeta"],
      karmada: false,
    });
  });
  it("skips secret entries without a key name, and lists each key once", () => {
    const config = {
      "iko-plus:federatedIrisClusters": [
        null,
        { name: "no-key" },
        { licenseKeyConfig: "lic" },
        { licenseKeyConfig: "lic" },
      ],
      "iko-plus:fleetSecrets": [null, { name: "no-key" }, { dataKey: "data" }],
    };
    assert.deepStrictEqual(labSecretKeys(config), [
      { key: "lic", shape: "text" },
      { key: "data", shape: "json" },
    ]);
    assert.deepStrictEqual(labSecretKeys({ ...config, lic: "set" }), [{ key: "data", shape: "json" }]);
    assert.deepStrictEqual(labSecretKeys({ "iko-plus:fleetSecrets": "not a list" }), []);
  });
  it("usage names the command and its arguments", () => {
    assert.strictEqual(
      USAGE,
      "usage: npm run preview:pr -- --base <git ref> [--stacks lab-wfh,lab-fleet] [--out <file.md>] [--lab-dir <dir>] [--max-chars <n>]",
    );
  });
  it("needs a value after a flag: not empty, not the next flag, unless given inline", () => {
    assert.throws(() => parsePreviewArgs(["--base="]), { message: `--base needs a value; ${USAGE}` });
    assert.throws(() => parsePreviewArgs(["--base", "x", "--out", "--stacks", "a"]), {
      message: `--out needs a value; ${USAGE}`,
    });
    assert.throws(() => parsePreviewArgs(["--base", ""]), /--base needs a value/);
    assert.strictEqual(parsePreviewArgs(["--base=x", "--out=--odd.md"]).out, "--odd.md");
    assert.strictEqual(parsePreviewArgs(["--base", "x", "--out", "a--"]).out, "a--");
  });
  it("takes --lab-dir, trims stack names and drops empty ones", () => {
    assert.deepStrictEqual(parsePreviewArgs(["--base", "x", "--lab-dir", "/l", "--stacks", " lab-a , ,lab-b,"]), {
      base: "x",
      stacks: ["lab-a", "lab-b"],
      out: undefined,
      labDir: "/l",
      maxChars: undefined,
    });
    assert.throws(() => parsePreviewArgs(["--base", "x", "--lab-dir"]), {
      message: `--lab-dir needs a value; ${USAGE}`,
    });
  });
  it("accepts --max-chars from 2000 to 65536 inclusive, integers only", () => {
    assert.strictEqual(parsePreviewArgs(["--base", "x", "--max-chars", "2000"]).maxChars, 2_000);
    assert.strictEqual(parsePreviewArgs(["--base", "x", "--max-chars", "65536"]).maxChars, 65_536);
    for (const bad of ["1999", "65537", "2000.5", "abc"])
      assert.throws(() => parsePreviewArgs(["--base", "x", "--max-chars", bad]), {
        message: `--max-chars ${bad}: expected an integer from 2000 to 65536 (GitHub's comment limit)`,
      });
  });
});
