import * as assert from "assert";
import {
  IMPERSONATOR, KARMADA_CLUSTER_NAMESPACE, clusterAffinity, clusterObject, impersonatorSecretName, memberClusterRoleName, memberClusterRoleRules,
  memberNamespace, memberServiceAccountName, overridePolicy, propagationPolicy, tokenSecret,
} from "../../components/karmada";

describe("karmada join manifests (karmadactl's names)", () => {
  it("names what karmadactl join names", () => {
    assert.strictEqual(KARMADA_CLUSTER_NAMESPACE, "karmada-cluster");
    assert.strictEqual(IMPERSONATOR, "karmada-impersonator");
    assert.strictEqual(memberServiceAccountName("ikoclone"), "karmada-ikoclone");
    assert.strictEqual(memberClusterRoleName("ikoclone"), "karmada-controller-manager:karmada-ikoclone");
    assert.strictEqual(impersonatorSecretName("ikoclone"), "ikoclone-impersonator");
  });
  it("builds the member namespace, token Secrets and the all-powerful role of a Push join", () => {
    assert.deepStrictEqual(memberNamespace(), { apiVersion: "v1", kind: "Namespace", metadata: { name: "karmada-cluster", labels: { "karmada.io/system": "true" } } });
    assert.deepStrictEqual(tokenSecret("karmada-ikoclone"), {
      apiVersion: "v1", kind: "Secret", type: "kubernetes.io/service-account-token",
      metadata: { name: "karmada-ikoclone", namespace: "karmada-cluster", annotations: { "kubernetes.io/service-account.name": "karmada-ikoclone" } },
    });
    assert.deepStrictEqual(memberClusterRoleRules("cluster-admin"), [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }, { nonResourceURLs: ["*"], verbs: ["get"] }]);
    const all = ["get", "list", "watch", "create", "update", "patch", "delete"];
    assert.deepStrictEqual(memberClusterRoleRules(), [
      { apiGroups: [""], resources: ["nodes", "pods"], verbs: ["get", "list", "watch"] },
      { apiGroups: [""], resources: ["namespaces", "secrets", "configmaps"], verbs: all },
      { apiGroups: ["intersystems.com"], resources: ["irisclusters", "irisclusters/status"], verbs: all },
      { nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/version", "/healthz", "/readyz", "/livez"], verbs: ["get"] },
    ], "scoped by default: no wildcard, no RBAC, no workloads");
    assert.deepStrictEqual(memberClusterRoleRules("scoped"), memberClusterRoleRules());
  });
  it("builds the Cluster object with placement fields only when given", () => {
    assert.deepStrictEqual(clusterObject({ name: "ikoclone", apiEndpoint: "https://10.0.0.3:6443", id: "uid-1" }), {
      apiVersion: "cluster.karmada.io/v1alpha1", kind: "Cluster", metadata: { name: "ikoclone" },
      spec: {
        syncMode: "Push", apiEndpoint: "https://10.0.0.3:6443", id: "uid-1",
        secretRef: { namespace: "karmada-cluster", name: "ikoclone" },
        impersonatorSecretRef: { namespace: "karmada-cluster", name: "ikoclone-impersonator" },
      },
    });
    const gke = clusterObject({ name: "ikogke", apiEndpoint: "https://34.1.2.3", id: "u", provider: "gke", region: "us-central1", zones: ["us-central1-a"], labels: { tier: "dr" } });
    assert.deepStrictEqual(gke.metadata, { name: "ikogke", labels: { tier: "dr" } });
    assert.deepStrictEqual([(gke.spec as Record<string, unknown>).provider, (gke.spec as Record<string, unknown>).region, (gke.spec as Record<string, unknown>).zones], ["gke", "us-central1", ["us-central1-a"]]);
  });
});

describe("karmada policies", () => {
  const selector = { apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster", name: "federated-iris" };
  it("reproduces the article's iriscluster-propagate policy", () => {
    assert.deepStrictEqual(propagationPolicy({ name: "iriscluster-propagate", namespace: "default", resourceSelectors: [selector], placement: { clusterNames: ["ikoclone"] } }), {
      apiVersion: "policy.karmada.io/v1alpha1", kind: "PropagationPolicy", metadata: { name: "iriscluster-propagate", namespace: "default" },
      spec: { resourceSelectors: [selector], placement: { clusterAffinity: { clusterNames: ["ikoclone"] } } },
    });
  });
  it("orders cluster affinities for failover and adds spread constraints and options", () => {
    const p = propagationPolicy({
      name: "dr", namespace: "iris", resourceSelectors: [selector], propagateDeps: true, conflictResolution: "Overwrite",
      placement: { affinities: [{ name: "primary", labels: { region: "us-central1" } }, { name: "dr", clusterNames: ["ikogke"] }], spreadConstraints: [{ spreadByField: "cluster", maxGroups: 1, minGroups: 1 }] },
    });
    assert.deepStrictEqual(p.spec, {
      resourceSelectors: [selector],
      placement: {
        clusterAffinities: [{ affinityName: "primary", labelSelector: { matchLabels: { region: "us-central1" } } }, { affinityName: "dr", clusterNames: ["ikogke"] }],
        spreadConstraints: [{ spreadByField: "cluster", maxGroups: 1, minGroups: 1 }],
      },
      propagateDeps: true,
      conflictResolution: "Overwrite",
    });
  });
  it("unit: passes matchExpressions beside matchLabels to clusterAffinity.labelSelector (values left out for Exists/DoesNotExist)", () => {
    assert.deepStrictEqual(clusterAffinity({
      labels: { tier: "gold" },
      matchExpressions: [{ key: "region", operator: "In", values: ["a", "c"] }, { key: "dr", operator: "Exists" }, { key: "frozen", operator: "DoesNotExist", values: [] }, { key: "zone", operator: "NotIn", values: ["b"] }],
    }), { labelSelector: {
      matchLabels: { tier: "gold" },
      matchExpressions: [{ key: "region", operator: "In", values: ["a", "c"] }, { key: "dr", operator: "Exists" }, { key: "frozen", operator: "DoesNotExist" }, { key: "zone", operator: "NotIn", values: ["b"] }],
    } });
    assert.deepStrictEqual(clusterAffinity({ matchExpressions: [{ key: "region", operator: "In", values: ["a"] }] }), { labelSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["a"] }] } });
  });
  it("builds per-cluster plaintext overrides", () => {
    assert.deepStrictEqual(overridePolicy({
      name: "gke-storage", namespace: "default", resourceSelectors: [selector], target: { clusterNames: ["ikogke"] },
      plaintext: [{ path: "/spec/storageClassName", operator: "add", value: "standard-rwo" }, { path: "/spec/x", operator: "remove", value: "ignored" }],
    }).spec, {
      resourceSelectors: [selector],
      overrideRules: [{ targetCluster: { clusterNames: ["ikogke"] }, overriders: { plaintext: [{ path: "/spec/storageClassName", operator: "add", value: "standard-rwo" }, { path: "/spec/x", operator: "remove" }] } }],
    });
  });
});
