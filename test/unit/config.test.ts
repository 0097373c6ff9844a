import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ConfigError, rawProjectConfig, validateWfhConfig } from "../../stacks";
import { problemsOf } from "./config-problems";
import { fakeKubeconfig } from "./mocks";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");

function base(): Record<string, unknown> {
  return {
    program: "wfh",
    home: { name: "ikohome" },
    work: { name: "ikowork" },
    iko: { chartPath: CHART, crdManifestPath: CRD },
    irisClusters: [
      {
        name: "iris-a",
        image: "containers.intersystems.com/intersystems/iris-community:2025.1",
        serviceType: "LoadBalancer",
      },
    ],
  };
}

describe("wfh config", () => {
  let tmp: string;
  let kubeconfigFile: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "iko-config-"));
    kubeconfigFile = path.join(tmp, "ikowork.kubeconfig");
    fs.writeFileSync(kubeconfigFile, fakeKubeconfig("ikowork", "https://127.0.0.1:6443"));
    fs.writeFileSync(
      path.join(tmp, "no-context.kubeconfig"),
      fakeKubeconfig("ikowork", "https://127.0.0.1:6443").replace(/current-context: .*\n/, ""),
    );
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("accepts the recipe's config and fills in every default", () => {
    const cfg = validateWfhConfig(base());
    assert.deepStrictEqual(cfg.home, {
      key: "home",
      name: "ikohome",
      source: "kind",
      kubeconfigPath: undefined,
      kubeconfigSecretKey: undefined,
      protect: false,
      kind: {
        workers: 1,
        nodeImage: undefined,
        kubeProxyMode: "iptables",
        podSubnet: undefined,
        serviceSubnet: undefined,
      },
      cilium: {
        enabled: true,
        clusterId: 1,
        version: undefined,
        chartPath: undefined,
        moduleImages: false,
        dropCapabilities: [],
      },
    });
    assert.strictEqual(cfg.work.cilium.clusterId, 2);
    assert.deepStrictEqual(
      { ...cfg.iko, chartPath: "", crdManifestPath: "" },
      {
        chartPath: "",
        chartRepo: undefined,
        chartVersion: undefined,
        releaseName: "iko",
        namespace: "iko",
        image: undefined,
        imagePullSecrets: [],
        values: undefined,
        credentials: "serviceAccount",
        credentialGeneration: 1,
        secretName: "work-kubeconfig",
        secretKey: "config",
        kubeconfigPath: "/airgap/.kube/config",
        crdManifestPath: "",
        crdFrom: "manifest",
      },
    );
    assert.deepStrictEqual(cfg.irisClusters, [
      {
        name: "iris-a",
        namespace: "default",
        image: "containers.intersystems.com/intersystems/iris-community:2025.1",
        serviceType: "LoadBalancer",
        licenseKeySecret: undefined,
        mirrored: undefined,
        spec: undefined,
        waitReady: true,
        readyTimeoutSeconds: 600,
      },
    ]);
  });

  it("irisClusters[].waitReady and readyTimeoutSeconds: read, defaulted, and checked with one message each", () => {
    const ic = { name: "iris-a", image: "containers.intersystems.com/intersystems/iris-community:2025.1" };
    const read = (extra: Record<string, unknown>) =>
      validateWfhConfig({ ...base(), irisClusters: [{ ...ic, ...extra }] });
    assert.deepStrictEqual(
      [
        read({ waitReady: false, readyTimeoutSeconds: 30 }).irisClusters[0].waitReady,
        read({ readyTimeoutSeconds: 30 }).irisClusters[0].readyTimeoutSeconds,
      ],
      [false, 30],
    );
    assert.throws(
      () => read({ waitReady: "yes", readyTimeoutSeconds: 5 }),
      (e: Error) =>
        e.message.includes('iko-plus:irisClusters[0].waitReady: "yes"') &&
        e.message.includes("iko-plus:irisClusters[0].readyTimeoutSeconds: 5"),
    );
  });

  it("accepts existing clusters by file or secret and turns Cilium off for them", () => {
    const cfg = validateWfhConfig({
      ...base(),
      home: { name: "ikohome", kubeconfigPath: kubeconfigFile },
      workKubeconfig: fakeKubeconfig("w", "https://127.0.0.1:7443"),
    });
    assert.strictEqual(cfg.home.source, "kubeconfig");
    assert.strictEqual(cfg.home.cilium.enabled, false);
    assert.strictEqual(cfg.work.kubeconfigSecretKey, "workKubeconfig");
  });

  it("protect: reads work.protect (the cluster and its join are protected), false when unset", () => {
    const cfg = validateWfhConfig({ ...base(), work: { ...(base().work as object), protect: true } });
    assert.strictEqual(cfg.work.protect, true);
    assert.strictEqual(cfg.home.protect, false);
  });

  // Each case: a change to the base config and the exact problem it must produce.
  const cases: [string, (c: Record<string, unknown>, tmp: string) => void, string][] = [
    [
      "unknown program",
      (c) => {
        c.program = "fleeet";
      },
      'iko-plus:program: "fleeet" is not allowed; use one of: wfh, fleet, region',
    ],
    [
      "unknown top-level key",
      (c) => {
        c.hom = {};
      },
      "iko-plus:hom: {} is not a known key; use one of: program, home, work, iko, irisClusters, homeKubeconfig, workKubeconfig, registryMirror, mesh",
    ],
    [
      "cluster name with capitals",
      (c) => {
        c.home = { name: "IkoHome" };
      },
      "iko-plus:home.name: \"IkoHome\" is not a DNS-1123 label; use lowercase letters, digits and '-', starting and ending with a letter or digit",
    ],
    [
      "cluster name too long for Cilium",
      (c) => {
        c.work = { name: "w".repeat(40) };
      },
      `iko-plus:work.name: "${"w".repeat(40)}" is 40 characters; Cilium ClusterMesh allows at most 32, so shorten it`,
    ],
    [
      "duplicate cluster names",
      (c) => {
        c.work = { name: "ikohome" };
      },
      'iko-plus:work.name: "ikohome" is also the name of home; give every cluster its own name',
    ],
    [
      "duplicate Cilium ids",
      (c) => {
        c.work = { name: "ikowork", cilium: { clusterId: 1 } };
      },
      "iko-plus:work.cilium.clusterId: 1 is also home's Cilium cluster id; give every cluster its own id from 1 to 255",
    ],
    [
      "Cilium id out of range",
      (c) => {
        c.home = { cilium: { clusterId: 256 } };
      },
      "iko-plus:home.cilium.clusterId: 256 must be a whole number from 1 to 255, unique per cluster (Cilium ClusterMesh)",
    ],
    [
      "Cilium capability the agent does not have",
      (c) => {
        c.home = { cilium: { dropCapabilities: ["CAP_SYS_RESOURCE"] } };
      },
      'iko-plus:home.cilium.dropCapabilities: ["CAP_SYS_RESOURCE"] "CAP_SYS_RESOURCE" is not one of the agent\'s capabilities (CHOWN, KILL, NET_ADMIN, NET_RAW, IPC_LOCK, SYS_MODULE, SYS_ADMIN, SYS_RESOURCE, DAC_OVERRIDE, FOWNER, SETGID, SETUID)',
    ],
    [
      "Cilium capabilities not a list",
      (c) => {
        c.home = { cilium: { dropCapabilities: "SYS_RESOURCE" } };
      },
      'iko-plus:home.cilium.dropCapabilities: "SYS_RESOURCE" must be a list of capability names, e.g. ["SYS_RESOURCE"]',
    ],
    [
      "unknown cluster source",
      (c) => {
        c.home = { source: "eks" };
      },
      'iko-plus:home.source: "eks" is not allowed; use one of: kind, kubeconfig',
    ],
    [
      "kubeconfig source without a kubeconfig",
      (c) => {
        c.home = { source: "kubeconfig" };
      },
      'iko-plus:home.source: "kubeconfig" needs a kubeconfig; set home.kubeconfigPath or `pulumi config set --secret homeKubeconfig "$(cat <file>)"`',
    ],
    [
      "missing kubeconfig file",
      (c, t) => {
        c.work = { kubeconfigPath: path.join(t, "missing") };
      },
      "cannot be read (ENOENT); point it at an existing kubeconfig file",
    ],
    [
      "kubeconfig without current-context",
      (c, t) => {
        c.work = { kubeconfigPath: path.join(t, "no-context.kubeconfig") };
      },
      "is not a usable kubeconfig: has no current-context; set one with `kubectl config use-context <name> --kubeconfig <file>`",
    ],
    [
      "secret kubeconfig that is not YAML (value hidden)",
      (c) => {
        c.homeKubeconfig = "token: [oops";
      },
      "iko-plus:homeKubeconfig: [secret] is not a usable kubeconfig: is not valid YAML; pass a kubeconfig as written by kind or kubectl",
    ],
    [
      "negative workers",
      (c) => {
        c.home = { workers: -1 };
      },
      "iko-plus:home.workers: -1 must be a whole number from 0 to 20",
    ],
    [
      "untagged node image",
      (c) => {
        c.home = { nodeImage: "kindest/node" };
      },
      'iko-plus:home.nodeImage: "kindest/node" has no tag; pin a version, e.g. ":2025.1" (an untagged image means latest)',
    ],
    [
      "unknown kube-proxy mode",
      (c) => {
        c.home = { kubeProxyMode: "userspace" };
      },
      'iko-plus:home.kubeProxyMode: "userspace" is not allowed; use one of: iptables, ipvs, nftables, none',
    ],
    [
      "malformed pod subnet",
      (c) => {
        c.home = { podSubnet: "10.244.0.0" };
      },
      'iko-plus:home.podSubnet: "10.244.0.0" is not an IPv4 CIDR; use a.b.c.d/n, e.g. 10.244.0.0/16',
    ],
    [
      "overlapping pod subnets",
      (c) => {
        c.home = { podSubnet: "10.244.0.0/16" };
        c.work = { podSubnet: "10.244.128.0/17" };
      },
      'iko-plus:work.podSubnet: "10.244.128.0/17" overlaps home.podSubnet "10.244.0.0/16"; ClusterMesh needs pod subnets apart, e.g. 10.244.0.0/16 and 10.245.0.0/16',
    ],
    [
      "missing IKO chart",
      (c) => {
        c.iko = { crdManifestPath: CRD };
      },
      "iko-plus:iko.chartPath: (not set) is required; set it to the IKO chart folder of the InterSystems download (chart/iris-operator), or give a chart repository and version (iko.chartRepo, iko.chartVersion)",
    ],
    [
      "IKO chart path that does not exist",
      (c) => {
        c.iko = { chartPath: "./nope", crdManifestPath: CRD };
      },
      'iko-plus:iko.chartPath: "./nope" does not exist; point it at the IKO chart folder (chart/iris-operator of the InterSystems download)',
    ],
    [
      "an empty IKO chart path (unit)",
      (c) => {
        c.iko = { chartPath: "", crdManifestPath: CRD };
      },
      'iko-plus:iko.chartPath: "" is empty; set it to the IKO chart folder of the InterSystems download (chart/iris-operator), or give a chart repository and version instead (iko.chartRepo, iko.chartVersion)',
    ],
    [
      "an empty IKO chart repo (unit)",
      (c) => {
        c.iko = { chartRepo: "", crdManifestPath: CRD };
      },
      'iko-plus:iko.chartRepo: "" must be a non-empty string',
    ],
    [
      "an empty chart version with a chart repo (unit)",
      (c) => {
        c.iko = { chartRepo: "oci://r/iko", chartVersion: "", crdManifestPath: CRD };
      },
      'iko-plus:iko.chartVersion: "" must be a non-empty string',
    ],
    [
      "an empty CRD manifest path for a remote operator (unit)",
      (c) => {
        c.iko = { chartPath: CHART, crdManifestPath: "" };
      },
      'iko-plus:iko.crdManifestPath: "" must be a non-empty string',
    ],
    [
      "chart repo without version",
      (c) => {
        c.iko = { chartRepo: "oci://r/iko", crdManifestPath: CRD };
      },
      "iko-plus:iko.chartVersion: (not set) is required with a chart repository; pin the chart version, e.g. 3.8.42",
    ],
    [
      "webhooks on for a remote operator",
      (c) => {
        c.iko = { chartPath: CHART, crdManifestPath: CRD, values: { apiserver: { enableValidatingWebhook: true } } };
      },
      "iko-plus:iko.values.apiserver.enableValidatingWebhook: true turns a webhook on, but a remote operator must run with both webhooks off (they would sit on the home cluster); remove it",
    ],
    [
      "operator image tagged latest",
      (c) => {
        c.iko = {
          chartPath: CHART,
          crdManifestPath: CRD,
          image: "containers.intersystems.com/intersystems/iris-operator-amd:latest",
        };
      },
      'iko-plus:iko.image: "containers.intersystems.com/intersystems/iris-operator-amd:latest" uses the tag "latest"; pin a version, e.g. ":2025.1"',
    ],
    [
      "unknown credentials mode",
      (c) => {
        c.iko = { chartPath: CHART, crdManifestPath: CRD, credentials: "root" };
      },
      'iko-plus:iko.credentials: "root" is not allowed; use one of: serviceAccount, admin',
    ],
    [
      "credential generation zero",
      (c) => {
        c.iko = { chartPath: CHART, crdManifestPath: CRD, credentialGeneration: 0 };
      },
      "iko-plus:iko.credentialGeneration: 0 must be a whole number from 1 to 1000000; raise it by one to rotate the operator's credential",
    ],
    [
      "relative operator kubeconfig path",
      (c) => {
        c.iko = { chartPath: CHART, crdManifestPath: CRD, kubeconfigPath: "airgap/config" };
      },
      'iko-plus:iko.kubeconfigPath: "airgap/config" must be an absolute file path below a folder, without quotes or spaces, e.g. /airgap/.kube/config',
    ],
    [
      "bad Secret name",
      (c) => {
        c.iko = { chartPath: CHART, crdManifestPath: CRD, secretName: "Work_Kubeconfig" };
      },
      "iko-plus:iko.secretName: \"Work_Kubeconfig\" is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit",
    ],
    [
      "bad Secret key",
      (c) => {
        c.iko = { chartPath: CHART, crdManifestPath: CRD, secretKey: "my config" };
      },
      "iko-plus:iko.secretKey: \"my config\" is not a valid Secret key; use letters, digits, '-', '_' and '.', e.g. \"config\"",
    ],
    [
      "remote operator without a CRD source",
      (c) => {
        c.iko = { chartPath: CHART };
      },
      "iko-plus:iko.crdManifestPath: (not set) is required for a remote operator; export the CRD with `kubectl get crd irisclusters.intersystems.com -o yaml > ikocrds.yaml`, or copy it from a cluster that has it (iko.crdFrom: home)",
    ],
    [
      "IrisCluster without an image",
      (c) => {
        c.irisClusters = [{ name: "iris-b" }];
      },
      "iko-plus:irisClusters[0].image: (not set) is required; e.g. containers.intersystems.com/intersystems/iris-community:2025.1",
    ],
    [
      "IrisCluster with a bad name",
      (c) => {
        c.irisClusters = [{ name: "Iris_B", image: "containers.intersystems.com/intersystems/iris-community:2025.1" }];
      },
      "iko-plus:irisClusters[0].name: \"Iris_B\" is not a DNS-1123 label; use lowercase letters, digits and '-', starting and ending with a letter or digit",
    ],
    [
      "duplicate IrisClusters",
      (c) => {
        const ic = { name: "iris-a", image: "containers.intersystems.com/intersystems/iris-community:2025.1" };
        c.irisClusters = [ic, ic];
      },
      'iko-plus:irisClusters[1].name: "iris-a" is used twice in namespace default; give each IrisCluster its own name',
    ],
    [
      "licensed IRIS image without a license key",
      (c) => {
        c.irisClusters = [{ name: "iris-b", image: "containers.intersystems.com/intersystems/iris:2025.1" }];
      },
      'iko-plus:irisClusters[0].licenseKeySecret: (not set) is required for the licensed image "containers.intersystems.com/intersystems/iris:2025.1"; name the Secret holding iris.key, or use an iris-community image',
    ],
    [
      "unknown service type",
      (c) => {
        c.irisClusters = [
          {
            name: "iris-b",
            image: "containers.intersystems.com/intersystems/iris-community:2025.1",
            serviceType: "Ingress",
          },
        ];
      },
      'iko-plus:irisClusters[0].serviceType: "Ingress" is not allowed; use one of: ClusterIP, NodePort, LoadBalancer',
    ],
    [
      "protect that is not a boolean",
      (c) => {
        c.work = { ...(c.work as object), protect: "yes" };
      },
      'iko-plus:work.protect: "yes" must be true or false',
    ],
    [
      "misspelled cluster key",
      (c) => {
        c.home = { wokers: 2 };
      },
      "iko-plus:home.wokers: 2 is not a known key; use one of: name, source, kubeconfigPath, protect, workers, nodeImage, kubeProxyMode, podSubnet, serviceSubnet, cilium",
    ],
  ];

  for (const [title, mutate, expected] of cases) {
    it(`rejects ${title} with one message naming key, value and fix`, () => {
      const raw = base();
      mutate(raw, tmp);
      const problems = problemsOf(raw);
      assert.strictEqual(problems.length, 1, `expected one problem, got: ${problems.join(" | ")}`);
      assert.ok(
        problems[0].endsWith(expected) || problems[0] === expected,
        `\n got: ${problems[0]}\nwant: ${expected}`,
      );
      assert.ok(problems[0].startsWith("iko-plus:"));
    });
  }

  it("covers at least 15 distinct invalid configs", () => assert.ok(cases.length >= 15, `${cases.length}`));

  it("reports every problem at once and never shows a secret kubeconfig", () => {
    const secret = fakeKubeconfig("w", "https://127.0.0.1:1").replace(/current-context: .*\n/, "");
    const raw = { ...base(), program: "x", workKubeconfig: secret };
    try {
      validateWfhConfig(raw);
      assert.fail("expected a ConfigError");
    } catch (e) {
      const err = e as ConfigError;
      assert.strictEqual(err.problems.length, 2);
      assert.match(err.message, /^invalid configuration \(2 problems\):\n {2}- iko-plus:program/);
      assert.ok(!err.message.includes("RkFLRS1LRVk="), "the key must not appear");
      assert.ok(err.message.includes("iko-plus:workKubeconfig: [secret] is not a usable kubeconfig"));
    }
  });

  it("reads raw config from the runtime's flat key map", () => {
    assert.deepStrictEqual(
      rawProjectConfig({
        "iko-plus:home": '{"name":"a"}',
        "iko-plus:program": "wfh",
        "iko-plus:workKubeconfig": '{"not":"parsed"}',
        "pulumi:disable-default-providers": '["*"]',
      }),
      { home: { name: "a" }, program: "wfh", workKubeconfig: '{"not":"parsed"}' },
    );
  });
});
