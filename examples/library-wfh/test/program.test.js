// The program under Pulumi's mocks (no cluster, no CLI): it declares what the topology needs,
// wired to the right cluster, with the kubeconfigs kept secret. Run: npm run build && npm test,
// with IKO_CHART_PATH and IKO_CRD_PATH naming your IKO chart and IrisCluster CRD files.
const assert = require("node:assert");
const { Buffer } = require("node:buffer");
const { test } = require("node:test");
const pulumi = require("@pulumi/pulumi");

const registered = [];
const fakeKubeconfig = (name, server) =>
  [
    "apiVersion: v1",
    "kind: Config",
    `clusters: [{name: ${name}, cluster: {server: "${server}", certificate-authority-data: RkFLRS1DQQ==}}]`,
    `contexts: [{name: ${name}, context: {cluster: ${name}, user: ${name}}}]`,
    `current-context: ${name}`,
    `users: [{name: ${name}, user: {client-key-data: RkFLRS1LRVk=, client-certificate-data: RkFLRS1DRVJU}}]`,
    "",
  ].join("\n");

pulumi.runtime.setMocks(
  {
    newResource(args) {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider ?? "" });
      const state = { ...args.inputs };
      // What the kind cluster's create returns, and the token Kubernetes puts in a token Secret.
      if (args.type.startsWith("pulumi-nodejs:dynamic") && typeof args.inputs.name === "string") {
        state.kubeconfig = fakeKubeconfig(args.inputs.name, "https://127.0.0.1:41234");
        state.peerKubeconfig = fakeKubeconfig(args.inputs.name, `https://${args.inputs.name}-control-plane:6443`);
        state.identity = `kind:${args.inputs.name}@test`;
      }
      if (args.type === "kubernetes:core/v1:Secret" && args.inputs.type === "kubernetes.io/service-account-token")
        state.data = { token: Buffer.from("fake-token").toString("base64"), "ca.crt": "RkFLRS1DQQ==" };
      if (args.type === "kubernetes:helm.sh/v3:Release") state.status = { status: "deployed", revision: 1 };
      return { id: `${args.name}-id`, state };
    },
    call: (args) => args.inputs,
  },
  "iko-plus-library-wfh",
  "test",
);
pulumi.runtime.setAllConfig({
  "iko-plus-library-wfh:ikoChartPath": process.env.IKO_CHART_PATH ?? "",
  "iko-plus-library-wfh:crdManifestPath": process.env.IKO_CRD_PATH ?? "",
});

const program = require("../bin/index.js");
const settled = (output) => new Promise((resolve) => pulumi.output(output).apply(resolve));
/** Resolves once no resource has been registered for a second (mocks register as outputs resolve). */
async function registrationsDone() {
  for (let seen = -1; seen !== registered.length; ) {
    seen = registered.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
const providerOf = (r) => r.provider.split("::")[3];

test("two kind clusters with Cilium, IKO at home reconciling at work, an IrisCluster at work", async () => {
  await Promise.all([settled(program.homeKubeconfig), settled(program.workKubeconfig)]);
  await registrationsDone();
  assert.strictEqual(program.operatorNamespace, "iko");
  const types = (t) =>
    registered
      .filter((r) => r.type === t)
      .map((r) => r.name)
      .sort();
  assert.deepStrictEqual(types("iko-plus:kind:KindCluster"), ["lib-home", "lib-work"]);
  assert.deepStrictEqual(types("iko-plus:cilium:CiliumCni"), ["lib-home-cni", "lib-work-cni"]);
  assert.deepStrictEqual(types("iko-plus:iko:IkoHomeOperator"), ["iko"]);

  const release = registered.find((r) => r.type === "kubernetes:helm.sh/v3:Release" && r.name === "iko-iko");
  assert.ok(release, "the IKO release is declared");
  assert.match(providerOf(release), /lib-home/, "IKO is installed on home");
  const iris = registered.find((r) => r.type === "kubernetes:intersystems.com/v1alpha1:IrisCluster");
  assert.ok(iris, "the IrisCluster is declared");
  assert.match(providerOf(iris), /lib-work/, "the IrisCluster is on work");
  const crd = registered.find((r) => r.type === "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition");
  assert.match(providerOf(crd), /lib-work/, "the IrisCluster CRD is made to exist on work");
  const secret = registered.find((r) => r.type === "kubernetes:core/v1:Secret" && providerOf(r).includes("lib-home"));
  assert.ok(secret, "the work kubeconfig Secret is on home");

  for (const out of [program.homeKubeconfig, program.workKubeconfig])
    assert.strictEqual(await pulumi.output(out).isSecret, true, "a kubeconfig output is a secret");
});
