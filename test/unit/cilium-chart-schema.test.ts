/**
 * Our Cilium values against the real chart's values.schema.json (the pinned Cilium and each
 * version it upgrades from, from its Go module), made strict: a key the chart neither declares nor reads is an error, and so is a
 * value of the wrong type.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import * as child from "child_process";
import {
  AGENT_CAPABILITIES,
  CILIUM_UPGRADE_SOURCES,
  CILIUM_VERSION,
  CLEAN_STATE_CAPABILITIES,
  ciliumValues,
} from "../../components/cilium";
import { chartValueProblems, ciliumChartDir, strictSchema } from "./cilium-chart";

describe("cilium values against the real chart's values.schema.json", function () {
  this.timeout(120_000);
  let chart: string;
  before(() => {
    chart = ciliumChartDir();
  });

  it("the chart is Cilium's own, at our pinned version", () => {
    const meta = YAML.parse(fs.readFileSync(path.join(chart, "Chart.yaml"), "utf8")) as {
      name: string;
      version: string;
    };
    assert.deepStrictEqual([meta.name, meta.version], ["cilium", CILIUM_VERSION]);
  });

  it("the kind tier builds the images of exactly the pinned version and its upgrade sources", () => {
    const res = child.spawnSync(
      "bash",
      [path.join(__dirname, "../../testbed/kind-tier/cilium-images.sh"), "versions"],
      {
        encoding: "utf8",
      },
    );
    assert.deepStrictEqual(
      res.stdout.trim().split("\n"),
      [CILIUM_VERSION, ...CILIUM_UPGRADE_SOURCES].map((v) => `v${v}`),
    );
  });

  for (const [what, args] of [
    ["kind defaults", {}],
    ["kube-proxy replacement", { kubeProxyReplacement: true }],
    ["module images (no Envoy, no relay/UI, no digests)", { moduleImages: true }],
    ["dropped capabilities", { dropCapabilities: ["SYS_RESOURCE"] }],
    [
      "all of them",
      {
        kubeProxyReplacement: true,
        moduleImages: true,
        k8sServiceHost: "10.0.0.5",
        k8sServicePort: 443,
        dropCapabilities: ["SYS_RESOURCE"],
      },
    ],
  ] as const) {
    it(`${what}: every key and type is the chart's, at ${CILIUM_VERSION} and each upgrade source`, () => {
      for (const version of [CILIUM_VERSION, ...CILIUM_UPGRADE_SOURCES])
        assert.deepStrictEqual(
          chartValueProblems(
            ciliumChartDir(`v${version}`),
            ciliumValues({ clusterName: "ikohome", clusterId: 7, ...args }),
          ),
          [],
          version,
        );
    });
  }

  it("our copies of the agent's and clean-cilium-state's capabilities are the chart's defaults, in every version", () => {
    for (const version of [CILIUM_VERSION, ...CILIUM_UPGRADE_SOURCES]) {
      const values = YAML.parse(fs.readFileSync(path.join(ciliumChartDir(`v${version}`), "values.yaml"), "utf8")) as {
        securityContext: { capabilities: Record<string, string[]> };
      };
      assert.deepStrictEqual(values.securityContext.capabilities.ciliumAgent, AGENT_CAPABILITIES, version);
      assert.deepStrictEqual(values.securityContext.capabilities.cleanCiliumState, CLEAN_STATE_CAPABILITIES, version);
    }
  });

  it("the check bites: a misspelt key, a wrong type and a key at the wrong level are each reported", () => {
    const v = ciliumValues({ clusterName: "w", clusterId: 2, moduleImages: true });
    assert.deepStrictEqual(chartValueProblems(chart, { ...v, ipam: { mod: "kubernetes" } }), [
      ".ipam should NOT have additional properties: mod",
    ]);
    assert.deepStrictEqual(chartValueProblems(chart, { ...v, l7Proxy: "false" }), [".l7Proxy should be boolean"]);
    assert.deepStrictEqual(chartValueProblems(chart, { ...v, cluster: { name: "w", id: "2" } }), [
      ".cluster.id should be integer",
    ]);
    assert.deepStrictEqual(chartValueProblems(chart, { ...v, useDigest: false }), [
      "(root) should NOT have additional properties: useDigest",
    ]);
  });

  it("strictSchema closes objects that list their properties and leaves free-form maps open", () => {
    assert.deepStrictEqual(
      strictSchema({
        type: "object",
        properties: { a: { type: "object", properties: { b: { type: "string" } } }, m: { type: "object" } },
      }),
      {
        type: "object",
        additionalProperties: false,
        properties: {
          a: { type: "object", properties: { b: { type: "string" } }, additionalProperties: false },
          m: { type: "object" },
        },
      },
    );
    assert.deepStrictEqual(strictSchema({ properties: {}, additionalProperties: { type: "string" } }), {
      properties: {},
      additionalProperties: { type: "string" },
    });
  });
});
