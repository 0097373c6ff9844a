/**
 * KarmadaApiReady: the wait after the Karmada chart's install until its API serves the groups
 * joins and policies need (the chart applies them in a Job that Helm's wait does not cover).
 */
import * as assert from "assert";
import {
  KARMADA_API_GROUPS,
  KarmadaApiReadyProvider,
  apiReadyTimeoutMessage,
  missingGroups,
  waitForKarmadaApi,
} from "../../components/karmada";

describe("KarmadaApiReady (the wait for the Karmada API's groups)", () => {
  it("waits for the aggregated cluster API and the CRD groups", () => {
    assert.deepStrictEqual(KARMADA_API_GROUPS, [
      "cluster.karmada.io/v1alpha1",
      "policy.karmada.io/v1alpha1",
      "work.karmada.io/v1alpha2",
      "config.karmada.io/v1alpha1",
    ]);
  });

  it("counts a group as served only on HTTP 200", () => {
    assert.deepStrictEqual(
      missingGroups(["a/v1", "b/v1", "c/v1", "d/v1"], { "a/v1": 200, "b/v1": 503, "c/v1": "connect ECONNREFUSED" }),
      ["b/v1", "c/v1", "d/v1"],
    );
    assert.deepStrictEqual(missingGroups(["a/v1"], { "a/v1": 200 }), []);
  });

  it("fails with one message naming the server, each missing group's answer and the fix", () => {
    assert.strictEqual(
      apiReadyTimeoutMessage(
        "https://127.0.0.1:32443",
        300,
        ["cluster.karmada.io/v1alpha1", "work.karmada.io/v1alpha2", "x/v1"],
        {
          "cluster.karmada.io/v1alpha1": 503,
          "work.karmada.io/v1alpha2": "https://127.0.0.1:32443: connect ECONNREFUSED",
        },
      ),
      "the Karmada API at https://127.0.0.1:32443 did not serve cluster.karmada.io/v1alpha1 (HTTP 503), work.karmada.io/v1alpha2 (https://127.0.0.1:32443: connect ECONNREFUSED), x/v1 (no answer) within 300 s of the chart's install; " +
        "check the chart's karmada-static-resource Job and karmada-aggregated-apiserver on the host (kubectl -n karmada-host get jobs,pods), then run up again",
    );
  });

  it("waitForKarmadaApi gives up after its timeout against an API that does not answer, without credentials in the message", async () => {
    const karmada = { server: "https://127.0.0.1:1", insecure: false, token: "secret-token-value" };
    await assert.rejects(
      waitForKarmadaApi({ karmada, groups: ["cluster.karmada.io/v1alpha1"], timeoutSeconds: 0 }, 10),
      (e: Error) =>
        /did not serve cluster\.karmada\.io\/v1alpha1 \(https:\/\/127\.0\.0\.1:1: connect ECONNREFUSED/.test(
          e.message,
        ) && !e.message.includes("secret-token-value"),
    );
  });

  it("the provider waits again only when its inputs change", async () => {
    const p = new KarmadaApiReadyProvider();
    const a = { karmada: { server: "https://127.0.0.1:1", insecure: false }, groups: ["a/v1"], timeoutSeconds: 1 };
    assert.deepStrictEqual(await p.diff("karmada-api", a, { ...a }), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.strictEqual(
      (await p.diff("karmada-api", a, { ...a, karmada: { server: "https://127.0.0.1:2", insecure: false } })).changes,
      true,
    );
  });
});
