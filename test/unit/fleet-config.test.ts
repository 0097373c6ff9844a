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
    federatedIrisClusters: [
      {
        name: "federated-iris",
        image: "containers.intersystems.com/intersystems/iris-community:2025.1",
        serviceType: "LoadBalancer",
        policyName: "iriscluster-propagate",
        licenseKeyConfig: "irisLicenseKey",
        placement: { clusterNames: ["ikoclone"] },
      },
    ],
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
    assert.deepStrictEqual(
      cfg.clusters.map((c) => [c.name, c.source, c.cilium.enabled, c.iko, !!c.join]),
      [
        ["ikofett", "kind", true, true, false],
        ["ikoclone", "kind", true, true, true],
      ],
    );
    assert.deepStrictEqual(cfg.karmada, {
      mode: "helm",
      nodePort: 32443,
      host: "ikofett",
      endpoint: "https://127.0.0.1:32443",
      chartPath: undefined,
      chartVersion: undefined,
      kubectlImage: undefined,
    });
    assert.ok(!("images" in cfg.karmada), "no karmada.images: the component's pinned defaults");
    assert.deepStrictEqual(cfg.federatedIrisClusters[0].placement, { clusterNames: ["ikoclone"], labels: undefined });
    assert.strictEqual(cfg.federatedIrisClusters[0].policyName, "iriscluster-propagate");
    assert.deepStrictEqual(cfg.fleetSecrets, [
      {
        name: "shhhh-secret",
        namespace: "default",
        dataKey: "shhhhData",
        placement: { clusterNames: ["ikoclone"], labels: undefined },
      },
    ]);
    assert.strictEqual(cfg.crdManifestPath, CRD);
    assert.strictEqual(cfg.federatedIrisClusters[0].licenseKeyConfig, "irisLicenseKey");
  });

  it("unit: takes placement matchExpressions (In, NotIn, Exists, DoesNotExist) beside labels, for placements, affinities, overrides and fleet Secrets", () => {
    const raw = base();
    const exprs = [
      { key: "region", operator: "In", values: ["a", "c"] },
      { key: "tier", operator: "NotIn", values: ["test"] },
      { key: "dr", operator: "Exists" },
      { key: "example.com/frozen", operator: "DoesNotExist" },
    ];
    const f = (raw.federatedIrisClusters as Record<string, unknown>[])[0];
    f.placement = {
      affinities: [
        { name: "primary", labels: { zone: "" }, matchExpressions: exprs },
        { name: "dr", clusterNames: ["ikoclone"] },
      ],
    };
    f.overrides = [{ matchExpressions: [exprs[0]], plaintext: [{ path: "/spec/x", operator: "add", value: 1 }] }];
    raw.fleetSecrets = [{ name: "s", dataKey: "shhhhData", matchExpressions: [exprs[2]] }];
    const cfg = validateConfig(raw, SECRET_KEYS);
    if (cfg.program !== "fleet") throw new Error("fleet");
    assert.deepStrictEqual(cfg.federatedIrisClusters[0].placement.affinities?.[0], {
      name: "primary",
      clusterNames: undefined,
      labels: { zone: "" },
      matchExpressions: exprs,
    });
    assert.deepStrictEqual(cfg.federatedIrisClusters[0].overrides[0].target, {
      clusterNames: undefined,
      labels: undefined,
      matchExpressions: [exprs[0]],
    });
    assert.deepStrictEqual(cfg.fleetSecrets[0].placement, {
      clusterNames: undefined,
      labels: undefined,
      matchExpressions: [exprs[2]],
    });
  });

  it("takes karmada.images, each pinned, by key", () => {
    const raw = base();
    raw.karmada = {
      mode: "helm",
      host: "ikofett",
      endpoint: "https://127.0.0.1:32443",
      images: { etcd: "docker.io/iko-plus/karmada-etcd:3.6.5-0", apiServer: "registry.k8s.io/kube-apiserver:v1.34.12" },
    };
    const cfg = validateConfig(raw, SECRET_KEYS);
    if (cfg.program !== "fleet") throw new Error("fleet");
    assert.deepStrictEqual(cfg.karmada.images, {
      apiServer: "registry.k8s.io/kube-apiserver:v1.34.12",
      etcd: "docker.io/iko-plus/karmada-etcd:3.6.5-0",
    });
  });

  it("flags a secret key that no entry names, without showing it", () => {
    assert.deepStrictEqual(problemsOf({ ...base(), strayKey: "x" }, [...SECRET_KEYS, "iko-plus:strayKey"]), [
      "iko-plus:strayKey: [secret] is not a known key; use one of: program, clusters, karmada, iko, federatedIrisClusters, fleetSecrets, fleetTls, clusterFailover, registryMirror, mesh (or a secret key that an entry names)",
    ]);
  });

  it("accepts a GKE member without Cilium and with deletion protection on", () => {
    const raw = base();
    (raw.clusters as unknown[]).push({
      name: "ikogke",
      source: "gke",
      gke: { location: "us-central1", project: "p" },
      join: { provider: "gke", region: "us-central1" },
    });
    const cfg = validateConfig(raw, SECRET_KEYS);
    if (cfg.program !== "fleet") throw new Error("fleet");
    assert.strictEqual(
      cfg.clusters[1].join?.access,
      "scoped",
      "Karmada gets scoped access unless configured otherwise",
    );
    const gke = cfg.clusters[2];
    assert.deepStrictEqual(
      [gke.source, gke.cilium.enabled, gke.gke?.deletionProtection, gke.gke?.nodeCount],
      ["gke", false, true, 1],
    );
  });

  const cases: [string, (c: Record<string, unknown>) => void, string][] = [
    [
      "placement naming an unknown cluster",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = { clusterNames: ["ikoghost"] };
      },
      'iko-plus:federatedIrisClusters[0].placement.clusterNames: "ikoghost" is not a joined member of this fleet; use one of: ikoclone',
    ],
    [
      "placement naming the (unjoined) host",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = { clusterNames: ["ikofett"] };
      },
      'iko-plus:federatedIrisClusters[0].placement.clusterNames: "ikofett" is not a joined member of this fleet; use one of: ikoclone',
    ],
    [
      "an empty placement",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = {};
      },
      "iko-plus:federatedIrisClusters[0].placement: {} places the object nowhere; set clusterNames, labels, matchExpressions, regions or affinities",
    ],
    [
      "a Karmada host that is not a cluster",
      (c) => {
        c.karmada = { mode: "helm", host: "ikokamino", endpoint: "https://127.0.0.1:32443" };
      },
      'iko-plus:karmada.host: "ikokamino" is not one of this stack\'s clusters (ikofett, ikoclone)',
    ],
    [
      "a Karmada endpoint without port",
      (c) => {
        c.karmada = { mode: "helm", host: "ikofett", endpoint: "127.0.0.1" };
      },
      'iko-plus:karmada.endpoint: "127.0.0.1" must be the Karmada API as reached from this machine, https://<host>:<port>, e.g. https://127.0.0.1:32443 (a kind host port mapped to the NodePort)',
    ],
    [
      "a NodePort out of range",
      (c) => {
        c.karmada = { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443", nodePort: 5443 };
      },
      "iko-plus:karmada.nodePort: 5443 must be a whole number from 30000 to 32767 (Kubernetes' NodePort range)",
    ],
    [
      "a Karmada image on latest",
      (c) => {
        c.karmada = {
          mode: "helm",
          host: "ikofett",
          endpoint: "https://127.0.0.1:32443",
          images: { cfssl: "docker.io/cfssl/cfssl:latest" },
        };
      },
      'iko-plus:karmada.images.cfssl: "docker.io/cfssl/cfssl:latest" uses the tag "latest"; pin a version, e.g. ":2025.1"',
    ],
    [
      "a Karmada image without registry",
      (c) => {
        c.karmada = {
          mode: "helm",
          host: "ikofett",
          endpoint: "https://127.0.0.1:32443",
          images: { etcd: "etcd:3.6.5-0" },
        };
      },
      'iko-plus:karmada.images.etcd: "etcd:3.6.5-0" must name its registry, e.g. docker.io/karmada/karmada-webhook:v1.18.2 (the chart takes registry, repository and tag apart)',
    ],
    [
      "a Karmada chart version that is not vX.Y.Z",
      (c) => {
        c.karmada = { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443", chartVersion: "1.18" };
      },
      'iko-plus:karmada.chartVersion: "1.18" must be a Karmada chart version, v<major>.<minor>.<patch>, e.g. v1.18.2 (Karmada\'s chart versions carry the "v")',
    ],
    [
      "a Karmada chart version without its v",
      (c) => {
        c.karmada = { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443", chartVersion: "1.16.0" };
      },
      'iko-plus:karmada.chartVersion: "1.16.0" must start with "v", e.g. v1.16.0 (Karmada\'s chart versions carry the "v")',
    ],
    [
      "an unknown Karmada image key",
      (c) => {
        c.karmada = {
          mode: "helm",
          host: "ikofett",
          endpoint: "https://127.0.0.1:32443",
          images: { agnet: "docker.io/karmada/karmada-agent:v1.16.0" },
        };
      },
      'iko-plus:karmada.images.agnet: "docker.io/karmada/karmada-agent:v1.16.0" is not a known key; use one of: apiServer, kubeControllerManager, etcd, cfssl, kubectl, aggregatedApiServer, controllerManager, scheduler, webhook',
    ],
    [
      "the kubectl image set twice",
      (c) => {
        c.karmada = {
          mode: "helm",
          host: "ikofett",
          endpoint: "https://127.0.0.1:32443",
          kubectlImage: "docker.io/a/kubectl:1",
          images: { kubectl: "docker.io/b/kubectl:1" },
        };
      },
      'iko-plus:karmada.kubectlImage: "docker.io/a/kubectl:1" is set twice (images.kubectl names the kubectl image too); keep one',
    ],
    [
      "an existing Karmada without kubeconfig",
      (c) => {
        c.karmada = { mode: "existing" };
      },
      "iko-plus:karmada.kubeconfigPath: (not set) is required, or give the kubeconfig's contents instead (karmada.kubeconfigSecret)",
    ],
    [
      "a license key config that is not a secret",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].licenseKeyConfig = "plainKey";
        c.plainKey = "KEY";
        delete c.irisLicenseKey;
      },
      'iko-plus:federatedIrisClusters[0].licenseKeyConfig: "plainKey" names config key iko-plus:plainKey, which is not a secret; set it again with `pulumi config set --secret plainKey ...`',
    ],
    [
      "a fleet Secret whose data key is missing",
      (c) => {
        (c.fleetSecrets as Record<string, unknown>[])[0].dataKey = "nope";
        delete c.shhhhData;
      },
      'iko-plus:fleetSecrets[0].dataKey: "nope" names config key iko-plus:nope, which is not set; set it with `pulumi config set --secret nope <JSON object of Secret keys to values>`',
    ],
    [
      "a fleet Secret going nowhere",
      (c) => {
        c.fleetSecrets = [{ name: "s", dataKey: "shhhhData" }];
      },
      'iko-plus:fleetSecrets[0]: "{...}" sends the Secret nowhere; set clusterNames, labels or matchExpressions',
    ],
    [
      "GKE with Cilium",
      (c) => {
        (c.clusters as unknown[]).push({
          name: "g",
          source: "gke",
          gke: { location: "us-central1" },
          cilium: { enabled: true, clusterId: 9 },
        });
      },
      "iko-plus:clusters[2].cilium.enabled: true is true for a GKE cluster, which runs Dataplane V2 (Cilium-based) already; remove it",
    ],
    [
      "GKE without a location",
      (c) => {
        (c.clusters as unknown[]).push({ name: "g", source: "gke", gke: {} });
      },
      "iko-plus:clusters[2].gke.location: (not set) is required for a GKE cluster; use a region (us-central1) or a zone (us-central1-a)",
    ],
    [
      "duplicate cluster names",
      (c) => {
        (c.clusters as unknown[]).push({ name: "ikoclone", cilium: { clusterId: 3 } });
      },
      'iko-plus:clusters[2].name: "ikoclone" is also the name of clusters[1]; give every cluster its own name',
    ],
    [
      "an override for an unknown member",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].overrides = [
          { clusterNames: ["ikogke"], plaintext: [{ path: "/spec/x", operator: "add", value: 1 }] },
        ];
      },
      'iko-plus:federatedIrisClusters[0].overrides[0].clusterNames: "ikogke" is not a joined member of this fleet; use one of: ikoclone',
    ],
    [
      "an override path that is not a JSON pointer",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].overrides = [
          { clusterNames: ["ikoclone"], plaintext: [{ path: "spec.x", operator: "add", value: 1 }] },
        ];
      },
      'iko-plus:federatedIrisClusters[0].overrides[0].plaintext[0].path: "spec.x" must be a JSON pointer such as /spec/storageClassName',
    ],
    [
      "a stray top-level key",
      (c) => {
        c.members = [];
      },
      "iko-plus:members: [] is not a known key; use one of: program, clusters, karmada, iko, federatedIrisClusters, fleetSecrets, fleetTls, clusterFailover, registryMirror, mesh (or a secret key that an entry names)",
    ],
    [
      "a licensed IRIS image without a license key",
      (c) => {
        const f = (c.federatedIrisClusters as Record<string, unknown>[])[0];
        f.image = "containers.intersystems.com/intersystems/iris:2025.1";
        delete f.licenseKeyConfig;
        delete c.irisLicenseKey;
      },
      'iko-plus:federatedIrisClusters[0].licenseKeyConfig: (not set) is required for the licensed image "containers.intersystems.com/intersystems/iris:2025.1"; name the Secret holding iris.key, or use an iris-community image',
    ],
    [
      "a set-based selector written as a label value (unit)",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = { labels: { region: "in (a,c)" } };
      },
      'iko-plus:federatedIrisClusters[0].placement.labels.region: "in (a,c)" is a set-based selector written as a label value, which selects nothing; write it as matchExpressions: [{key: region, operator: In, values: [a, c]}]',
    ],
    [
      "a label value Kubernetes refuses (unit)",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = { labels: { tier: "gold tier" } };
      },
      "iko-plus:federatedIrisClusters[0].placement.labels.tier: \"gold tier\" is not a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit; to select several values use matchExpressions: [{key: tier, operator: In, values: [a, b]}]",
    ],
    [
      "a label key Kubernetes refuses (unit)",
      (c) => {
        (c.fleetSecrets as Record<string, unknown>[])[0].labels = { "Example.com/tier": "dr" };
      },
      'iko-plus:fleetSecrets[0].labels["Example.com/tier"]: "Example.com/tier" is not a label key: its prefix (before \'/\') must be a DNS-1123 subdomain such as example.com; use e.g. example.com/tier or tier',
    ],
    [
      "a join label Kubernetes refuses (unit)",
      (c) => {
        (c.clusters as Record<string, unknown>[])[1].join = { labels: { region: "-eu" } };
      },
      "iko-plus:clusters[1].join.labels.region: \"-eu\" is not a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit; to select several values use matchExpressions: [{key: region, operator: In, values: [a, b]}]",
    ],
    [
      "an unknown expression operator (unit)",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = {
          matchExpressions: [{ key: "region", operator: "in", values: ["a"] }],
        };
      },
      'iko-plus:federatedIrisClusters[0].placement.matchExpressions[0].operator: "in" is not allowed; use one of: In, NotIn, Exists, DoesNotExist',
    ],
    [
      "an In expression without values (unit)",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = {
          matchExpressions: [{ key: "region", operator: "In" }],
        };
      },
      "iko-plus:federatedIrisClusters[0].placement.matchExpressions[0].values: (not set) is required with operator In: a non-empty list of label values, e.g. [us-central1]",
    ],
    [
      "an Exists expression with values (unit)",
      (c) => {
        (c.fleetSecrets as Record<string, unknown>[])[0].matchExpressions = [
          { key: "dr", operator: "Exists", values: ["x"] },
        ];
      },
      'iko-plus:fleetSecrets[0].matchExpressions[0].values: ["x"] must be left out with operator Exists, which tests only whether the key is set',
    ],
    [
      "an expression value Kubernetes refuses (unit)",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].overrides = [
          {
            matchExpressions: [{ key: "region", operator: "NotIn", values: ["a", "b,c"] }],
            plaintext: [{ path: "/spec/x", operator: "add", value: 1 }],
          },
        ];
      },
      "iko-plus:federatedIrisClusters[0].overrides[0].matchExpressions[0].values[1]: \"b,c\" is not a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit; to select several values use matchExpressions: [{key: region, operator: In, values: [a, b]}]",
    ],
    [
      "an empty expression list (unit)",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = { matchExpressions: [] };
      },
      "iko-plus:federatedIrisClusters[0].placement.matchExpressions: [] must be a non-empty list of {key, operator: In|NotIn|Exists|DoesNotExist, values}, e.g. [{key: region, operator: In, values: [a, c]}]",
    ],
    [
      "a placement naming a member twice (unit)",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = { clusterNames: ["ikoclone", "ikoclone"] };
      },
      'iko-plus:federatedIrisClusters[0].placement.clusterNames: ["ikoclone","ikoclone"] names ikoclone more than once; list each member once',
    ],
    [
      "a fleet Secret naming a member three times (unit)",
      (c) => {
        (c.fleetSecrets as Record<string, unknown>[])[0].clusterNames = ["ikoclone", "ikoclone", "ikoclone"];
      },
      'iko-plus:fleetSecrets[0].clusterNames: ["ikoclone","ikoclone","ikoclone"] names ikoclone more than once; list each member once',
    ],
    [
      "an unjoined name listed twice, reported once (unit)",
      (c) => {
        (c.federatedIrisClusters as { placement: unknown }[])[0].placement = {
          affinities: [{ name: "a", clusterNames: ["ikoghost", "ikoghost"] }],
        };
      },
      'iko-plus:federatedIrisClusters[0].placement.affinities[0].clusterNames: "ikoghost" is not a joined member of this fleet; use one of: ikoclone',
    ],
    [
      "an empty IKO chart path (unit)",
      (c) => {
        c.iko = { chartPath: "", crdManifestPath: CRD };
      },
      'iko-plus:iko.chartPath: "" is empty; set it to the IKO chart folder of the InterSystems download (chart/iris-operator), or give a chart repository and version instead (iko.chartRepo, iko.chartVersion)',
    ],
    [
      "an empty CRD manifest path with federated IrisClusters (unit)",
      (c) => {
        c.iko = { chartPath: CHART, crdManifestPath: "" };
      },
      'iko-plus:iko.crdManifestPath: "" must be a non-empty string',
    ],
    [
      "an unknown member access",
      (c) => {
        (c.clusters as Record<string, unknown>[])[1].join = { access: "admin" };
      },
      'iko-plus:clusters[1].join.access: "admin" is not allowed; use one of: scoped, cluster-admin',
    ],
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
