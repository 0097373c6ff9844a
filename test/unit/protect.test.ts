/**
 * `protect` (issue 37, destructive changes): the stack config `<cluster>.protect` and the
 * components' `protect` arg put Pulumi's `protect` option on exactly the resources whose
 * replacement or deletion takes everything on them (the kind or GKE cluster, the join's Cluster
 * object in Karmada), and on nothing else, so updates of what runs on a protected cluster still go
 * through. What Pulumi then does with a protected resource (refuses the replace in `preview` and
 * `up`) is shown on real kind in test/kind/wfh.test.ts.
 */
import * as assert from "assert";
import * as path from "path";
import { GkeCluster } from "../../components/gcp";
import { KindCluster } from "../../components/kind";
import { Registered, fakeKubeconfigFiles, installMocks, settle } from "./mocks";

const registered: Registered[] = installMocks();

const IRIS_IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";

describe("protect: what a protected cluster or join protects (unit, mocks)", () => {
  it("fleet config clusters[].protect: that cluster's kind resource and its join's Cluster object (Push and Pull), nothing else", async () => {
    const { validateConfig, fleetStack } = await import("../../stacks");
    const kc = fakeKubeconfigFiles("iko-protect-");
    const cfg = validateConfig(
      {
        program: "fleet",
        clusters: [
          { name: "ikokeep", protect: true, iko: false, join: {} },
          { name: "ikopullkeep", protect: true, iko: false, join: { syncMode: "Pull" } },
          { name: "ikoloose", iko: false, join: {} },
        ],
        karmada: { mode: "existing", kubeconfigPath: kc("karmada") },
        iko: {
          chartPath: path.resolve(__dirname, "../fixtures/iko-chart/iris-operator"),
          crdManifestPath: path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml"),
        },
        federatedIrisClusters: [{ name: "iris-a", image: IRIS_IMAGE, placement: { clusterNames: ["ikokeep"] } }],
      },
      [],
    );
    if (cfg.program !== "fleet") throw new Error("fleet");
    const n = registered.length;
    fleetStack(cfg, { secrets: {}, secretObjects: {} });
    await new Promise((r) => setTimeout(r, 500));
    const mine = registered.slice(n);
    const protectedOnes = mine
      .filter((r) => r.protect)
      .map((r) => `${r.type}::${r.name}`)
      .sort();
    assert.deepStrictEqual(protectedOnes, [
      "kubernetes:cluster.karmada.io/v1alpha1:Cluster::ikokeep-member-cluster",
      "kubernetes:cluster.karmada.io/v1alpha1:Cluster::ikopullkeep-member-cluster",
      "pulumi-nodejs:dynamic/kind:Cluster::ikokeep-kind",
      "pulumi-nodejs:dynamic/kind:Cluster::ikopullkeep-kind",
    ]);
    // The unprotected member's cluster and join, and the IrisCluster on the protected one, are there but not protected.
    for (const name of ["ikoloose-kind", "ikoloose-member-cluster", "default-iris-a-template"])
      assert.ok(
        mine.some((r) => r.name === name && !r.protect),
        `${name} registered, not protected`,
      );
  });

  it("KindCluster and GkeCluster: protect on the cluster resource only; unset, a component's own protect option still reaches it", async () => {
    const n = registered.length;
    const kind = new KindCluster("protkind", { protect: true });
    const gke = new GkeCluster("protgke", { location: "us-central1", project: "p", protect: true });
    const inherited = new KindCluster("inheritkind", {}, { protect: true });
    await settle(kind, kind.provider, gke, gke.cluster, gke.provider, inherited, inherited.provider);
    const mine = registered.slice(n);
    const flag = (name: string) => mine.find((r) => r.name === name)?.protect;
    assert.strictEqual(flag("protkind-kind"), true);
    assert.strictEqual(
      flag("protkind-k8s"),
      false,
      "the cluster's provider is not protected (it is replaced with new credentials)",
    );
    assert.strictEqual(flag("protgke-gke"), true);
    assert.strictEqual(flag("protgke-nodes"), false);
    assert.strictEqual(
      flag("inheritkind-kind"),
      true,
      "the component's protect option is inherited when protect is unset",
    );
  });
});
