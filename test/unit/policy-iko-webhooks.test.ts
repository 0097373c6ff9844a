import * as assert from "assert";
import { isIkoChart, remoteIkoWebhooks } from "../../policy/rules/iko-webhooks";
import { PolicyResource, UNKNOWN } from "../../policy/rules/values";

const release = (props: PolicyResource["props"]): PolicyResource => ({
  type: "kubernetes:helm.sh/v3:Release",
  name: "iko-iko",
  urn: "urn:r",
  props: { name: "iko", ...props },
});
const FIX =
  "set values.apiserver.enableMutatingWebhook and values.apiserver.enableValidatingWebhook to false (IkoHomeOperator does so in remote mode; do not turn them on through iko.values)";

describe("policy remote-iko-webhooks-off", () => {
  it("recognises the IKO chart by path, name or archive", () => {
    for (const c of [
      "./test/fixtures/iko-chart/iris-operator",
      "vendor/iko/chart/iris-operator/",
      "iris-operator-amd",
      "charts/iris-operator-3.8.42.tgz",
      "oci://registry.example/charts/iris-operator-amd",
    ])
      assert.strictEqual(isIkoChart(c), true, c);
    for (const c of ["cilium", "karmada", "./charts/iris-operator-extras"]) assert.strictEqual(isIkoChart(c), false, c);
  });
  it("fires on a remote release with a webhook on or left at the chart's default", () => {
    assert.deepStrictEqual(
      remoteIkoWebhooks(
        release({
          chart: "./iris-operator",
          postrender: ".iko-plus/postrender/abc.sh",
          values: { apiserver: { enableMutatingWebhook: true } },
        }),
      ),
      [
        `kubernetes:helm.sh/v3:Release "iko-iko" (Helm release "iko", chart "./iris-operator") runs IKO in remote mode (it has a postrender) with admission webhooks on: values.apiserver.enableMutatingWebhook is true; values.apiserver.enableValidatingWebhook is unset (the chart's default: true); ${FIX}`,
      ],
    );
    assert.strictEqual(
      remoteIkoWebhooks(release({ chart: "iris-operator-amd", postrender: UNKNOWN })).length,
      1,
      "a postrender unknown in preview still means remote",
    );
  });
  it("stays silent with both off, in local mode (no postrender), for other charts and unknown values", () => {
    const off = { apiserver: { enableMutatingWebhook: false, enableValidatingWebhook: false } };
    assert.deepStrictEqual(
      remoteIkoWebhooks(release({ chart: "./iris-operator", postrender: "x.sh", values: off })),
      [],
    );
    assert.deepStrictEqual(
      remoteIkoWebhooks(release({ chart: "./iris-operator", values: { apiserver: { enableMutatingWebhook: true } } })),
      [],
    );
    assert.deepStrictEqual(remoteIkoWebhooks(release({ chart: "cilium", postrender: "x.sh" })), []);
    assert.deepStrictEqual(
      remoteIkoWebhooks(release({ chart: "./iris-operator", postrender: "x.sh", values: UNKNOWN })),
      [],
    );
    assert.deepStrictEqual(
      remoteIkoWebhooks({
        ...release({ chart: "./iris-operator", postrender: "x.sh" }),
        type: "kubernetes:core/v1:ConfigMap",
      }),
      [],
    );
  });
});
