import * as assert from "assert";
import { unprotectedClusters } from "../../policy/rules/protection";
import { PolicyResource } from "../../policy/rules/values";

const resource = (type: string, name: string, props: PolicyResource["props"], protect?: boolean): PolicyResource => ({
  type,
  name,
  urn: `urn:${name}`,
  props,
  ...(protect !== undefined ? { protect } : {}),
});
const KIND = "pulumi-nodejs:dynamic/kind:Cluster";
const GKE = "gcp:container/cluster:Cluster";
const JOIN = "kubernetes:cluster.karmada.io/v1alpha1:Cluster";
const PROD = new Map([["iko-plus:environment", "production"]]);
const NONE = new Map<string, string>();

describe("policy clusters-protected / production-clusters-protected (pure)", () => {
  it("fires on an unprotected kind cluster, GKE cluster and Karmada join, naming what a replacement takes and the fix", () => {
    assert.deepStrictEqual(unprotectedClusters(resource(KIND, "ikowork-kind", { name: "ikowork" }), NONE, false), [
      'pulumi-nodejs:dynamic/kind:Cluster "ikowork-kind" (kind cluster "ikowork") is not protected: a change that replaces it (e.g. its node image, subnets or workers) or deletes it takes everything on it, IrisClusters included, and `up` would do it without asking; set protect: true on the cluster in the stack config (e.g. work.protect or clusters[0].protect), or KindCluster\'s protect arg. Protected, such a change fails the preview instead (set protect false and run `up` to make it on purpose)',
    ]);
    assert.deepStrictEqual(unprotectedClusters(resource(GKE, "ikogke-gke", { name: "ikogke" }), NONE, false), [
      'gcp:container/cluster:Cluster "ikogke-gke" (GKE cluster "ikogke") is not protected: a change that replaces it (e.g. its location or a setting GKE cannot change in place) or deletes it takes everything on it, IrisClusters included, and `up` would do it without asking; set protect: true on the cluster in the stack config (e.g. work.protect or clusters[0].protect), or GkeCluster\'s protect arg. Protected, such a change fails the preview instead (set protect false and run `up` to make it on purpose)',
    ]);
    assert.deepStrictEqual(
      unprotectedClusters(resource(JOIN, "ikoclone-member-cluster", { metadata: { name: "ikoclone" } }), PROD, true),
      [
        'kubernetes:cluster.karmada.io/v1alpha1:Cluster "ikoclone-member-cluster" (Karmada join "ikoclone") is not protected: a change that replaces or deletes it (a new member cluster, a new name) makes Karmada remove everything it propagated to the member, IrisClusters included, and `up` would do it without asking; set protect: true on the member\'s cluster in the stack config (e.g. clusters[0].protect), or KarmadaMember\'s protect arg. Protected, such a change fails the preview instead (set protect false and run `up` to make it on purpose)',
      ],
    );
  });
  it("silent when protected, for other types, and in the other twin's stacks (advisory outside production, mandatory in it)", () => {
    assert.deepStrictEqual(unprotectedClusters(resource(KIND, "k", { name: "k" }, true), NONE, false), []);
    assert.deepStrictEqual(unprotectedClusters(resource(KIND, "k", { name: "k" }, false), NONE, false).length, 1);
    assert.deepStrictEqual(unprotectedClusters(resource("pulumi-nodejs:dynamic:Resource", "w", {}), NONE, false), []);
    assert.deepStrictEqual(unprotectedClusters(resource("kubernetes:core/v1:Namespace", "n", {}), NONE, false), []);
    assert.deepStrictEqual(unprotectedClusters(resource(KIND, "k", { name: "k" }), PROD, false), []);
    assert.deepStrictEqual(unprotectedClusters(resource(KIND, "k", { name: "k" }), NONE, true), []);
    assert.strictEqual(unprotectedClusters(resource(KIND, "k", { name: "k" }), PROD, true).length, 1);
  });
});
