/**
 * The wfh stack against the lab: the real pulumi CLI and Kubernetes provider, real
 * kube-apiservers (kwok-simulated nodes), the stand-in IKO chart and CRD.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { expandRules, ikoOperatorRules } from "../../components/iko";
import { Clients, clientsFromText, labClients, labKubeconfigPath, maybe, waitFor } from "./kube";
import { PulumiCli, REPO } from "./pulumi-cli";
import { LabStack } from "./stacks";

const NS = "iko";
const DEPLOYMENT = "iko-iris-operator-amd";

/** Verbs that IKO's ClusterRole does not grant; the operator's identity must be denied each. */
const DENIED: { group: string; resource: string; verb: string; subresource?: string }[] = [
  { group: "", resource: "namespaces", verb: "delete" },
  { group: "", resource: "namespaces", verb: "create" },
  { group: "", resource: "secrets", verb: "list" },
  { group: "", resource: "secrets", verb: "delete" },
  { group: "", resource: "nodes", verb: "get" },
  { group: "", resource: "serviceaccounts", verb: "create", subresource: "token" },
  { group: "apps", resource: "statefulsets", verb: "delete" },
  { group: "apps", resource: "deployments", verb: "create" },
  { group: "", resource: "users", verb: "impersonate" },
  { group: "rbac.authorization.k8s.io", resource: "clusterroles", verb: "escalate" },
  { group: "rbac.authorization.k8s.io", resource: "clusterroles", verb: "bind" },
  { group: "rbac.authorization.k8s.io", resource: "clusterrolebindings", verb: "delete" },
];

async function selfAllowed(
  c: Clients,
  p: { group: string; resource: string; verb: string; subresource?: string },
): Promise<boolean> {
  const res = await c.authz.createSelfSubjectAccessReview({
    body: {
      spec: {
        resourceAttributes: {
          group: p.group,
          resource: p.resource,
          verb: p.verb,
          subresource: p.subresource,
          namespace: p.resource === "namespaces" || p.resource === "nodes" ? undefined : "default",
        },
      },
    },
  });
  return res.status?.allowed === true;
}

async function operatorPodTemplate(home: Clients) {
  const d = await home.apps.readNamespacedDeployment({ name: DEPLOYMENT, namespace: NS });
  return d.spec?.template;
}

describe("lab: wfh stack (IKO works from home)", function () {
  this.timeout(15 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;
  let home: Clients;
  let work: Clients;
  const secretsSeen: string[] = [];

  before(async () => {
    cli = new PulumiCli();
    home = labClients("ikohome");
    work = labClients("ikowork");
    stack = new LabStack(cli, "labtest-wfh", "Pulumi.lab-wfh.yaml", {
      "iko-plus:home": { name: "ikohome", kubeconfigPath: labKubeconfigPath("ikohome") },
      "iko-plus:work": { name: "ikowork", kubeconfigPath: labKubeconfigPath("ikowork") },
    });
    await stack.init();
    for (const name of ["ikohome", "ikowork"]) {
      const kc = YAML.parse(fs.readFileSync(labKubeconfigPath(name), "utf8"));
      secretsSeen.push(
        kc.users[0].user["client-key-data"],
        Buffer.from(kc.users[0].user["client-key-data"], "base64").toString("utf8").split("\n")[1],
      );
    }
  });

  after(async () => {
    await stack?.remove();
    cli?.dispose();
  });

  it("pulumi up succeeds and wires the operator at home to work", async () => {
    const tmpKubeconfigs = () => fs.readdirSync(os.tmpdir()).filter((f) => /^kubeconfig\d+$/.test(f)).length;
    const before = tmpKubeconfigs();
    await stack.up();
    // The Kubernetes provider writes its kubeconfig to $TMPDIR at every start and leaves it: the
    // harness's TMPDIR sits inside the backend folder that dispose() removes, not in the OS's.
    const runTmp = cli.env.TMPDIR ?? "";
    assert.ok(runTmp.startsWith(cli.backendDir + path.sep), `TMPDIR ${runTmp} is inside ${cli.backendDir}`);
    assert.ok(
      fs.readdirSync(runTmp).some((f) => /^kubeconfig\d+$/.test(f)),
      "the providers' kubeconfig files went to the run's TMPDIR",
    );
    assert.strictEqual(tmpKubeconfigs(), before, `no new kubeconfig file in ${os.tmpdir()}`);
    const secret = await home.core.readNamespacedSecret({ name: "work-kubeconfig", namespace: NS });
    assert.ok(secret.data?.config, "the target kubeconfig Secret has key config");
    const template = await operatorPodTemplate(home);
    const spec = template?.spec;
    const volume = spec?.volumes?.find((v) => v.secret?.secretName === "work-kubeconfig");
    assert.ok(volume, "the operator pod mounts the Secret");
    assert.deepStrictEqual(JSON.parse(JSON.stringify(volume.secret?.items)), [{ key: "config", path: "config" }]);
    const operator = spec?.containers.find((c) => c.name === "operator");
    const mount = operator?.volumeMounts?.find((m) => m.name === volume.name);
    assert.deepStrictEqual([mount?.mountPath, mount?.readOnly], ["/airgap/.kube", true]);
    assert.ok(operator?.args?.includes("--kubeconfig=/airgap/.kube/config"), `args: ${operator?.args}`);
    assert.ok(
      operator?.args?.includes("--enable-mutating-webhook=false") &&
        operator?.args?.includes("--enable-validating-webhook=false"),
    );
    await waitFor(
      "the operator Deployment to be available (kwok)",
      async () =>
        ((await home.apps.readNamespacedDeployment({ name: DEPLOYMENT, namespace: NS })).status?.availableReplicas ??
          0) >= 1,
    );
    for (const name of ["mutators.intersystems.com"]) {
      assert.strictEqual(
        await maybe(() => home.admission.readMutatingWebhookConfiguration({ name })),
        undefined,
        `no ${name} on home`,
      );
    }
    assert.strictEqual(
      await maybe(() => home.admission.readValidatingWebhookConfiguration({ name: "validators.intersystems.com" })),
      undefined,
    );
    for (const name of ["v1alpha1.mutators.intersystems.com", "v1alpha1.validators.intersystems.com"]) {
      assert.strictEqual(
        await maybe(() => home.apiregistration.readAPIService({ name })),
        undefined,
        `no APIService ${name} on home`,
      );
    }
    const crd = await work.crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" });
    assert.strictEqual(crd.spec.group, "intersystems.com");
    const iris = (await work.custom.getNamespacedCustomObject({
      group: "intersystems.com",
      version: "v1alpha1",
      namespace: "default",
      plural: "irisclusters",
      name: "iris-at-work",
    })) as { spec: { topology: { data: { image: string } } } };
    assert.strictEqual(iris.spec.topology.data.image, "containers.intersystems.com/intersystems/iris-community:2025.1");
    assert.strictEqual(
      await maybe(() => work.apps.readNamespacedDeployment({ name: DEPLOYMENT, namespace: NS })),
      undefined,
      "no operator at work",
    );
  });

  it("the operator's identity on work can do IKO's verbs and nothing dangerous (SelfSubjectAccessReview)", async () => {
    const minted = await stack.output("operatorTargetKubeconfig");
    const doc = YAML.parse(minted);
    assert.ok(doc.users[0].user.token, "a token kubeconfig");
    assert.strictEqual(doc.users[0].user["client-key-data"], undefined, "not the admin credentials");
    secretsSeen.push(doc.users[0].user.token);
    const operator = clientsFromText(minted);
    const rows: string[] = [];
    for (const p of expandRules(ikoOperatorRules())) {
      const allowed = await selfAllowed(operator, p);
      rows.push(
        `${allowed ? "allow" : "DENY "} ${p.verb} ${p.group || "core"}/${p.resource}${p.subresource ? "/" + p.subresource : ""}`,
      );
      assert.ok(allowed, `expected allowed: ${p.verb} ${p.group}/${p.resource}`);
    }
    for (const p of DENIED) {
      const allowed = await selfAllowed(operator, p);
      rows.push(
        `${allowed ? "ALLOW" : "deny "} ${p.verb} ${p.group || "core"}/${p.resource}${p.subresource ? "/" + p.subresource : ""}`,
      );
      assert.ok(!allowed, `expected denied: ${p.verb} ${p.group}/${p.resource}`);
    }
    console.log(`      operator identity on work (${rows.length} checks):\n        ${rows.join("\n        ")}`);
  });

  it("a second up changes nothing and writes a post-renderer that runs JavaScript only; a preview writes nothing", async () => {
    const dir = path.join(REPO, ".iko-plus", "postrender");
    fs.rmSync(dir, { recursive: true, force: true });
    await stack.up(["--expect-no-changes"]);
    const wrappers = fs.readdirSync(dir).filter((f) => f.endsWith(".sh"));
    assert.strictEqual(wrappers.length, 1, `one wrapper: ${fs.readdirSync(dir).join(", ")}`);
    const script = fs.readFileSync(path.join(dir, wrappers[0]), "utf8");
    assert.ok(!/ts-node|\.ts\b/.test(script), `the precompiled program's wrapper runs no TypeScript:\n${script}`);
    const lib = /"\$here\/(lib-[0-9a-f]{16})\/cli\.js" "\$here\/lib-[0-9a-f]{16}\/postrender\.js"/.exec(script);
    assert.ok(
      lib && fs.existsSync(path.join(dir, lib[1], "postrender.js")),
      "the compiled post-render modules are copied beside it",
    );
    fs.rmSync(dir, { recursive: true, force: true });
    await stack.preview(["--expect-no-changes"]);
    assert.ok(!fs.existsSync(dir), "a preview writes no post-renderer");
  });

  it("rotating the target credential rolls the operator", async () => {
    const before = (await operatorPodTemplate(home))?.metadata?.annotations?.["iko-plus.io/target-kubeconfig-checksum"];
    assert.ok(before, "the pod template carries the kubeconfig checksum");
    const oldToken = YAML.parse(await stack.output("operatorTargetKubeconfig")).users[0].user.token;
    stack.edit((c) => {
      (c["iko-plus:iko"] as Record<string, unknown>).credentialGeneration = 2;
    });
    await stack.up();
    const after = (await operatorPodTemplate(home))?.metadata?.annotations?.["iko-plus.io/target-kubeconfig-checksum"];
    assert.ok(after && after !== before, "a new checksum on the pod template");
    const newToken = YAML.parse(await stack.output("operatorTargetKubeconfig")).users[0].user.token;
    secretsSeen.push(newToken);
    assert.notStrictEqual(newToken, oldToken);
    const rs = await home.apps.listNamespacedReplicaSet({ namespace: NS, labelSelector: "app=iris-operator-amd" });
    const hashes = new Set(rs.items.map((r) => r.metadata?.labels?.["pod-template-hash"]));
    assert.ok(hashes.size >= 2, `a new pod-template-hash (ReplicaSets: ${[...hashes].join(", ")})`);
    assert.strictEqual(
      await maybe(() =>
        work.core.readNamespacedSecret({ name: "iko-remote-operator-token-g1", namespace: "iko-remote" }),
      ),
      undefined,
      "the old token Secret is gone",
    );
  });

  it("pulumi stack export holds no kubeconfig key or token in plaintext", async () => {
    const state = await stack.exportState();
    assert.ok(state.length > 1000);
    for (const s of secretsSeen.filter(Boolean)) {
      assert.ok(!state.includes(s), `plaintext secret found in state (${s.slice(0, 6)}…)`);
    }
    assert.ok(!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(state), "no PEM private key in state");
  });

  it("pulumi destroy leaves nothing the stack created on either cluster", async () => {
    await stack.destroy();
    await waitFor(
      "namespace iko to be gone from home",
      async () => (await maybe(() => home.core.readNamespace({ name: NS }))) === undefined,
      120_000,
    );
    await waitFor(
      "namespace iko-remote to be gone from work",
      async () => (await maybe(() => work.core.readNamespace({ name: "iko-remote" }))) === undefined,
      120_000,
    );
    assert.strictEqual(
      await maybe(() => work.crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" })),
      undefined,
    );
    assert.strictEqual(await maybe(() => work.rbac.readClusterRole({ name: "iko-remote-operator" })), undefined);
    assert.strictEqual(await maybe(() => work.rbac.readClusterRoleBinding({ name: "iko-remote-operator" })), undefined);
    assert.strictEqual(
      await maybe(() => home.rbac.readClusterRole({ name: DEPLOYMENT })),
      undefined,
      "the chart's ClusterRole is gone",
    );
    const helmSecrets = await home.core.listSecretForAllNamespaces({ labelSelector: "owner=helm" });
    assert.deepStrictEqual(
      helmSecrets.items.map((s) => s.metadata?.name),
      [],
    );
  });
});
