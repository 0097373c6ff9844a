/**
 * The region (DR) stack's config, the fleet's DR keys (regions in placements, failover,
 * clusterFailover), and the example stack files validated the way `pulumi preview` does.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { stackFilePath, stackOfFile } from "../../scripts/stack-files";
import { ConfigError, RegionConfig, checkFleetStackName, rawProjectConfig, validateConfig } from "../../stacks";

const REPO = path.resolve(__dirname, "../..");
const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const KUBECONFIG =
  "apiVersion: v1\nkind: Config\nclusters:\n- name: m\n  cluster:\n    server: https://10.0.0.1:6443\ncontexts:\n- name: m\n  context:\n    cluster: m\n    user: m\ncurrent-context: m\nusers:\n- name: m\n  user:\n    token: t\n";

function region(): Record<string, unknown> {
  return {
    program: "region",
    fleetStack: "dr-fleet",
    region: "us-central1",
    zones: ["us-central1-a", "us-central1-b"],
    member: { name: "iris-us-central1", source: "gke", gke: { project: "p" }, labels: { dr: "iris" } },
    iko: { chartPath: CHART, crdManifestPath: CRD },
  };
}

function problemsOf(raw: Record<string, unknown>, secretKeys: string[] = [], stack = "dr-us-central1"): string[] {
  try {
    validateConfig(raw, secretKeys, stack);
    return [];
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return (e as ConfigError).problems;
  }
}

function regionOf(raw: Record<string, unknown>, secretKeys: string[] = []): RegionConfig {
  const cfg = validateConfig(raw, secretKeys, "dr-us-central1");
  if (cfg.program !== "region") throw new Error(`program ${cfg.program}`);
  return cfg;
}

/** A stack file's config as the language host passes it (strings; objects as JSON), plus its secret keys. */
function stackFile(
  file: string,
  replace: Record<string, unknown> = {},
): { raw: Record<string, unknown>; secretKeys: string[] } {
  const config = {
    ...(
      YAML.parse(fs.readFileSync(stackFilePath(REPO, stackOfFile(file) ?? file), "utf8")) as {
        config: Record<string, unknown>;
      }
    ).config,
    ...replace,
  };
  const all: Record<string, string> = {};
  const secretKeys: string[] = [];
  for (const [k, v] of Object.entries(config)) {
    if (v && typeof v === "object" && "secure" in (v as object)) secretKeys.push(k);
    all[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  return { raw: rawProjectConfig(all), secretKeys };
}

describe("region stack config", () => {
  it("accepts a GKE member in its region: location defaults to the region, provider gke, IKO on", () => {
    const cfg = regionOf(region());
    assert.deepStrictEqual(
      [cfg.fleetStack, cfg.region, cfg.zones],
      ["dr-fleet", "us-central1", ["us-central1-a", "us-central1-b"]],
    );
    assert.deepStrictEqual(
      [cfg.member.name, cfg.member.source, cfg.member.provider, cfg.member.iko, cfg.member.cilium.enabled],
      ["iris-us-central1", "gke", "gke", true, false],
    );
    assert.deepStrictEqual(cfg.member.gke, {
      project: "p",
      location: "us-central1",
      nodeCount: 1,
      machineType: "e2-standard-4",
      deletionProtection: true,
    });
    assert.deepStrictEqual(cfg.member.labels, { dr: "iris" });
    assert.strictEqual(cfg.crdManifestPath, CRD);
  });

  it("accepts an existing member by secret kubeconfig, named by member.kubeconfigSecret", () => {
    const raw = {
      ...region(),
      member: { name: "ikohome", kubeconfigSecret: "homeKubeconfig" },
      homeKubeconfig: KUBECONFIG,
      zones: undefined,
    };
    const cfg = regionOf(raw, ["iko-plus:homeKubeconfig"]);
    assert.deepStrictEqual(
      [cfg.member.source, cfg.member.kubeconfigSecretKey, cfg.member.provider, cfg.zones],
      ["kubeconfig", "homeKubeconfig", undefined, undefined],
    );
  });

  it("accepts fully qualified fleet stack names and refuses malformed ones", () => {
    assert.strictEqual(checkFleetStackName("organization/iko-plus/dr-fleet"), undefined);
    assert.strictEqual(checkFleetStackName("acme/dr-fleet"), undefined);
    assert.match(checkFleetStackName("a/b/c/d") ?? "", /is not a stack name/);
    assert.match(checkFleetStackName("dr fleet") ?? "", /is not a stack name/);
    assert.match(checkFleetStackName("organization//dr-fleet") ?? "", /is not a stack name/);
    assert.match(checkFleetStackName("dr-us-central1", "dr-us-central1") ?? "", /is this region stack itself/);
    assert.strictEqual(
      checkFleetStackName("organization/other-project/dr-us-central1", "dr-us-central1"),
      undefined,
      "same stack name in another project is another stack",
    );
  });

  const cases: [string, (c: Record<string, unknown>) => void, string[], string[]?][] = [
    [
      "no fleet stack",
      (c) => {
        delete c.fleetStack;
      },
      [
        "iko-plus:fleetStack: (not set) is required; name the fleet stack whose Karmada this region joins, e.g. dr-fleet (`pulumi up` it first)",
      ],
    ],
    [
      "a malformed fleet stack name",
      (c) => {
        c.fleetStack = "organization/iko plus/dr-fleet";
      },
      [
        "iko-plus:fleetStack: \"organization/iko plus/dr-fleet\" is not a stack name; use <stack> or <org>/<project>/<stack>, each part letters, digits, '-', '_' or '.' (e.g. dr-fleet or organization/iko-plus/dr-fleet)",
      ],
    ],
    [
      "a fleet stack name with four parts",
      (c) => {
        c.fleetStack = "a/b/c/d";
      },
      [
        "iko-plus:fleetStack: \"a/b/c/d\" is not a stack name; use <stack> or <org>/<project>/<stack>, each part letters, digits, '-', '_' or '.' (e.g. dr-fleet or organization/iko-plus/dr-fleet)",
      ],
    ],
    [
      "the region stack as its own fleet",
      (c) => {
        c.fleetStack = "organization/iko-plus/dr-us-central1";
      },
      [
        'iko-plus:fleetStack: "organization/iko-plus/dr-us-central1" is this region stack itself; name the fleet stack that runs Karmada (pulumi up the fleet stack first)',
      ],
    ],
    [
      "a fleet stack that is not a string",
      (c) => {
        c.fleetStack = 7;
      },
      ["iko-plus:fleetStack: 7 must be a non-empty string"],
    ],
    [
      "no region",
      (c) => {
        delete c.region;
        c.zones = undefined;
      },
      [
        "iko-plus:region: (not set) is required; the region of this stack's member, e.g. us-central1 (placements select it)",
      ],
    ],
    [
      "a region that is not a name",
      (c) => {
        c.region = "US Central";
        c.zones = undefined;
      },
      ["iko-plus:region: \"US Central\" is not a region name; use lowercase letters, digits and '-', e.g. us-central1"],
    ],
    [
      "zones that are not a list",
      (c) => {
        c.zones = "us-central1-a";
      },
      ['iko-plus:zones: "us-central1-a" must be a non-empty list of zone names, e.g. [us-central1-a]'],
    ],
    [
      "a GKE zone outside the region",
      (c) => {
        c.zones = ["us-central1-a", "europe-west1-b"];
      },
      [
        'iko-plus:zones: "europe-west1-b" is not a zone of region us-central1; GKE zones are <region>-<letter>, e.g. us-central1-a',
      ],
    ],
    [
      "a GKE location outside the region",
      (c) => {
        (c.member as Record<string, unknown>).gke = { location: "europe-west1" };
      },
      [
        'iko-plus:member.gke.location: "europe-west1" is outside region us-central1; use the region itself (us-central1, a regional cluster) or one of its zones (us-central1-a)',
      ],
    ],
    [
      "no member",
      (c) => {
        delete c.member;
      },
      [
        "iko-plus:member: (not set) is required; describe this region's cluster, e.g. {name: iris-us-central1, source: gke}",
      ],
    ],
    [
      "gke settings on a kubeconfig member",
      (c) => {
        c.member = { name: "m", kubeconfigPath: "/nonexistent/kubeconfig", gke: { project: "p" } };
      },
      [
        'iko-plus:member.kubeconfigPath: "/nonexistent/kubeconfig" cannot be read (ENOENT); point it at an existing kubeconfig file',
        'iko-plus:member.gke: {"project":"p"} is set but member.source is "kubeconfig"; set source to "gke" or remove it',
      ],
    ],
    [
      "member labels that are not strings",
      (c) => {
        (c.member as Record<string, unknown>).labels = { dr: 1 };
      },
      ['iko-plus:member.labels: {"dr":1} must be a map of label names to string values, e.g. {region: us-central1}'],
    ],
    [
      "a member kubeconfig secret that is not set",
      (c) => {
        c.member = { name: "m", kubeconfigSecret: "memberKubeconfig" };
      },
      [
        'iko-plus:member.kubeconfigSecret: "memberKubeconfig" names config key iko-plus:memberKubeconfig, which is not set; set it with `pulumi config set --secret memberKubeconfig <kubeconfig>`',
      ],
    ],
    [
      "a member kubeconfig in plain config",
      (c) => {
        c.member = { name: "m", kubeconfigSecret: "memberKubeconfig" };
        c.memberKubeconfig = KUBECONFIG;
      },
      [
        'iko-plus:member.kubeconfigSecret: "memberKubeconfig" names config key iko-plus:memberKubeconfig, which is not a secret; set it again with `pulumi config set --secret memberKubeconfig ...`',
      ],
    ],
    [
      "GKE settings the GkeCluster component refuses (the fleet stack's messages)",
      (c) => {
        (c.member as Record<string, unknown>).gke = { project: "p", nodeCount: 0, machineType: "big" };
      },
      [
        "iko-plus:member.gke.nodeCount: 0 must be a whole number from 1 to 100",
        'iko-plus:member.gke.machineType: "big" is not a machine type; use one like e2-standard-4',
      ],
    ],
    [
      "a GKE location that is no GCP location",
      (c) => {
        (c.member as Record<string, unknown>).gke = { location: "us-central1-" };
      },
      [
        'iko-plus:member.gke.location: "us-central1-" is not a GCP region or zone; use a region (us-central1) or a zone (us-central1-a)',
      ],
    ],
    [
      "no CRD manifest",
      (c) => {
        c.iko = { chartPath: CHART };
      },
      [
        "iko-plus:iko.crdManifestPath: (not set) is required: Karmada places IrisClusters only on members that serve the CRD; point it at the CRD's YAML",
      ],
    ],
    [
      "an unknown key",
      (c) => {
        c.regoin = "us-east1";
      },
      [
        'iko-plus:regoin: "us-east1" is not a known key; use one of: program, fleetStack, region, zones, member, iko, registryMirror (or a secret key that member.kubeconfigSecret names)',
      ],
    ],
  ];
  for (const [what, change, expected, secretKeys] of cases) {
    it(`rejects ${what} with one line per problem, naming key, value and fix`, () => {
      const raw = region();
      change(raw);
      assert.deepStrictEqual(problemsOf(raw, secretKeys), expected);
    });
  }

  it("reports every problem at once", () => {
    const raw = { ...region(), fleetStack: "x y", region: "Nope", zones: undefined };
    assert.strictEqual(problemsOf(raw).length, 2);
  });
});

describe("fleet DR keys: regions in placements, failover, clusterFailover", () => {
  function drFleet(): Record<string, unknown> {
    return {
      program: "fleet",
      karmada: { mode: "existing", kubeconfigSecret: "karmadaKubeconfigText" },
      karmadaKubeconfigText: KUBECONFIG,
      iko: { chartPath: CHART, crdManifestPath: CRD },
      clusterFailover: { labels: { dr: "iris" } },
      federatedIrisClusters: [
        {
          name: "iris-dr",
          image: "containers.intersystems.com/intersystems/iris-community:2025.1",
          placement: {
            affinities: [
              { name: "primary", regions: ["us-central1"] },
              { name: "dr", regions: ["europe-west1"] },
            ],
            spreadConstraints: [{ spreadByField: "cluster", maxGroups: 1 }],
          },
          failover: { cluster: { purgeMode: "Gracefully" }, application: { tolerationSeconds: 120 } },
        },
      ],
    };
  }
  const SECRET = ["iko-plus:karmadaKubeconfigText"];

  it("accepts a memberless fleet on an existing Karmada with ordered region affinities and failover", () => {
    const cfg = validateConfig(drFleet(), SECRET);
    if (cfg.program !== "fleet") throw new Error("fleet");
    assert.deepStrictEqual(cfg.clusters, []);
    const f = cfg.federatedIrisClusters[0];
    assert.deepStrictEqual(f.placement.affinities, [
      { name: "primary", clusterNames: undefined, labels: undefined, regions: ["us-central1"] },
      { name: "dr", clusterNames: undefined, labels: undefined, regions: ["europe-west1"] },
    ]);
    assert.deepStrictEqual(f.failover, {
      cluster: { purgeMode: "Gracefully" },
      application: { purgeMode: "Gracefully", tolerationSeconds: 120 },
    });
    assert.deepStrictEqual(cfg.clusterFailover, { target: { clusterNames: undefined, labels: { dr: "iris" } } });
  });

  it("still requires clusters when Karmada is installed by Helm", () => {
    const raw = { ...drFleet(), karmada: { mode: "helm", host: "h", endpoint: "https://127.0.0.1:32443" } };
    assert.ok(
      problemsOf(raw, SECRET).includes(
        "iko-plus:clusters: (not set) must be a non-empty list of clusters, e.g. [{name: ikofett}, {name: ikoclone, join: true}]",
      ),
    );
  });

  const fleetCases: [string, (c: Record<string, unknown>) => void, string[]][] = [
    [
      "cluster failover with Karmada installed by the chart",
      (c) => {
        c.clusters = [{ name: "h", cilium: { clusterId: 1 } }];
        c.karmada = { mode: "helm", host: "h", endpoint: "https://127.0.0.1:32443" };
        delete c.karmadaKubeconfigText;
        c.clusterFailover = true;
      },
      [
        "iko-plus:clusterFailover: true needs karmada-webhook --allow-no-execute-taint-policy=true, which the Karmada chart cannot set; use karmada.mode existing with a Karmada that runs it (docs/dr.md), or remove it and taint a failed member by hand (karmadactl taint clusters <name> cluster.karmada.io/not-ready:NoExecute)",
      ],
    ],
    [
      "regions that are not a list",
      (c) => {
        ((c.federatedIrisClusters as Record<string, unknown>[])[0].placement as Record<string, unknown>).affinities = [
          { name: "primary", regions: "us-central1" },
        ];
      },
      [
        'iko-plus:federatedIrisClusters[0].placement.affinities[0].regions: "us-central1" must be a list of names, e.g. ["ikoclone"]',
      ],
    ],
    [
      "an empty failover",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].failover = {};
      },
      [
        "iko-plus:federatedIrisClusters[0].failover: {} sets no failover; give application: {tolerationSeconds, purgeMode} and/or cluster: {purgeMode}, or remove it",
      ],
    ],
    [
      "an unknown purge mode",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].failover = {
          application: { purgeMode: "Immediately" },
        };
      },
      [
        'iko-plus:federatedIrisClusters[0].failover.application.purgeMode: "Immediately" is not allowed; use one of: Directly, Gracefully, Never',
      ],
    ],
    [
      "a cluster purge mode Never",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].failover = { cluster: { purgeMode: "Never" } };
      },
      [
        'iko-plus:federatedIrisClusters[0].failover.cluster.purgeMode: "Never" is not allowed; use one of: Directly, Gracefully',
      ],
    ],
    [
      "a grace period without Gracefully",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].failover = {
          application: { purgeMode: "Directly", gracePeriodSeconds: 60 },
        };
      },
      [
        "iko-plus:federatedIrisClusters[0].failover.application.gracePeriodSeconds: 60 only applies with purgeMode Gracefully (it is Directly); remove it or set purgeMode: Gracefully",
      ],
    ],
    [
      "a negative toleration",
      (c) => {
        (c.federatedIrisClusters as Record<string, unknown>[])[0].failover = { application: { tolerationSeconds: -1 } };
      },
      [
        "iko-plus:federatedIrisClusters[0].failover.application.tolerationSeconds: -1 must be a whole number from 0 to 86400 (seconds an IrisCluster may stay unhealthy before it moves)",
      ],
    ],
    [
      "a clusterFailover that selects nothing",
      (c) => {
        c.clusterFailover = {};
      },
      [
        "iko-plus:clusterFailover: {} selects no Cluster; set true (every Cluster) or clusterNames, labels, matchExpressions or regions",
      ],
    ],
    [
      "a clusterFailover with an unknown key",
      (c) => {
        c.clusterFailover = { region: "us-central1" };
      },
      [
        'iko-plus:clusterFailover.region: "us-central1" is not a known key; use one of: clusterNames, labels, matchExpressions, regions',
        'iko-plus:clusterFailover: {"region":"us-central1"} selects no Cluster; set true (every Cluster) or clusterNames, labels, matchExpressions or regions',
      ],
    ],
  ];
  for (const [what, change, expected] of fleetCases) {
    it(`rejects ${what}`, () => {
      const raw = drFleet();
      change(raw);
      assert.deepStrictEqual(problemsOf(raw, SECRET), expected);
    });
  }
});

describe("DR example stack files pass config validation (what pulumi preview runs first)", () => {
  // The IKO chart and CRD are not public; the examples point at ./vendor/iko, the test at the fixtures.
  const iko = { "iko-plus:iko": { chartPath: CHART, crdManifestPath: CRD } };

  for (const [file, stack, regionName, fleetStack] of [
    ["Pulumi.dr-us-central1.yaml", "dr-us-central1", "us-central1", "dr-fleet"],
    ["Pulumi.dr-europe-west1.yaml", "dr-europe-west1", "europe-west1", "dr-fleet"],
  ]) {
    it(`${file}: a GKE member in ${regionName}, joined to ${fleetStack}`, () => {
      const { raw, secretKeys } = stackFile(file, iko);
      const cfg = validateConfig(raw, secretKeys, stack);
      if (cfg.program !== "region") throw new Error(`program ${cfg.program}`);
      assert.deepStrictEqual(
        [cfg.fleetStack, cfg.region, cfg.member.source, cfg.member.gke?.location, cfg.member.provider],
        [fleetStack, regionName, "gke", regionName, "gke"],
      );
      assert.ok((cfg.zones ?? []).every((z) => z.startsWith(`${regionName}-`)));
    });
  }

  it("Pulumi.dr-fleet.yaml: memberless fleet, us-central1 first and europe-west1 second, cluster failover on", () => {
    const { raw } = stackFile("Pulumi.dr-fleet.yaml", {
      ...iko,
      "iko-plus:karmadaKubeconfig": { secure: "v1:placeholder" },
    });
    raw.karmadaKubeconfig = KUBECONFIG; // the secret value the passphrase would decrypt
    const cfg = validateConfig(raw, ["iko-plus:karmadaKubeconfig"], "dr-fleet");
    if (cfg.program !== "fleet") throw new Error("fleet");
    assert.deepStrictEqual(
      cfg.federatedIrisClusters[0].placement.affinities?.map((a) => [a.name, a.regions]),
      [
        ["primary", ["us-central1"]],
        ["dr", ["europe-west1"]],
      ],
    );
    assert.ok(cfg.clusterFailover);
  });
});
