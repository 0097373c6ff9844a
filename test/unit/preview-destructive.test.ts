/**
 * The PR preview's destructive changes (pure): a replaced or deleted cluster or join, listed first
 * with what it takes with it, found by the cluster identity each object on it carries.
 */
import * as assert from "assert";
import { destructiveChanges, destructiveLine, stampOf } from "../../preview/destructive";
import { renderMarkdown } from "../../preview/markdown";
import { PreviewJson, StepJson, summarizeStack } from "../../preview/summary";

const WORK = "kind:ikowork@ca-sha256:0123456789abcdef";
const HOME = "kind:ikohome@ca-sha256:fedcba9876543210";
const urn = (type: string, name: string) => `urn:pulumi:dev::iko-plus::${type}::${name}`;
const stamped = (id: string, name: string) => ({
  metadata: { name, annotations: { "iko-plus.io/cluster-identity": id } },
});

function step(op: string, type: string, name: string, inputs: Record<string, unknown>, outputs = {}): StepJson {
  return { op, urn: urn(type, name), oldState: { type, inputs, outputs } };
}

/** What `pulumi preview --json` shows when work's kind config changes: work and all on it replaced. */
function workReplaced(): PreviewJson {
  const kind = "pulumi-nodejs:dynamic/kind:Cluster";
  return {
    steps: [
      step("replace", kind, "ikowork-kind", { name: "ikowork" }, { identity: WORK }),
      step("create-replacement", kind, "ikowork-kind", { name: "ikowork" }, { identity: WORK }),
      step("replace", "pulumi:providers:kubernetes", "ikowork-k8s", {}),
      step(
        "replace",
        "kubernetes:intersystems.com/v1alpha1:IrisCluster",
        "iriscluster-default-iris",
        stamped(WORK, "iris"),
      ),
      step(
        "replace",
        "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition",
        "iko-crd-crd",
        stamped(WORK, "crd"),
      ),
      step("replace", "kubernetes:helm.sh/v3:Release", "work-cni", { description: `iko-plus cluster ${WORK}` }),
      // A join of work in Karmada (made again with it: part of work's line, not a line of its own).
      step(
        "replace",
        "kubernetes:cluster.karmada.io/v1alpha1:Cluster",
        "ikowork-member-cluster",
        stamped(`${WORK} in fleet-karmada-api`, "ikowork"),
      ),
      // On home: updated (a new token), and one replaced for a reason of its own.
      step("update", "kubernetes:core/v1:Secret", "iko-target-kubeconfig", stamped(HOME, "t")),
      step("replace", "kubernetes:core/v1:ConfigMap", "home-cm", stamped(HOME, "cm")),
      { op: "same", urn: urn("kubernetes:core/v1:Namespace", "x") },
    ],
  };
}

describe("PR preview: destructive changes (pure)", () => {
  it("the stamp: an annotation, or a Helm release's description; nothing on an unstamped object", () => {
    assert.strictEqual(stampOf({ inputs: stamped(WORK, "a") }), WORK);
    assert.strictEqual(stampOf({ inputs: { description: `iko-plus cluster ${WORK}` } }), WORK);
    assert.strictEqual(stampOf({ inputs: { description: "mine" } }), undefined);
    assert.strictEqual(stampOf({ inputs: { metadata: { name: "a" } } }), undefined);
  });

  it("a replaced kind cluster takes its IrisClusters and the other objects stamped with it, its join included; nothing of home", () => {
    assert.deepStrictEqual(destructiveChanges(workReplaced()), [
      {
        name: "ikowork-kind",
        type: "pulumi-nodejs:dynamic/kind:Cluster",
        op: "replace",
        what: "kind cluster",
        irisClusters: ["iriscluster-default-iris"],
        others: 3,
      },
    ]);
  });

  it("a join replaced or deleted alone is a line of its own: Karmada removes what it propagated", () => {
    const preview: PreviewJson = {
      steps: [
        step(
          "delete",
          "kubernetes:cluster.karmada.io/v1alpha1:Cluster",
          "ikoclone-member-cluster",
          stamped(`${WORK} in k`, "c"),
        ),
        step("delete", "kubernetes:core/v1:Namespace", "ikoclone-member-member-ns", stamped(WORK, "karmada-cluster")),
      ],
    };
    const [d] = destructiveChanges(preview);
    assert.deepStrictEqual(d, {
      name: "ikoclone-member-cluster",
      type: "kubernetes:cluster.karmada.io/v1alpha1:Cluster",
      op: "delete",
      what: "Karmada join",
      irisClusters: [],
      others: 1,
    });
    assert.strictEqual(
      destructiveLine(d),
      "- **Destructive:** `ikoclone-member-cluster` (Karmada join) is deleted: Karmada removes what it propagated to that member.",
    );
  });

  it("a cluster made before identities existed is known by its name", () => {
    const preview: PreviewJson = {
      steps: [
        step("replace", "pulumi-nodejs:dynamic/kind:Cluster", "old-kind", { name: "old" }),
        step("replace", "kubernetes:core/v1:Namespace", "ns", stamped("old", "n")),
      ],
    };
    assert.deepStrictEqual(
      destructiveChanges(preview).map((d) => [d.name, d.others]),
      [["old-kind", 1]],
    );
  });

  it("the comment puts the destructive line first under the stack's heading, before the table", () => {
    const md = renderMarkdown([summarizeStack("dev", workReplaced())], { marker: "" });
    const line =
      "- **Destructive:** `ikowork-kind` (kind cluster) is replaced: it takes with it 1 IrisCluster " +
      "(`iriscluster-default-iris`) and 3 other objects; data on the old cluster's volumes is lost.";
    assert.ok(md.includes(line), md);
    assert.ok(md.indexOf(line) < md.indexOf("| op | resource |"), "before the table");
    assert.ok(md.indexOf("#### `dev`") < md.indexOf(line), "under the stack's heading");
  });

  it("no cluster or join destroyed: no destructive line", () => {
    const preview: PreviewJson = { steps: [step("replace", "kubernetes:core/v1:ConfigMap", "cm", stamped(WORK, "c"))] };
    assert.deepStrictEqual(destructiveChanges(preview), []);
    assert.ok(!renderMarkdown([summarizeStack("dev", preview)]).includes("Destructive"));
  });
});
