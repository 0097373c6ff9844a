/**
 * The pull-request view of a fresh environment: `pulumi preview` of a brand-new `dev` stack
 * (kind clusters that do not exist yet) succeeds and lists every resource.
 */
import * as assert from "assert";
import * as path from "path";
import { PulumiCli, REPO } from "./pulumi-cli";
import { LabStack } from "./stacks";

interface PreviewStep {
  op: string;
  urn: string;
}

describe("lab: preview of brand-new kind stacks (the pull-request view of a fresh environment)", function () {
  this.timeout(10 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;
  let fleet: LabStack;
  let meshed: LabStack;
  const fixtures = {
    chartPath: path.join(REPO, "test/fixtures/iko-chart/iris-operator"),
    crdManifestPath: path.join(REPO, "test/fixtures/crds/irisclusters.intersystems.com.yaml"),
  };

  before(async () => {
    cli = new PulumiCli();
    // Pulumi.dev.yaml as committed, with the stand-in chart and CRD in place of the vendor download.
    stack = new LabStack(cli, "labtest-dev", "Pulumi.dev.yaml", { "iko-plus:iko": fixtures });
    await stack.init();
    fleet = new LabStack(cli, "labtest-fleet-kind", "Pulumi.fleet.yaml", { "iko-plus:iko": fixtures });
    await fleet.init();
    // The same, meshed (docs/clustermesh.md): pod subnets apart, mesh of both.
    meshed = new LabStack(cli, "labtest-dev-mesh", "Pulumi.dev.yaml", {
      "iko-plus:iko": fixtures,
      "iko-plus:home": { name: "ikohome", podSubnet: "10.244.0.0/16", cilium: { clusterId: 1 } },
      "iko-plus:work": { name: "ikowork", podSubnet: "10.245.0.0/16", cilium: { clusterId: 2 } },
      "iko-plus:mesh": { clusters: ["ikohome", "ikowork"] },
    });
    await meshed.init();
  });
  after(async () => {
    await stack?.remove();
    await fleet?.remove();
    await meshed?.remove();
    cli?.dispose();
  });

  it("dev (wfh on kind): succeeds and lists every resource as a create", async () => {
    const res = await stack.preview(["--json"]);
    const preview = JSON.parse(res.stdout) as { steps: PreviewStep[]; changeSummary: Record<string, number> };
    const names = preview.steps.map((s) => `${s.urn.split("::")[2].split("$").pop()}::${s.urn.split("::")[3]}`);
    assert.ok(
      preview.steps.every((s) => s.op === "create"),
      `only creates: ${preview.steps
        .filter((s) => s.op !== "create")
        .map((s) => s.op + " " + s.urn)
        .join(", ")}`,
    );
    const expected = [
      "iko-plus:kind:KindCluster::ikohome",
      "iko-plus:kind:KindCluster::ikowork",
      "pulumi-nodejs:dynamic/kind:Cluster::ikohome-kind",
      "pulumi-nodejs:dynamic/kind:Cluster::ikowork-kind",
      "pulumi:providers:kubernetes::ikohome-k8s",
      "pulumi:providers:kubernetes::ikowork-k8s",
      "iko-plus:cilium:CiliumCni::ikohome-cni",
      "kubernetes:helm.sh/v3:Release::ikohome-cni-cilium",
      "iko-plus:cilium:CiliumCni::ikowork-cni",
      "kubernetes:helm.sh/v3:Release::ikowork-cni-cilium",
      "iko-plus:iko:IkoHomeOperator::iko",
      "kubernetes:core/v1:Namespace::iko-ns",
      "kubernetes:helm.sh/v3:Release::iko-iko",
      "kubernetes:core/v1:Secret::iko-target-kubeconfig",
      "iko-plus:iko:RemoteOperatorIdentity::iko-identity",
      "kubernetes:core/v1:Namespace::iko-identity-ns",
      "kubernetes:core/v1:ServiceAccount::iko-identity-sa",
      "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole::iko-identity-role",
      "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding::iko-identity-binding",
      "kubernetes:core/v1:Secret::iko-identity-token",
      "iko-plus:iko:CrdMirror::iko-crd",
      "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition::iko-crd-crd",
      "kubernetes:intersystems.com/v1alpha1:IrisCluster::iriscluster-default-iris-at-work",
    ];
    for (const e of expected) assert.ok(names.includes(e), `preview lists ${e}; it lists:\n${names.join("\n")}`);
    assert.ok(!/kubeconfig:|client-key-data|BEGIN .*PRIVATE KEY/.test(res.stdout), "no secret material in the preview");
  });

  it("fleet (Kamino on kind): succeeds and lists every resource as a create", async () => {
    const res = await fleet.preview(["--json"]);
    const preview = JSON.parse(res.stdout) as { steps: PreviewStep[] };
    const names = preview.steps.map((s) => `${s.urn.split("::")[2].split("$").pop()}::${s.urn.split("::")[3]}`);
    const expected = [
      "pulumi-nodejs:dynamic/kind:Cluster::ikofett-kind",
      "pulumi-nodejs:dynamic/kind:Cluster::ikoclone-kind",
      "kubernetes:helm.sh/v3:Release::ikofett-cni-cilium",
      "kubernetes:helm.sh/v3:Release::ikoclone-cni-cilium",
      "kubernetes:helm.sh/v3:Release::ikofett-iko-iko",
      "kubernetes:helm.sh/v3:Release::ikoclone-iko-iko",
      "kubernetes:helm.sh/v3:Release::karmada-karmada",
      "pulumi:providers:kubernetes::karmada-karmada-api",
      "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition::karmada-iriscluster-crd-crd",
      "kubernetes:config.karmada.io/v1alpha1:ResourceInterpreterCustomization::karmada-iriscluster-interpreter",
      "kubernetes:core/v1:ServiceAccount::ikoclone-member-member-sa",
      "kubernetes:core/v1:Secret::ikoclone-member-karmada-secret",
      "kubernetes:cluster.karmada.io/v1alpha1:Cluster::ikoclone-member-cluster",
      "kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy::default-federated-iris-policy",
      "kubernetes:intersystems.com/v1alpha1:IrisCluster::default-federated-iris-template",
    ];
    for (const e of expected) assert.ok(names.includes(e), `preview lists ${e}; it lists:\n${names.join("\n")}`);
    assert.ok(
      preview.steps
        .filter((s) => !s.urn.endsWith("-kube-system") && !s.urn.endsWith("-generated-kubeconfig"))
        .every((s) => s.op === "create"),
      `only creates (and reads): ${preview.steps.map((s) => s.op).join(",")}`,
    );
  });

  it("dev with a mesh: succeeds, lists the ClusterMesh, its CA, each member's certificates and Secrets, and the peers in each Cilium release", async () => {
    const res = await meshed.preview(["--json"]);
    const preview = JSON.parse(res.stdout) as {
      steps: (PreviewStep & { newState?: { inputs?: Record<string, unknown> } })[];
    };
    const names = preview.steps.map((s) => `${s.urn.split("::")[2].split("$").pop()}::${s.urn.split("::")[3]}`);
    assert.ok(
      preview.steps.every((s) => s.op === "create"),
      "only creates",
    );
    const expected = [
      "iko-plus:cilium:ClusterMesh::mesh",
      "pulumi-nodejs:dynamic/iko-plus-tls:FleetCa::mesh-ca",
      ...["ikohome", "ikowork"].flatMap((m) => [
        `pulumi-nodejs:dynamic/iko-plus-cilium:MeshCertificates::mesh-${m}-certs`,
        ...["server", "admin", "local", "remote"].map((k) => `kubernetes:core/v1:Secret::mesh-${m}-${k}-cert`),
      ]),
    ];
    for (const e of expected) assert.ok(names.includes(e), `preview lists ${e}; it lists:\n${names.join("\n")}`);
    const release = preview.steps.find((s) => s.urn.endsWith("::ikohome-cni-cilium"));
    const mesh = (
      release?.newState?.inputs?.values as { clustermesh?: { config?: { clusters?: unknown } } } | undefined
    )?.clustermesh;
    assert.deepStrictEqual(
      mesh?.config?.clusters,
      [{ name: "ikowork", address: "ikowork-control-plane", port: 32379 }],
      "the peer is known in a fresh preview",
    );
    assert.ok(!/BEGIN .*PRIVATE KEY/.test(res.stdout), "no key material in the preview");
  });
});
