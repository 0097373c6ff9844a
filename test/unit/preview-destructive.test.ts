/**
 * The PR preview's destructive changes (pure): a replaced or deleted cluster or join, listed first
 * with what it takes with it: the objects replaced or deleted through that cluster's provider.
 */
import * as assert from "assert";
import { destructiveChanges, destructiveLine, providerUrnOf } from "../../preview/destructive";
import { renderMarkdown } from "../../preview/markdown";
import { PreviewJson, StepJson, summarizeStack } from "../../preview/summary";

const KIND = "pulumi-nodejs:dynamic/kind:Cluster";
const urn = (type: string, name: string) => `urn:pulumi:dev::iko-plus::${type}::${name}`;
const kindUrn = (c: string) => urn(`iko-plus:kind:KindCluster$${KIND}`, `${c}-kind`);
const providerRef = (c: string) =>
  `${urn("iko-plus:kind:KindCluster$pulumi:providers:kubernetes", `${c}-k8s`)}::0b6c0e5e-id`;
const KARMADA = `${urn("iko-plus:karmada:KarmadaControlPlane$pulumi:providers:kubernetes", "fleet-karmada-api")}::k-id`;

function step(
  op: string,
  type: string,
  name: string,
  provider: string,
  inputs: Record<string, unknown> = {},
): StepJson {
  return { op, urn: urn(type, name), oldState: { type, provider, inputs } };
}

/** What `pulumi preview --json` shows when ikowork's kind config changes: it and all on it replaced. */
function workReplaced(): PreviewJson {
  return {
    steps: [
      { op: "replace", urn: kindUrn("ikowork"), oldState: { type: KIND, inputs: { name: "ikowork" } } },
      { op: "create-replacement", urn: kindUrn("ikowork"), oldState: { type: KIND, inputs: { name: "ikowork" } } },
      step(
        "replace",
        "kubernetes:intersystems.com/v1alpha1:IrisCluster",
        "iriscluster-default-iris",
        providerRef("ikowork"),
      ),
      step(
        "replace",
        "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition",
        "iko-crd-crd",
        providerRef("ikowork"),
      ),
      step("replace", "kubernetes:helm.sh/v3:Release", "ikowork-cni-cilium", providerRef("ikowork")),
      // Its join in Karmada, made again with it: part of its line.
      step("replace", "kubernetes:cluster.karmada.io/v1alpha1:Cluster", "ikowork-member-cluster", KARMADA, {
        metadata: { name: "ikowork" },
      }),
      // On home: updated (a new token), and one replaced for a reason of its own.
      step("update", "kubernetes:core/v1:Secret", "iko-target-kubeconfig", providerRef("ikohome")),
      step("replace", "kubernetes:core/v1:ConfigMap", "home-cm", providerRef("ikohome")),
      { op: "same", urn: urn("kubernetes:core/v1:Namespace", "x") },
    ],
  };
}

describe("PR preview: destructive changes (pure)", () => {
  it("a kind or GKE cluster's provider is its component's <name>-k8s", () => {
    assert.strictEqual(
      providerUrnOf(kindUrn("ikowork"), KIND),
      urn("iko-plus:kind:KindCluster$pulumi:providers:kubernetes", "ikowork-k8s"),
    );
    assert.strictEqual(
      providerUrnOf(
        urn("iko-plus:gcp:GkeCluster$gcp:container/cluster:Cluster", "prod-gke"),
        "gcp:container/cluster:Cluster",
      ),
      urn("iko-plus:gcp:GkeCluster$pulumi:providers:kubernetes", "prod-k8s"),
    );
    assert.strictEqual(providerUrnOf(urn("x", "y"), "kubernetes:core/v1:Namespace"), undefined);
  });

  it("a replaced kind cluster takes its IrisClusters and the other objects on its provider, its join included; nothing of home", () => {
    assert.deepStrictEqual(destructiveChanges(workReplaced()), [
      {
        name: "ikowork-kind",
        type: KIND,
        op: "replace",
        what: "kind cluster",
        irisClusters: ["iriscluster-default-iris"],
        others: 2,
      },
    ]);
  });

  it("a join replaced or deleted alone is a line of its own: Karmada removes what it propagated", () => {
    const preview: PreviewJson = {
      steps: [
        step("delete", "kubernetes:cluster.karmada.io/v1alpha1:Cluster", "ikoclone-member-cluster", KARMADA, {
          metadata: { name: "ikoclone" },
        }),
      ],
    };
    const [d] = destructiveChanges(preview);
    assert.deepStrictEqual(d, {
      name: "ikoclone-member-cluster",
      type: "kubernetes:cluster.karmada.io/v1alpha1:Cluster",
      op: "delete",
      what: "Karmada join",
      irisClusters: [],
      others: 0,
    });
    assert.strictEqual(
      destructiveLine(d),
      "- **Destructive:** `ikoclone-member-cluster` (Karmada join) is deleted: Karmada removes what it propagated to that member.",
    );
  });

  it("the comment puts the destructive line first under the stack's heading, before the table", () => {
    const md = renderMarkdown([summarizeStack("dev", workReplaced())], { marker: "" });
    const line =
      "- **Destructive:** `ikowork-kind` (kind cluster) is replaced: it takes with it 1 IrisCluster " +
      "(`iriscluster-default-iris`) and 2 other objects; data on the old cluster's volumes is lost.";
    assert.ok(md.includes(line), md);
    assert.ok(md.indexOf(line) < md.indexOf("| op | resource |"), "before the table");
    assert.ok(md.indexOf("#### `dev`") < md.indexOf(line), "under the stack's heading");
  });

  it("no cluster or join destroyed: no destructive line", () => {
    const preview: PreviewJson = {
      steps: [step("replace", "kubernetes:core/v1:ConfigMap", "cm", providerRef("ikowork"))],
    };
    assert.deepStrictEqual(destructiveChanges(preview), []);
    assert.ok(!renderMarkdown([summarizeStack("dev", preview)]).includes("Destructive"));
  });
});
