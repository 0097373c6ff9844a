import * as assert from "assert";
import { placedClusterNames, unjoinedPlacements } from "../../policy/rules/placement";
import { PolicyResource } from "../../policy/rules/values";

const KARMADA = "urn:karmada";
const cluster = (name: string, provider = KARMADA): PolicyResource => ({
  type: "kubernetes:cluster.karmada.io/v1alpha1:Cluster", name: `${name}-cluster`, urn: `urn:c:${name}`, provider, props: { metadata: { name } },
});
const policy = (kind: string, name: string, spec: PolicyResource["props"], provider = KARMADA): PolicyResource => ({
  type: `kubernetes:policy.karmada.io/v1alpha1:${kind}`, name, urn: `urn:p:${name}`, provider, props: { metadata: { name, namespace: "default" }, spec },
});

describe("policy placement-names-joined-clusters", () => {
  it("reads names from placements (affinity and ordered affinities) and overrides (rules and target)", () => {
    assert.deepStrictEqual(placedClusterNames(policy("PropagationPolicy", "p", {
      placement: { clusterAffinity: { clusterNames: ["a"] }, clusterAffinities: [{ affinityName: "x", clusterNames: ["b", "c"] }] },
    })).map((n) => `${n.path}=${n.name}`), [
      "spec.placement.clusterAffinity.clusterNames[0]=a", "spec.placement.clusterAffinities[0].clusterNames[0]=b", "spec.placement.clusterAffinities[0].clusterNames[1]=c",
    ]);
    assert.deepStrictEqual(placedClusterNames(policy("ClusterOverridePolicy", "o", {
      targetCluster: { clusterNames: ["d"] }, overrideRules: [{ targetCluster: { clusterNames: ["e"] } }, { targetCluster: { labelSelector: {} } }],
    })).map((n) => `${n.path}=${n.name}`), ["spec.targetCluster.clusterNames[0]=d", "spec.overrideRules[0].targetCluster.clusterNames[0]=e"]);
    assert.deepStrictEqual(placedClusterNames(cluster("a")), []);
  });
  it("fires on each name not joined in the stack, naming the joined ones", () => {
    assert.deepStrictEqual(unjoinedPlacements([
      cluster("ikoclone"), cluster("ikogke"),
      policy("ClusterPropagationPolicy", "p", { placement: { clusterAffinity: { clusterNames: ["ikoclone", "ikoghost"] } } }),
    ]), [{
      urn: "urn:p:p",
      message: "kubernetes:policy.karmada.io/v1alpha1:ClusterPropagationPolicy \"p\" (default/p): spec.placement.clusterAffinity.clusterNames[1] is \"ikoghost\", which is not a Karmada Cluster joined in this stack through the same Karmada (joined: ikoclone, ikogke); join that cluster in this stack (clusters[].join) or remove the name",
    }]);
  });
  it("says so when no Cluster is joined, and counts only Clusters of the same Karmada", () => {
    const p = policy("OverridePolicy", "o", { overrideRules: [{ targetCluster: { clusterNames: ["ikoclone"] } }] });
    const message = "kubernetes:policy.karmada.io/v1alpha1:OverridePolicy \"o\" (default/o): spec.overrideRules[0].targetCluster.clusterNames[0] is \"ikoclone\", which is not a Karmada Cluster joined in this stack through the same Karmada (no Cluster is joined in this stack); join that cluster in this stack (clusters[].join) or remove the name";
    assert.deepStrictEqual(unjoinedPlacements([p]), [{ urn: "urn:p:o", message }]);
    assert.deepStrictEqual(unjoinedPlacements([cluster("ikoclone", "urn:other-karmada"), p]), [{ urn: "urn:p:o", message }]);
    assert.deepStrictEqual(unjoinedPlacements([cluster("ikoclone"), p]), []);
  });
});
