/**
 * docs/api.md is generated from the JSDoc of the library's exports (scripts/api-docs.ts): the
 * committed file is current, every args field and output is documented, and the pure renderer
 * writes exactly the text below. Real TypeScript compiler, no mocks.
 */
import * as assert from "assert";
import * as fs from "fs";
import { API_DOC, ApiEntry, apiEntries, apiMarkdown, undocumentedFields } from "../../scripts/api-docs";

describe("API docs (docs/api.md, generated from the JSDoc of components/index.ts)", function () {
  this.timeout(60_000);
  let entries: ApiEntry[];
  before(() => {
    entries = apiEntries();
  });

  it("the committed docs/api.md is what the JSDoc says (else: npm run docs:api)", () => {
    assert.strictEqual(fs.readFileSync(API_DOC, "utf8"), apiMarkdown(entries));
  });

  it("every component is there with its type token, and every args field and output has JSDoc", () => {
    const components = entries.filter((e) => e.kind === "component");
    assert.deepStrictEqual(
      components.map((c) => `${c.name} ${c.token}`),
      [
        "ExistingCluster iko-plus:cluster:ExistingCluster",
        "KindCluster iko-plus:kind:KindCluster",
        "GkeCluster iko-plus:gcp:GkeCluster",
        "CiliumCni iko-plus:cilium:CiliumCni",
        "ClusterMesh iko-plus:cilium:ClusterMesh",
        "IkoHomeOperator iko-plus:iko:IkoHomeOperator",
        "CrdMirror iko-plus:iko:CrdMirror",
        "RemoteOperatorIdentity iko-plus:iko:RemoteOperatorIdentity",
        "KarmadaControlPlane iko-plus:karmada:KarmadaControlPlane",
        "KarmadaMember iko-plus:karmada:KarmadaMember",
        "FederatedIrisCluster iko-plus:karmada:FederatedIrisCluster",
        "FleetSecret iko-plus:karmada:FleetSecret",
        "FleetTls iko-plus:tls:FleetTls",
      ],
    );
    for (const c of components) assert.ok(c.fields.length > 0, `${c.name} has args`);
    assert.deepStrictEqual(undocumentedFields(entries), []);
  });

  it("a field without JSDoc is reported under its args type (a component's output under the component)", () => {
    const field = (name: string, doc: string) => ({ name, type: "string", optional: true, doc });
    const entry: ApiEntry = {
      name: "Thing",
      kind: "component",
      token: "iko-plus:x:Thing",
      module: "x",
      doc: "",
      argsType: "ThingArgs",
      fields: [field("a", "A."), field("b", "")],
      outputs: [field("c", "")],
    };
    assert.deepStrictEqual(undocumentedFields([entry, { ...entry }]), ["ThingArgs.b", "Thing.c"]);
  });

  it("renders a component, a type and a function exactly", () => {
    const text = apiMarkdown([
      {
        name: "Thing",
        kind: "component",
        token: "iko-plus:x:Thing",
        module: "x",
        doc: "A thing.",
        argsType: "ThingArgs",
        fields: [
          { name: "size", type: "number", optional: true, doc: "How big. Default: 1" },
          { name: "kind", type: '"a" | "b"', optional: false, doc: "Which." },
        ],
        outputs: [{ name: "name", type: "string", optional: false, doc: "Its name." }],
      },
      { name: "ThingArgs", kind: "type", module: "x", doc: "", fields: [], outputs: [] },
      {
        name: "Handle",
        kind: "type",
        module: "y",
        doc: "A handle.",
        fields: [{ name: "id", type: "string", optional: false, doc: "Id." }],
        outputs: [],
      },
      { name: "make", kind: "function", module: "x", doc: "`make(): void`. Makes.", fields: [], outputs: [] },
    ]);
    assert.strictEqual(
      text.split("\n").slice(6).join("\n"),
      [
        "## Components",
        "",
        "- [Thing](#thing)",
        "",
        "### Thing",
        "",
        "`iko-plus:x:Thing`, from `iko-plus/x`. A thing.",
        "",
        "Args (`ThingArgs`):",
        "",
        "- `size?`: `number`. How big. Default: 1",
        '- `kind`: `"a" \\| "b"` (required). Which.',
        "",
        "Outputs:",
        "",
        "- `name`: `string`. Its name.",
        "",
        "## Types",
        "",
        "### Handle",
        "",
        "From `iko-plus/y`. A handle.",
        "",
        "- `id`: `string` (required). Id.",
        "",
        "## Functions",
        "",
        "### make",
        "",
        "From `iko-plus/x`. `make(): void`. Makes.",
        "",
      ].join("\n"),
    );
  });
});
