/**
 * A remote IKO runs with both admission webhooks off. The list of switches is IKO's own
 * (IKO_WEBHOOK_VALUES); ikoValues, config validation and the policy pack each act on every one.
 */
import * as assert from "assert";
import * as path from "path";
import { IKO_WEBHOOK_VALUES, ikoValues } from "../../components/iko";
import { remoteIkoWebhooks } from "../../policy/rules/iko-webhooks";
import { ConfigError, validateWfhConfig } from "../../stacks";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");

function problemsOf(raw: Record<string, unknown>): string[] {
  try {
    validateWfhConfig(raw);
    return [];
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return e.problems;
  }
}

describe("IKO webhook switches: one list for ikoValues, config validation and the policy pack", () => {
  it("names both chart switches", () => {
    assert.deepStrictEqual([...IKO_WEBHOOK_VALUES], ["enableMutatingWebhook", "enableValidatingWebhook"]);
  });
  for (const hook of IKO_WEBHOOK_VALUES) {
    it(`${hook}: forced off in remote mode, rejected by config, flagged by policy`, () => {
      const values = ikoValues({ remote: true, extraValues: { apiserver: { [hook]: true } } }) as {
        apiserver: Record<string, unknown>;
      };
      assert.deepStrictEqual(values.apiserver, { enableMutatingWebhook: false, enableValidatingWebhook: false });
      const problems = problemsOf({
        program: "wfh",
        home: { name: "ikohome" },
        work: { name: "ikowork" },
        iko: { chartPath: CHART, crdManifestPath: CRD, values: { apiserver: { [hook]: "true" } } },
      });
      assert.deepStrictEqual(problems, [
        `iko-plus:iko.values.apiserver.${hook}: "true" turns a webhook on, but a remote operator must run with both webhooks off (they would sit on the home cluster); remove it`,
      ]);
      const off = { enableMutatingWebhook: false, enableValidatingWebhook: false, [hook]: true };
      const findings = remoteIkoWebhooks({
        type: "kubernetes:helm.sh/v3:Release",
        name: "iko",
        urn: "urn:r",
        props: { name: "iko", chart: "./iris-operator", postrender: "x.sh", values: { apiserver: off } },
      });
      assert.strictEqual(findings.length, 1);
      assert.ok(findings[0].includes(`values.apiserver.${hook} is true;`), findings[0]);
    });
  }
});
