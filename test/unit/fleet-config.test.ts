import * as assert from "assert";
import * as path from "path";
import { ConfigError, validateConfig } from "../../stacks";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const SECRET_KEYS = ["iko-plus:irisLicenseKey", "iko-plus:shhhhData"];

function base(): Record<string, unknown> {
  return {
    program: "fleet",
    clusters: [
      { name: "ikofett", cilium: { clusterId: 1 }, extraPortMappings: [{ containerPort: 32443, hostPort: 32443 }] },
      { name: "ikoclone", cilium: { clusterId: 2 }, join: { provider: "kind" } },
    ],
    karmada: { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443" },
    iko: { chartPath: CHART, crdManifestPath: CRD },
    federatedIrisClusters: [{ name: "federated-iris", image: "containers.intersystems.com/intersystems/iris-community:2025.1", serviceType: "LoadBalancer", policyName: "iriscluster-propagate", licenseKeyConfig: "irisLicenseKey", placement: { clusterNames: ["ikoclone"] } }],
    irisLicenseKey: "KEY",
    shhhhData: { password: "x" },
    fleetSecrets: [{ name: "shhhh-secret", dataKey: "shhhhData", clusterNames: ["ikoclone"] }],
  };
}

function problemsOf(raw: Record<string, unknown>, secretKeys = SECRET_KEYS): string[] {
  try {
    validateConfig(raw, secretKeys);
    return [];
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return (e as ConfigError).problems;
  }
}

describe("fleet config", () => {
  it("accepts the Kamino article's fleet", () => {
    const cfg = validateConfig(base(), SECRET_KEYS);
    assert.strictEqual(cfg.program, "fleet");
    if (cfg.program !== "fleet") return;
    assert.deepStrictEqual(cfg.clusters.map((c) => [c.name, c.source, c.cilium.enabled, c.iko, !!c.join]), [["ikofett", "kind", true, true, false], ["ikoclone", "kind", true, true, true]]);
    assert.deepStrictEqual(cfg.karmada, { mode: "helm", nodePort: 32443, host: "ikofett", endpoint: "https://127.0.0.1:32443", chartPath: undefined, chartVersion: undefined, kubectlImage: undefined });
    assert.deepStrictEqual(cfg.federatedIrisClusters[0].placement, { clusterNames: ["ikoclone"], labels: undefined });
    assert.strictEqual(cfg.federatedIrisClusters[0].policyName, "iriscluster-propagate");
    assert.deepStrictEqual(cfg.fleetSecrets, [{ name: "shhhh-secret", namespace: "default", dataKey: "shhhhData", placement: { clusterNames: ["ikoclone"], labels: undefined } }]);
    assert.strictEqual(cfg.crdManifestPath, CRD);
    assert.strictEqual(cfg.federatedIrisClusters[0].licenseKeyConfig, "irisLicenseKey");
  });

  it("flags a secret key that no entry names, without showing it", () => {
    assert.deepStrictEqual(problemsOf({ ...base(), strayKey: "x" }, [...SECRET_KEYS, "iko-plus:strayKey"]),
      ["iko-plus:strayKey: [secret] is not a known key; use one of: program, clusters, karmada, iko, federatedIrisClusters, fleetSecrets, fleetTls, clusterFailover, registryMirror (or a secret key that an entry names)"]);
  });

  it("accepts a GKE member without Cilium and with deletion protection on", () => {
    const raw = base();
    (raw.clusters as unknown[]).push({ name: "ikogke", source: "gke", gke: { location: "us-central1", project: "p" }, join: { provider: "gke", region: "us-central1" } });
    const cfg = validateConfig(raw, SECRET_KEYS);
    if (cfg.program !== "fleet") throw new Error("fleet");
    assert.strictEqual(cfg.clusters[1].join?.access, "scoped", "Karmada gets scoped access unless configured otherwise");
    const gke = cfg.clusters[2];
    assert.deepStrictEqual([gke.source, gke.cilium.enabled, gke.gke?.deletionProtection, gke.gke?.nodeCount], ["gke", false, true, 1]);
  });

  const cases: [string, (c: Record<string, unknown>) => void, string][] = [
    ["placement naming an unknown cluster", (c) => { (c.federatedIrisClusters as { placement: unknown }[])[0].placement = { clusterNames: ["ikoghost"] }; },
      'iko-plus:federatedIrisClusters[0].placement.clusterNames: "ikoghost" is not a joined member of this fleet; use one of: ikoclone'],
    ["placement naming the (unjoined) host", (c) => { (c.federatedIrisClusters as { placement: unknown }[])[0].placement = { clusterNames: ["ikofett"] }; },
      'iko-plus:federatedIrisClusters[0].placement.clusterNames: "ikofett" is not a joined member of this fleet; use one of: ikoclone'],
    ["an empty placement", (c) => { (c.federatedIrisClusters as { placement: unknown }[])[0].placement = {}; },
      "iko-plus:federatedIrisClusters[0].placement: {} places the object nowhere; set clusterNames, labels, regions or affinities"],
    ["a Karmada host that is not a cluster", (c) => { c.karmada = { mode: "helm", host: "ikokamino", endpoint: "https://127.0.0.1:32443" }; },
      'iko-plus:karmada.host: "ikokamino" is not one of this stack\'s clusters (ikofett, ikoclone)'],
    ["a Karmada endpoint without port", (c) => { c.karmada = { mode: "helm", host: "ikofett", endpoint: "127.0.0.1" }; },
      'iko-plus:karmada.endpoint: "127.0.0.1" must be the Karmada API as reached from this machine, https://<host>:<port>, e.g. https://127.0.0.1:32443 (a kind host port mapped to the NodePort)'],
    ["a NodePort out of range", (c) => { c.karmada = { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443", nodePort: 5443 }; },
      "iko-plus:karmada.nodePort: 5443 must be a whole number from 30000 to 32767 (the NodePort range)"],
    ["an existing Karmada without kubeconfig", (c) => { c.karmada = { mode: "existing" }; },
      "iko-plus:karmada.kubeconfigPath: (not set) or karmada.kubeconfigSecret is required (exactly one) for an existing Karmada"],
    ["a license key config that is not a secret", (c) => { (c.federatedIrisClusters as Record<string, unknown>[])[0].licenseKeyConfig = "plainKey"; c.plainKey = "KEY"; delete c.irisLicenseKey; },
      'iko-plus:federatedIrisClusters[0].licenseKeyConfig: "plainKey" names config key iko-plus:plainKey, which is not a secret; set it again with `pulumi config set --secret plainKey ...`'],
    ["a fleet Secret whose data key is missing", (c) => { (c.fleetSecrets as Record<string, unknown>[])[0].dataKey = "nope"; delete c.shhhhData; },
      'iko-plus:fleetSecrets[0].dataKey: "nope" names config key iko-plus:nope, which is not set; set it with `pulumi config set --secret nope <JSON object of Secret keys to values>`'],
    ["a fleet Secret going nowhere", (c) => { c.fleetSecrets = [{ name: "s", dataKey: "shhhhData" }]; },
      'iko-plus:fleetSecrets[0]: "{...}" sends the Secret nowhere; set clusterNames or labels'],
    ["GKE with Cilium", (c) => { (c.clusters as unknown[]).push({ name: "g", source: "gke", gke: { location: "us-central1" }, cilium: { enabled: true, clusterId: 9 } }); },
      "iko-plus:clusters[2].cilium.enabled: true is true for a GKE cluster, which runs Dataplane V2 (Cilium-based) already; remove it"],
    ["GKE without a location", (c) => { (c.clusters as unknown[]).push({ name: "g", source: "gke", gke: {} }); },
      "iko-plus:clusters[2].gke.location: (not set) is required for a GKE cluster; use a region (us-central1) or a zone (us-central1-a)"],
    ["duplicate cluster names", (c) => { (c.clusters as unknown[]).push({ name: "ikoclone", cilium: { clusterId: 3 } }); },
      'iko-plus:clusters[2].name: "ikoclone" is also the name of clusters[1]; give every cluster its own name'],
    ["an override for an unknown member", (c) => { (c.federatedIrisClusters as Record<string, unknown>[])[0].overrides = [{ clusterNames: ["ikogke"], plaintext: [{ path: "/spec/x", operator: "add", value: 1 }] }]; },
      'iko-plus:federatedIrisClusters[0].overrides[0].clusterNames: "ikogke" is not a joined member of this fleet; use one of: ikoclone'],
    ["an override path that is not a JSON pointer", (c) => { (c.federatedIrisClusters as Record<string, unknown>[])[0].overrides = [{ clusterNames: ["ikoclone"], plaintext: [{ path: "spec.x", operator: "add", value: 1 }] }]; },
      'iko-plus:federatedIrisClusters[0].overrides[0].plaintext[0].path: "spec.x" must be a JSON pointer such as /spec/storageClassName'],
    ["a stray top-level key", (c) => { c.members = []; },
      "iko-plus:members: [] is not a known key; use one of: program, clusters, karmada, iko, federatedIrisClusters, fleetSecrets, fleetTls, clusterFailover, registryMirror (or a secret key that an entry names)"],
    ["a licensed IRIS image without a license key", (c) => { const f = (c.federatedIrisClusters as Record<string, unknown>[])[0]; f.image = "containers.intersystems.com/intersystems/iris:2025.1"; delete f.licenseKeyConfig; delete c.irisLicenseKey; },
      'iko-plus:federatedIrisClusters[0].licenseKeyConfig: (not set) is required for the licensed image "containers.intersystems.com/intersystems/iris:2025.1"; name the Secret holding iris.key, or use an iris-community image'],
    ["an unknown member access", (c) => { (c.clusters as Record<string, unknown>[])[1].join = { access: "admin" }; },
      'iko-plus:clusters[1].join.access: "admin" is not allowed; use one of: scoped, cluster-admin'],
  ];
  for (const [title, mutate, expected] of cases) {
    it(`rejects ${title}`, () => {
      const raw = base();
      mutate(raw);
      const problems = problemsOf(raw);
      assert.strictEqual(problems.length, 1, problems.join(" | "));
      assert.strictEqual(problems[0], expected);
    });
  }
});
