/**
 * The PR preview summary (preview/summary.ts, preview/markdown.ts, preview/lab-config.ts): counts,
 * changed property paths, secret masking and trimming, checked against exact output. The step JSON
 * has the shape `pulumi preview --diff --json` printed on the lab (fleet stack, placement and
 * serviceType changed), cut down to what the summary reads.
 */
import * as assert from "assert";
import { COMMENT_MARKER, GITHUB_COMMENT_LIMIT, describeProperty, renderMarkdown } from "../../preview/markdown";
import { labClustersIn, labNeeds, labSecretKeys, parsePreviewArgs, rewriteLabPaths } from "../../preview/lab-config";
import {
  PreviewJson,
  SECRET_SIG,
  StackSummary,
  StepJson,
  inputDiffPaths,
  isSensitivePath,
  parsePreviewJson,
  parsePropertyPath,
  splitUrn,
  summarizeStack,
} from "../../preview/summary";

const URN = (type: string, name: string) =>
  `urn:pulumi:lab-fleet::iko-plus::iko-plus:karmada:FederatedIrisCluster$${type}::${name}`;
const POLICY_T = "kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy";
const IRIS_T = "kubernetes:intersystems.com/v1alpha1:IrisCluster";
const SECRET_T = "kubernetes:core/v1:Secret";
const LICENSE = "IRIS-LICENSE-0123456789abcdef";

function fleetPreview(): PreviewJson {
  const policy: StepJson = {
    op: "update",
    urn: URN(POLICY_T, "default-federated-iris-policy"),
    oldState: { type: POLICY_T, inputs: { spec: { placement: { clusterAffinity: { clusterNames: ["ikoclone"] } } } } },
    newState: {
      type: POLICY_T,
      inputs: { spec: { placement: { clusterAffinity: { clusterNames: ["ikoclone", "ikogke"] } } } },
    },
    detailedDiff: { "spec.placement.clusterAffinity.clusterNames[1]": { kind: "add", inputDiff: false } },
  };
  const iris: StepJson = {
    op: "update",
    urn: URN(IRIS_T, "default-federated-iris-template"),
    oldState: {
      type: IRIS_T,
      inputs: { spec: { serviceTemplate: { spec: { type: "LoadBalancer" } } } },
      outputs: { spec: { serviceTemplate: { spec: { type: "LoadBalancer" } } } },
    },
    newState: { type: IRIS_T, inputs: { spec: { serviceTemplate: { spec: { type: "NodePort" } } } } },
    detailedDiff: { "spec.serviceTemplate.spec.type": { kind: "update", inputDiff: false } },
  };
  const license: StepJson = {
    op: "update",
    urn: URN(SECRET_T, "default-federated-iris-license"),
    oldState: {
      type: SECRET_T,
      inputs: { stringData: { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" } },
    },
    newState: { type: SECRET_T, inputs: { stringData: "[secret]" } },
    detailedDiff: { 'stringData["iris.key"]': { kind: "update", inputDiff: true } },
  };
  const cm: StepJson = {
    op: "replace",
    urn: URN("kubernetes:core/v1:ConfigMap", "cfg"),
    oldState: { type: "kubernetes:core/v1:ConfigMap", inputs: { metadata: { name: "a" }, data: { mode: "x" } } },
    newState: {
      type: "kubernetes:core/v1:ConfigMap",
      inputs: { metadata: { name: "b" }, data: { mode: "x", password: "hunter2-plain" } },
    },
    detailedDiff: { "metadata.name": { kind: "update-replace" }, "data.password": { kind: "add" } },
    replaceReasons: ["metadata.name"],
  };
  return {
    steps: [
      { op: "same", urn: "urn:pulumi:lab-fleet::iko-plus::pulumi:pulumi:Stack::iko-plus-lab-fleet" },
      { op: "read", urn: URN("kubernetes:core/v1:Namespace", "ikogke-member-kube-system") },
      policy,
      iris,
      license,
      cm,
      {
        op: "create",
        urn: URN("kubernetes:core/v1:Namespace", "new-ns"),
        newState: { type: "kubernetes:core/v1:Namespace", inputs: {} },
      },
      {
        op: "delete",
        urn: URN("kubernetes:core/v1:ConfigMap", "old-cm"),
        oldState: { type: "kubernetes:core/v1:ConfigMap", inputs: {} },
      },
      { op: "same", urn: URN(POLICY_T, "unchanged") },
    ],
    changeSummary: { same: 2, read: 1, update: 3, replace: 1, create: 1, delete: 1 },
    diagnostics: [{ severity: "warning", message: "warning: using pulumi-resource-kubernetes from $PATH\n" }],
  };
}

describe("preview summary: parsing a --json preview", () => {
  it("splits property paths, quoted keys and indexes", () => {
    assert.deepStrictEqual(parsePropertyPath("spec.placement.clusterAffinity.clusterNames[1]"), [
      "spec",
      "placement",
      "clusterAffinity",
      "clusterNames",
      1,
    ]);
    assert.deepStrictEqual(parsePropertyPath('metadata.annotations["pulumi.com/skipAwait"]'), [
      "metadata",
      "annotations",
      "pulumi.com/skipAwait",
    ]);
    assert.deepStrictEqual(parsePropertyPath('a["x\\"y"].b'), ["a", 'x"y', "b"]);
  });
  it("names the type and resource of a URN, children of components included", () => {
    assert.deepStrictEqual(splitUrn(URN(IRIS_T, "default-federated-iris-template")), {
      type: IRIS_T,
      name: "default-federated-iris-template",
    });
    assert.deepStrictEqual(splitUrn("urn:pulumi:s::p::pulumi:pulumi:Stack::p-s"), {
      type: "pulumi:pulumi:Stack",
      name: "p-s",
    });
  });
  it("counts creates, updates, replaces and deletes; lists changed resources, destructive first, then by name (not in the engine's order)", () => {
    const s = summarizeStack("lab-fleet", fleetPreview());
    assert.deepStrictEqual(s.counts, { create: 1, update: 3, replace: 1, delete: 1, same: 2 });
    assert.deepStrictEqual(
      s.resources.map((r) => `${r.op} ${r.name}`),
      [
        "replace cfg",
        "delete old-cm",
        "update default-federated-iris-license",
        "update default-federated-iris-policy",
        "update default-federated-iris-template",
        "create new-ns",
      ],
    );
    assert.deepStrictEqual(s.errors, []);
    const sames = summarizeStack("x", {
      steps: [{ op: "same", urn: "urn:pulumi:x::p::pulumi:pulumi:Stack::p-x" }],
      changeSummary: { same: 48 },
    });
    assert.strictEqual(
      sames.counts.same,
      48,
      "--json lists unchanged resources only with --show-sames: the change summary counts them",
    );
  });
  it("gives the changed property paths with old → new for non-secret scalars", () => {
    const [, , , policy, iris] = summarizeStack("lab-fleet", fleetPreview()).resources;
    assert.deepStrictEqual(policy.properties, [
      {
        path: "spec.placement.clusterAffinity.clusterNames[1]",
        kind: "add",
        replaces: false,
        secret: false,
        new: '"ikogke"',
      },
    ]);
    assert.deepStrictEqual(iris.properties, [
      {
        path: "spec.serviceTemplate.spec.type",
        kind: "update",
        replaces: false,
        secret: false,
        old: '"LoadBalancer"',
        new: '"NodePort"',
      },
    ]);
  });
  it("hides values of secret and sensitive properties, keeping their paths; marks replacements", () => {
    const s = summarizeStack("lab-fleet", fleetPreview());
    const license = s.resources.find((r) => r.name === "default-federated-iris-license");
    assert.deepStrictEqual(license?.properties, [
      { path: 'stringData["iris.key"]', kind: "update", replaces: false, secret: true },
    ]);
    assert.deepStrictEqual(s.resources[0].properties, [
      { path: "metadata.name", kind: "update", replaces: true, secret: false, old: '"a"', new: '"b"' },
      { path: "data.password", kind: "add", replaces: false, secret: true },
    ]);
    assert.strictEqual(isSensitivePath("kubernetes:core/v1:ConfigMap", ["data", "kubeconfig"]), true);
    assert.strictEqual(isSensitivePath("kubernetes:core/v1:Secret", ["data", "anything"]), true);
    assert.strictEqual(isSensitivePath("kubernetes:core/v1:ConfigMap", ["data", "mode"]), false);
  });
  it("falls back to diffReasons, and collects error diagnostics", () => {
    const s = summarizeStack("x", {
      steps: [
        {
          op: "update",
          urn: "urn:pulumi:x::p::t:m:T::r",
          oldState: { inputs: { size: 1 } },
          newState: { type: "t:m:T", inputs: { size: 2 } },
          diffReasons: ["size"],
        },
      ],
      diagnostics: [
        { severity: "error", message: "error: iko-plus:clusters[0].name: bad\n" },
        { severity: "warning", message: "w" },
      ],
    });
    assert.deepStrictEqual(s.resources[0].properties, [
      { path: "size", kind: "update", replaces: false, secret: false, old: "1", new: "2" },
    ]);
    assert.deepStrictEqual(s.errors, ["error: iko-plus:clusters[0].name: bad"]);
  });
  it("a step with neither detailedDiff nor diffReasons (a dynamic provider) gets its paths from the inputs; secrets and __ keys stay hidden", () => {
    const SEC = { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1" };
    const oldInputs = {
      __provider: "code-v1",
      cluster: "ikogke",
      timeoutSeconds: 120,
      karmada: SEC,
      objects: [{ kind: "Secret", name: "a" }],
    };
    const newInputs = {
      __provider: "code-v2",
      cluster: "ikogke",
      timeoutSeconds: 60,
      karmada: { ...SEC, ciphertext: "v2" },
      objects: [
        { kind: "Secret", name: "a" },
        { kind: "IrisCluster", name: "b" },
      ],
    };
    const s = summarizeStack("x", {
      steps: [
        {
          op: "update",
          urn: "urn:pulumi:x::p::d:m:W::w",
          oldState: { inputs: oldInputs },
          newState: { type: "d:m:W", inputs: newInputs },
        },
      ],
    });
    assert.deepStrictEqual(s.resources[0].properties, [
      { path: "timeoutSeconds", kind: "update", replaces: false, secret: false, old: "120", new: "60" },
      { path: "karmada", kind: "update", replaces: false, secret: true },
      { path: "objects[1]", kind: "add", replaces: false, secret: false },
    ]);
    assert.deepStrictEqual(inputDiffPaths({ a: { "b.c": 1 } }, { a: { "b.c": 2 } }, new Set(["a"])), [
      ['a["b.c"]', { kind: "update-replace", inputDiff: true }],
    ]);
    assert.deepStrictEqual(inputDiffPaths({ a: [1, 2] }, { a: [1] }), [["a[1]", { kind: "delete", inputDiff: true }]]);
  });
  it("parses --json output and says what it got otherwise", () => {
    assert.deepStrictEqual(parsePreviewJson('{"steps": []}'), { steps: [] });
    assert.throws(
      () => parsePreviewJson("error: no stack named 'x' found"),
      /not pulumi's --json object .* it starts: error: no stack named 'x' found/,
    );
  });
});

describe("preview summary: Markdown", () => {
  it("renders the counts table first, then each stack's resources with their changes (exact)", () => {
    const fleet = summarizeStack("lab-fleet", fleetPreview());
    const wfh = summarizeStack("lab-wfh", {
      steps: [{ op: "same", urn: "urn:pulumi:lab-wfh::iko-plus::pulumi:pulumi:Stack::iko-plus-lab-wfh" }],
    });
    const md = renderMarkdown([fleet, wfh], { title: "Pulumi preview", intro: "Base `main`." });
    assert.strictEqual(
      md,
      [
        COMMENT_MARKER,
        "### Pulumi preview",
        "",
        "Base `main`.",
        "",
        "| stack | create | update | replace | delete | unchanged |",
        "|---|---:|---:|---:|---:|---:|",
        "| `lab-fleet` | 1 | 3 | 1 | 1 | 2 |",
        "| `lab-wfh` | 0 | 0 | 0 | 0 | 1 |",
        "",
        "#### `lab-fleet`: 1 to create, 3 to update, 1 to replace, 1 to delete",
        "",
        "| op | resource | type | changed properties |",
        "|---|---|---|---|",
        '| replace | `cfg` | `kubernetes:core/v1:ConfigMap` | `metadata.name` `"a"` → `"b"` **(forces replacement)**<br>`data.password` added (secret) |',
        "| delete | `old-cm` | `kubernetes:core/v1:ConfigMap` | (deleted) |",
        '| update | `default-federated-iris-license` | `kubernetes:core/v1:Secret` | `stringData["iris.key"]` changed (secret) |',
        '| update | `default-federated-iris-policy` | `kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy` | `spec.placement.clusterAffinity.clusterNames[1]` added `"ikogke"` |',
        '| update | `default-federated-iris-template` | `kubernetes:intersystems.com/v1alpha1:IrisCluster` | `spec.serviceTemplate.spec.type` `"LoadBalancer"` → `"NodePort"` |',
        "| create | `new-ns` | `kubernetes:core/v1:Namespace` | (new) |",
        "",
        "#### `lab-wfh`: no changes",
        "",
      ].join("\n"),
    );
  });
  it("never prints a secret value: not from masked properties, nor from redacted strings", () => {
    const preview = fleetPreview();
    const md = renderMarkdown([summarizeStack("lab-fleet", preview)], { redact: [LICENSE] });
    assert.ok(!md.includes("hunter2-plain"), "a sensitive property's value is hidden");
    const failed: StackSummary = {
      stack: "s",
      counts: { create: 0, update: 0, replace: 0, delete: 0, same: 0 },
      destructive: [],
      resources: [],
      errors: [`error: license ${LICENSE} rejected`],
    };
    const md2 = renderMarkdown([failed], { redact: [LICENSE] });
    assert.ok(!md2.includes(LICENSE));
    assert.match(md2, /\| `s` \| preview failed \|/);
    assert.match(md2, /The preview failed:\n\n```\nerror: license \[secret\] rejected\n```/);
  });
  it("escapes pipes and backticks inside cells", () => {
    assert.strictEqual(
      describeProperty({ path: "a", kind: "update", replaces: false, secret: false, old: '"x`y"', new: '"z"' }),
      '`a` `` "x`y" `` → `"z"`',
    );
    const md = renderMarkdown(
      [
        {
          stack: "s",
          counts: { create: 0, update: 1, replace: 0, delete: 0, same: 0 },
          destructive: [],
          errors: [],
          resources: [
            {
              op: "update",
              name: "n",
              type: "t",
              urn: "u",
              properties: [{ path: "a", kind: "update", replaces: false, secret: false, old: '"p|q"', new: '"r"' }],
            },
          ],
        },
      ],
      { marker: "" },
    );
    assert.ok(md.includes('| update | `n` | `t` | `a` `"p\\|q"` → `"r"` |'));
  });
  it("trims to the budget, keeps the counts, and says how many resources were left out", () => {
    const steps: StepJson[] = Array.from({ length: 2_000 }, (_, i) => ({
      op: "update",
      urn: URN(IRIS_T, `iris-${String(i).padStart(4, "0")}`),
      oldState: { inputs: { spec: { a: "x".repeat(30), b: 1 } } },
      newState: { type: IRIS_T, inputs: { spec: { a: "y".repeat(30), b: 2 } } },
      detailedDiff: { "spec.a": { kind: "update" }, "spec.b": { kind: "update" } },
    }));
    const big = summarizeStack("lab-fleet", { steps });
    const small = summarizeStack("lab-wfh", {
      steps: steps.slice(0, 3).map((s) => ({ ...s, urn: s.urn.replace("lab-fleet", "lab-wfh") })),
    });
    const md = renderMarkdown([big, small]);
    assert.ok(md.length <= 60_000 && md.length <= GITHUB_COMMENT_LIMIT, `length ${md.length}`);
    assert.ok(
      md.includes("| `lab-fleet` | 0 | 2000 | 0 | 0 | 0 |\n| `lab-wfh` | 0 | 3 | 0 | 0 | 0 |"),
      "the counts table is complete",
    );
    const [fleetPart, wfhPart] = md.split("#### `lab-wfh`");
    const fleetShown = fleetPart.match(/^\| update \| `iris-/gm)?.length ?? 0;
    const wfhShown = wfhPart.match(/^\| update \| `iris-/gm)?.length ?? 0;
    assert.ok(fleetShown > 100 && fleetShown < 2_000, `fleet rows shown: ${fleetShown}`);
    assert.ok(md.includes("`iris-0000`") && !md.includes("`iris-1999`"), "the first resources are the ones shown");
    assert.ok(
      fleetPart.includes(`_… ${2_000 - fleetShown} more resources of \`lab-fleet\` not shown (comment size limit)._`),
    );
    const omitted = 2_000 - fleetShown + 3 - wfhShown;
    const by =
      wfhShown < 3
        ? `\`lab-fleet\`: ${2_000 - fleetShown}, \`lab-wfh\`: ${3 - wfhShown}`
        : `\`lab-fleet\`: ${2_000 - fleetShown}`;
    assert.ok(
      md.endsWith(`\n\n**… ${omitted} more resources not shown** (${by}); the counts above are complete.\n`),
      md.slice(-300),
    );
    assert.ok(renderMarkdown([big], { maxChars: 5_000 }).length <= 5_000);
    assert.strictEqual(
      renderMarkdown([big], { maxChars: Number.MAX_SAFE_INTEGER }).match(/^\| update /gm)?.length,
      2_000,
      "untrimmed: every row",
    );
  });
  it("lists at most 12 properties per resource, then how many more", () => {
    const detailedDiff = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`spec.p${i}`, { kind: "add" }]));
    const s = summarizeStack("s", {
      steps: [
        { op: "update", urn: "urn:pulumi:s::p::t:m:T::r", newState: { type: "t:m:T", inputs: {} }, detailedDiff },
      ],
    });
    const md = renderMarkdown([s]);
    assert.ok(md.includes("`spec.p11` added<br>… 3 more properties |"));
    assert.ok(!md.includes("spec.p12"));
  });
});

describe("preview: lab stack files and arguments", () => {
  const fleet = {
    "iko-plus:program": "fleet",
    "iko-plus:clusters": [
      { name: "ikoclone", kubeconfigPath: ".lab/ikoclone/kubeconfig" },
      { name: "ikogke", kubeconfigPath: ".lab/ikogke/kubeconfig" },
    ],
    "iko-plus:karmada": { mode: "existing", kubeconfigPath: ".lab/karmada/kubeconfig" },
    "iko-plus:federatedIrisClusters": [{ name: "federated-iris", licenseKeyConfig: "irisLicenseKey" }],
    "iko-plus:fleetSecrets": [{ name: "shhhh-secret", dataKey: "shhhhSecretData" }],
  };
  const wfh = {
    "iko-plus:home": { kubeconfigPath: ".lab/ikohome/kubeconfig" },
    "iko-plus:work": { kubeconfigPath: ".lab/ikowork/kubeconfig" },
    "iko-plus:iko": { chartPath: "./test/fixtures/iko-chart/iris-operator" },
  };
  it("finds the lab clusters a stack names and the lab both stacks need", () => {
    assert.deepStrictEqual(labClustersIn(fleet), ["ikoclone", "ikogke", "karmada"]);
    assert.deepStrictEqual(labNeeds([fleet, wfh]), {
      members: ["ikoclone", "ikogke", "ikohome", "ikowork"],
      karmada: true,
    });
    assert.deepStrictEqual(labNeeds([wfh]), { members: ["ikohome", "ikowork"], karmada: false });
  });
  it("points .lab/ paths at another lab folder and leaves other paths alone", () => {
    const out = rewriteLabPaths(wfh, "/tmp/x/lab");
    assert.deepStrictEqual(out, {
      "iko-plus:home": { kubeconfigPath: "/tmp/x/lab/ikohome/kubeconfig" },
      "iko-plus:work": { kubeconfigPath: "/tmp/x/lab/ikowork/kubeconfig" },
      "iko-plus:iko": { chartPath: "./test/fixtures/iko-chart/iris-operator" },
    });
  });
  it("names the secret keys a stack expects, with their shapes, unless the file sets them", () => {
    assert.deepStrictEqual(labSecretKeys(fleet), [
      { key: "irisLicenseKey", shape: "text" },
      { key: "shhhhSecretData", shape: "json" },
    ]);
    assert.deepStrictEqual(labSecretKeys({ ...fleet, "iko-plus:irisLicenseKey": { secure: "v1:x" } }), [
      { key: "shhhhSecretData", shape: "json" },
    ]);
    assert.deepStrictEqual(labSecretKeys(wfh), []);
  });
  it("parses --base, --stacks, --out, --max-chars, with one message per mistake", () => {
    assert.deepStrictEqual(parsePreviewArgs(["--base", "origin/main"]), {
      base: "origin/main",
      stacks: ["lab-wfh", "lab-fleet"],
      out: undefined,
      labDir: undefined,
      maxChars: undefined,
    });
    assert.deepStrictEqual(
      parsePreviewArgs(["--base=abc", "--stacks", "lab-fleet,lab-fleet", "--out", "s.md", "--max-chars", "30000"]),
      { base: "abc", stacks: ["lab-fleet"], out: "s.md", labDir: undefined, maxChars: 30_000 },
    );
    assert.throws(() => parsePreviewArgs([]), /^Error: --base is required/);
    assert.throws(() => parsePreviewArgs(["--base"]), /^Error: --base needs a value/);
    assert.throws(() => parsePreviewArgs(["--base", "x", "--stacks", "a b"]), /--stacks: "a b" is not a stack name/);
    assert.throws(
      () => parsePreviewArgs(["--base", "x", "--max-chars", "70000"]),
      /--max-chars 70000: expected an integer from 2000 to 65536/,
    );
    assert.throws(() => parsePreviewArgs(["--base", "x", "--bogus"]), /unknown argument "--bogus"/);
  });
});
