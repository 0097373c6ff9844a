/**
 * Each component checks its own args (check…Args beside its args type); the constructor throws one
 * error naming every problem before it declares anything, and the stack config reports the very
 * same problem text under its own key. One table of cases drives both sides.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Registered, fakeKubeconfig, installMocks, settle } from "./mocks";

const registered: Registered[] = installMocks();
// Components are imported after the mocks are installed.
import { CiliumCni, checkCiliumCniArgs } from "../../components/cilium";
import { GkeCluster } from "../../components/gcp";
import { IkoHomeOperator, checkIkoHomeOperatorArgs } from "../../components/iko";
import { KarmadaControlPlane, KarmadaMember, checkKarmadaMemberArgs } from "../../components/karmada";
import { KindCluster, checkKindClusterArgs } from "../../components/kind";
import { ConfigError, validateConfig } from "../../stacks";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const since = (n: number) => registered.slice(n);
const shown = (v: unknown) => (v === undefined ? "(not set)" : JSON.stringify(v));
const tick = () => new Promise((r) => setTimeout(r, 50));

type Raw = Record<string, unknown>;
const wfh = (): Raw => ({
  program: "wfh",
  home: { name: "ikohome" },
  work: { name: "ikowork" },
  iko: { chartPath: CHART, crdManifestPath: CRD },
});
const fleet = (): Raw => ({
  program: "fleet",
  clusters: [
    { name: "ikofett", cilium: { clusterId: 1 }, extraPortMappings: [{ containerPort: 32443, hostPort: 32443 }] },
    { name: "ikoclone", cilium: { clusterId: 2 }, join: { provider: "kind" } },
  ],
  karmada: { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443" },
  iko: { chartPath: CHART, crdManifestPath: CRD },
});

function configProblems(raw: Raw): string[] {
  try {
    validateConfig(raw, []);
    return [];
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return e.problems;
  }
}

const DNS =
  "is not a DNS-1123 label; use lowercase letters, digits and '-', starting and ending with a letter or digit";
const LONG = "c".repeat(40);

interface Case {
  title: string;
  /** The component, its resource name, and how to construct it with the bad value. */
  component: "KindCluster" | "CiliumCni" | "KarmadaMember" | "IkoHomeOperator" | "KarmadaControlPlane" | "GkeCluster";
  resource: string;
  construct: () => unknown;
  field: string;
  value: unknown;
  problem: string;
  /** The same bad value in a stack config, and the config key it is reported under. */
  config: () => Raw;
  key: string;
}

let host: KindCluster;
let karmada: KarmadaControlPlane;

const CASES: Case[] = [
  {
    title: "a kind name with capitals",
    component: "KindCluster",
    resource: "Bad_Name",
    construct: () => new KindCluster("Bad_Name", {}),
    field: "clusterName",
    value: "Bad_Name",
    problem: DNS,
    config: () => ({ ...wfh(), home: { name: "Bad_Name" } }),
    key: "home.name",
  },
  {
    title: "a kind name too long for Cilium",
    component: "KindCluster",
    resource: "longname",
    construct: () => new KindCluster("longname", { clusterName: LONG }),
    field: "clusterName",
    value: LONG,
    problem: "is 40 characters; Cilium ClusterMesh allows at most 32, so shorten it",
    config: () => ({ ...wfh(), home: { name: LONG } }),
    key: "home.name",
  },
  {
    title: "50 workers",
    component: "KindCluster",
    resource: "workers",
    construct: () => new KindCluster("workers", { workers: 50 }),
    field: "workers",
    value: 50,
    problem: "must be a whole number from 0 to 20",
    config: () => ({ ...wfh(), home: { name: "ikohome", workers: 50 } }),
    key: "home.workers",
  },
  {
    title: "a pod subnet that is no CIDR",
    component: "KindCluster",
    resource: "podnet",
    construct: () => new KindCluster("podnet", { podSubnet: "10.244.0.0/33" }),
    field: "podSubnet",
    value: "10.244.0.0/33",
    problem: "is not an IPv4 CIDR; use a.b.c.d/n, e.g. 10.244.0.0/16",
    config: () => ({ ...wfh(), home: { name: "ikohome", podSubnet: "10.244.0.0/33" } }),
    key: "home.podSubnet",
  },
  {
    title: "a service subnet without a prefix",
    component: "KindCluster",
    resource: "svcnet",
    construct: () => new KindCluster("svcnet", { serviceSubnet: "10.96.0.0" }),
    field: "serviceSubnet",
    value: "10.96.0.0",
    problem: "is not an IPv4 CIDR; use a.b.c.d/n, e.g. 10.244.0.0/16",
    config: () => ({ ...wfh(), work: { name: "ikowork", serviceSubnet: "10.96.0.0" } }),
    key: "work.serviceSubnet",
  },
  {
    title: "a node image tagged latest",
    component: "KindCluster",
    resource: "latest",
    construct: () => new KindCluster("latest", { nodeImage: "kindest/node:latest" }),
    field: "nodeImage",
    value: "kindest/node:latest",
    problem: 'uses the tag "latest"; pin a version, e.g. ":2025.1"',
    config: () => ({ ...wfh(), home: { name: "ikohome", nodeImage: "kindest/node:latest" } }),
    key: "home.nodeImage",
  },
  {
    title: "Cilium cluster id 0",
    component: "CiliumCni",
    resource: "cni0",
    construct: () => new CiliumCni("cni0", { cluster: host, clusterId: 0 }),
    field: "clusterId",
    value: 0,
    problem: "must be a whole number from 1 to 255, unique per cluster (Cilium ClusterMesh)",
    config: () => ({ ...wfh(), home: { name: "ikohome", cilium: { clusterId: 0 } } }),
    key: "home.cilium.clusterId",
  },
  {
    title: "Cilium cluster id 256",
    component: "CiliumCni",
    resource: "cni256",
    construct: () => new CiliumCni("cni256", { cluster: host, clusterId: 256 }),
    field: "clusterId",
    value: 256,
    problem: "must be a whole number from 1 to 255, unique per cluster (Cilium ClusterMesh)",
    config: () => ({ ...wfh(), work: { name: "ikowork", cilium: { clusterId: 256 } } }),
    key: "work.cilium.clusterId",
  },
  {
    title: "a Cilium cluster name with capitals",
    component: "CiliumCni",
    resource: "cniname",
    construct: () => new CiliumCni("cniname", { cluster: host, clusterId: 3, clusterName: "Bad_Name" }),
    field: "clusterName",
    value: "Bad_Name",
    problem: DNS,
    config: () => ({ ...wfh(), work: { name: "Bad_Name" } }),
    key: "work.name",
  },
  {
    title: "a Cilium cluster name too long",
    component: "CiliumCni",
    resource: "cnilong",
    construct: () => new CiliumCni("cnilong", { cluster: host, clusterId: 3, clusterName: LONG }),
    field: "clusterName",
    value: LONG,
    problem: "is 40 characters; Cilium ClusterMesh allows at most 32, so shorten it",
    config: () => ({ ...wfh(), work: { name: LONG } }),
    key: "work.name",
  },
  {
    title: "a Karmada member name with capitals",
    component: "KarmadaMember",
    resource: "member",
    construct: () => new KarmadaMember("member", { karmada, member: host, clusterName: "Bad_Name" }),
    field: "clusterName",
    value: "Bad_Name",
    problem: DNS,
    config: () => {
      const c = fleet();
      (c.clusters as Raw[])[1].name = "Bad_Name";
      return c;
    },
    key: "clusters[1].name",
  },
  {
    title: "a release name with capitals",
    component: "IkoHomeOperator",
    resource: "ikorel",
    construct: () => new IkoHomeOperator("ikorel", { home: host, chart: { path: CHART }, releaseName: "IKO" }),
    field: "releaseName",
    value: "IKO",
    problem: DNS,
    config: () => ({ ...wfh(), iko: { chartPath: CHART, crdManifestPath: CRD, releaseName: "IKO" } }),
    key: "iko.releaseName",
  },
  {
    title: "a namespace with a dot",
    component: "IkoHomeOperator",
    resource: "ikons",
    construct: () => new IkoHomeOperator("ikons", { home: host, chart: { path: CHART }, namespace: "iko.system" }),
    field: "namespace",
    value: "iko.system",
    problem: DNS,
    config: () => ({ ...wfh(), iko: { chartPath: CHART, crdManifestPath: CRD, namespace: "iko.system" } }),
    key: "iko.namespace",
  },
  {
    title: "a chart folder that does not exist",
    component: "IkoHomeOperator",
    resource: "ikochart",
    construct: () => new IkoHomeOperator("ikochart", { home: host, chart: { path: "./no-such-chart" } }),
    field: "chart.path",
    value: "./no-such-chart",
    problem: "does not exist; point it at the IKO chart folder (chart/iris-operator of the InterSystems download)",
    config: () => ({ ...wfh(), iko: { chartPath: "./no-such-chart", crdManifestPath: CRD } }),
    key: "iko.chartPath",
  },
  {
    title: "a chart repository without a version",
    component: "IkoHomeOperator",
    resource: "ikorepo",
    construct: () => new IkoHomeOperator("ikorepo", { home: host, chart: { repo: "oci://r.example/iko" } }),
    field: "chart.version",
    value: undefined,
    problem: "is required with a chart repository; pin the chart version, e.g. 3.8.42",
    config: () => ({ ...wfh(), iko: { chartRepo: "oci://r.example/iko", crdManifestPath: CRD } }),
    key: "iko.chartVersion",
  },
  {
    title: "a Secret key with a space",
    component: "IkoHomeOperator",
    resource: "ikokey",
    construct: () =>
      new IkoHomeOperator("ikokey", {
        home: host,
        chart: { path: CHART },
        remote: { target: host, crdManifestPath: CRD, secretKey: "my config" },
      }),
    field: "remote.secretKey",
    value: "my config",
    problem: "is not a valid Secret key; use letters, digits, '-', '_' and '.', e.g. \"config\"",
    config: () => ({ ...wfh(), iko: { chartPath: CHART, crdManifestPath: CRD, secretKey: "my config" } }),
    key: "iko.secretKey",
  },
  {
    title: "a relative kubeconfig mount path",
    component: "IkoHomeOperator",
    resource: "ikopath",
    construct: () =>
      new IkoHomeOperator("ikopath", {
        home: host,
        chart: { path: CHART },
        remote: { target: host, crdManifestPath: CRD, kubeconfigPath: "airgap/config" },
      }),
    field: "remote.kubeconfigPath",
    value: "airgap/config",
    problem: "must be an absolute file path below a folder, without quotes or spaces, e.g. /airgap/.kube/config",
    config: () => ({ ...wfh(), iko: { chartPath: CHART, crdManifestPath: CRD, kubeconfigPath: "airgap/config" } }),
    key: "iko.kubeconfigPath",
  },
  {
    title: "a webhook turned on for a remote operator",
    component: "IkoHomeOperator",
    resource: "ikohook",
    construct: () =>
      new IkoHomeOperator("ikohook", {
        home: host,
        chart: { path: CHART },
        values: { apiserver: { enableMutatingWebhook: true } },
        remote: { target: host, crdManifestPath: CRD },
      }),
    field: "values.apiserver.enableMutatingWebhook",
    value: true,
    problem:
      "turns a webhook on, but a remote operator must run with both webhooks off (they would sit on the home cluster); remove it",
    config: () => ({
      ...wfh(),
      iko: { chartPath: CHART, crdManifestPath: CRD, values: { apiserver: { enableMutatingWebhook: true } } },
    }),
    key: "iko.values.apiserver.enableMutatingWebhook",
  },
  {
    title: "a CRD manifest that does not exist",
    component: "IkoHomeOperator",
    resource: "ikocrd",
    construct: () =>
      new IkoHomeOperator("ikocrd", {
        home: host,
        chart: { path: CHART },
        remote: { target: host, crdManifestPath: "./no-crd.yaml" },
      }),
    field: "remote.crdManifestPath",
    value: "./no-crd.yaml",
    problem: "does not exist; point it at a YAML file holding the irisclusters.intersystems.com CRD",
    config: () => ({ ...wfh(), iko: { chartPath: CHART, crdManifestPath: "./no-crd.yaml" } }),
    key: "iko.crdManifestPath",
  },
  {
    title: "an endpoint without https",
    component: "KarmadaControlPlane",
    resource: "kcpend",
    construct: () => new KarmadaControlPlane("kcpend", { helm: { host, endpoint: "http://127.0.0.1:32443" } }),
    field: "helm.endpoint",
    value: "http://127.0.0.1:32443",
    problem:
      "must be the Karmada API as reached from this machine, https://<host>:<port>, e.g. https://127.0.0.1:32443 (a kind host port mapped to the NodePort)",
    config: () => ({ ...fleet(), karmada: { mode: "helm", host: "ikofett", endpoint: "http://127.0.0.1:32443" } }),
    key: "karmada.endpoint",
  },
  {
    title: "a NodePort outside the range",
    component: "KarmadaControlPlane",
    resource: "kcpport",
    construct: () =>
      new KarmadaControlPlane("kcpport", { helm: { host, endpoint: "https://127.0.0.1:32443", nodePort: 443 } }),
    field: "helm.nodePort",
    value: 443,
    problem: "must be a whole number from 30000 to 32767 (Kubernetes' NodePort range)",
    config: () => ({
      ...fleet(),
      karmada: { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443", nodePort: 443 },
    }),
    key: "karmada.nodePort",
  },
  {
    title: "a Karmada image tagged latest",
    component: "KarmadaControlPlane",
    resource: "kcpimg",
    construct: () =>
      new KarmadaControlPlane("kcpimg", {
        helm: {
          host,
          endpoint: "https://127.0.0.1:32443",
          images: { webhook: "docker.io/karmada/karmada-webhook:latest" },
        },
      }),
    field: "helm.images.webhook",
    value: "docker.io/karmada/karmada-webhook:latest",
    problem: 'uses the tag "latest"; pin a version, e.g. ":2025.1"',
    config: () => ({
      ...fleet(),
      karmada: {
        mode: "helm",
        host: "ikofett",
        endpoint: "https://127.0.0.1:32443",
        images: { webhook: "docker.io/karmada/karmada-webhook:latest" },
      },
    }),
    key: "karmada.images.webhook",
  },
  {
    title: "the kubectl image set twice",
    component: "KarmadaControlPlane",
    resource: "kcpkubectl",
    construct: () =>
      new KarmadaControlPlane("kcpkubectl", {
        helm: {
          host,
          endpoint: "https://127.0.0.1:32443",
          kubectlImage: "docker.io/a/kubectl:1",
          images: { kubectl: "docker.io/b/kubectl:1" },
        },
      }),
    field: "helm.kubectlImage",
    value: "docker.io/a/kubectl:1",
    problem: "is set twice (images.kubectl names the kubectl image too); keep one",
    config: () => ({
      ...fleet(),
      karmada: {
        mode: "helm",
        host: "ikofett",
        endpoint: "https://127.0.0.1:32443",
        kubectlImage: "docker.io/a/kubectl:1",
        images: { kubectl: "docker.io/b/kubectl:1" },
      },
    }),
    key: "karmada.kubectlImage",
  },
  {
    title: "a GKE location that is no region or zone",
    component: "GkeCluster",
    resource: "gkeloc",
    construct: () => new GkeCluster("gkeloc", { location: "moon" }),
    field: "location",
    value: "moon",
    problem: "is not a GCP region or zone; use a region (us-central1) or a zone (us-central1-a)",
    config: () => {
      const c = fleet();
      (c.clusters as Raw[]).push({ name: "ikogke", source: "gke", gke: { location: "moon" } });
      return c;
    },
    key: "clusters[2].gke.location",
  },
  {
    title: "a GKE node count of 0",
    component: "GkeCluster",
    resource: "gkenodes",
    construct: () => new GkeCluster("gkenodes", { location: "us-central1", nodeCount: 0 }),
    field: "nodeCount",
    value: 0,
    problem: "must be a whole number from 1 to 100",
    config: () => {
      const c = fleet();
      (c.clusters as Raw[]).push({ name: "ikogke", source: "gke", gke: { location: "us-central1", nodeCount: 0 } });
      return c;
    },
    key: "clusters[2].gke.nodeCount",
  },
  {
    title: "a GKE machine type with a space",
    component: "GkeCluster",
    resource: "gkemt",
    construct: () => new GkeCluster("gkemt", { location: "us-central1-a", machineType: "e2 standard" }),
    field: "machineType",
    value: "e2 standard",
    problem: "is not a machine type; use one like e2-standard-4",
    config: () => {
      const c = fleet();
      (c.clusters as Raw[]).push({
        name: "ikogke",
        source: "gke",
        gke: { location: "us-central1-a", machineType: "e2 standard" },
      });
      return c;
    },
    key: "clusters[2].gke.machineType",
  },
];

describe("component args: the constructor and the stack config report the same problem", () => {
  before(async () => {
    host = new KindCluster("argshost", {});
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "iko-args-")), "kubeconfig");
    fs.writeFileSync(file, fakeKubeconfig("karmada", "https://127.0.0.1:5443"));
    karmada = new KarmadaControlPlane("argskarmada", { existing: { kubeconfigPath: file } });
    await settle(host, host.provider, karmada.provider);
  });

  it('(control) a good component is registered within the same wait, so "nothing declared" means something', async () => {
    const n = registered.length;
    new KindCluster("argscontrol", {});
    await tick();
    assert.ok(since(n).some((r) => r.type === "iko-plus:kind:KindCluster" && r.name === "argscontrol"));
  });

  for (const c of CASES) {
    it(`${c.component}: ${c.title}`, async () => {
      const n = registered.length;
      assert.throws(c.construct, (e: unknown) => {
        assert.ok(e instanceof Error);
        assert.strictEqual(e.message, `${c.component} "${c.resource}": ${c.field}: ${shown(c.value)} ${c.problem}`);
        return true;
      });
      await tick();
      assert.deepStrictEqual(
        since(n).map((r) => `${r.type}/${r.name}`),
        [],
        "nothing declared",
      );
      const line = `iko-plus:${c.key}: ${shown(c.value)} ${c.problem}`;
      const problems = configProblems(c.config());
      assert.ok(problems.includes(line), `config reports ${line}\ngot:\n${problems.join("\n")}`);
      assert.strictEqual(
        problems.filter((p) => p.startsWith(`iko-plus:${c.key}: `)).length,
        1,
        "one problem per config key",
      );
    });
  }

  it("KindCluster: one error listing every problem in order, nothing declared", async () => {
    const n = registered.length;
    assert.throws(
      () => new KindCluster("many", { clusterName: "Many_", workers: -1, podSubnet: "x", readyTimeoutSeconds: 5 }),
      {
        message:
          `KindCluster "many": clusterName: "Many_" ${DNS}; podSubnet: "x" is not an IPv4 CIDR; use a.b.c.d/n, e.g. 10.244.0.0/16; ` +
          "workers: -1 must be a whole number from 0 to 20; readyTimeoutSeconds: 5 must be a whole number from 10 to 3600 (seconds)",
      },
    );
    await tick();
    assert.strictEqual(since(n).length, 0);
  });

  it("KarmadaMember: a name Karmada takes (48 characters) passes, 49 does not; the member handle's name is checked when none is given", async () => {
    assert.deepStrictEqual(checkKarmadaMemberArgs({ clusterName: "m".repeat(48) }), []);
    assert.deepStrictEqual(checkKarmadaMemberArgs({ clusterName: "m".repeat(49) }), [
      [
        "clusterName",
        "m".repeat(49),
        "is 49 characters; Karmada allows at most 48 (it names the member's execution namespace karmada-es-<name>), so shorten it",
      ],
    ]);
    const badHost = { ...host, name: "Bad_Host" };
    assert.throws(() => new KarmadaMember("fromhandle", { karmada, member: badHost }), {
      message: `KarmadaMember "fromhandle": clusterName: "Bad_Host" ${DNS}`,
    });
    assert.throws(() => new CiliumCni("cnihandle", { cluster: badHost, clusterId: 1 }), {
      message: `CiliumCni "cnihandle": clusterName: "Bad_Host" ${DNS}`,
    });
  });

  it("KarmadaMember: the destroy-time waits take whole seconds from 1 to 86400; a bad one is refused and nothing is declared", async () => {
    assert.deepStrictEqual(checkKarmadaMemberArgs({ worksTimeoutSeconds: 1, worksReadyTimeoutSeconds: 86400 }), []);
    const wait = "must be a whole number from 1 to 86400 (seconds; leave it out for the default)";
    assert.deepStrictEqual(checkKarmadaMemberArgs({ worksTimeoutSeconds: 0, worksReadyTimeoutSeconds: 1.5 }), [
      ["worksTimeoutSeconds", 0, wait],
      ["worksReadyTimeoutSeconds", 1.5, wait],
    ]);
    const n = registered.length;
    assert.throws(() => new KarmadaMember("badwait", { karmada, member: host, worksTimeoutSeconds: -5 }), {
      message: `KarmadaMember "badwait": worksTimeoutSeconds: -5 ${wait}`,
    });
    await tick();
    assert.strictEqual(since(n).length, 0);
  });

  it("the checks judge only the fields given and accept good values", () => {
    assert.deepStrictEqual(checkKindClusterArgs({}), []);
    assert.deepStrictEqual(
      checkKindClusterArgs({
        clusterName: "ikohome",
        workers: 0,
        podSubnet: "10.244.0.0/16",
        serviceSubnet: "10.96.0.0/16",
        nodeImage: "kindest/node:v1.34.0",
      }),
      [],
    );
    assert.deepStrictEqual(checkKindClusterArgs({ workers: 20 }), []);
    assert.deepStrictEqual(checkKindClusterArgs({ workers: 2.5 }), [
      ["workers", 2.5, "must be a whole number from 0 to 20"],
    ]);
    assert.deepStrictEqual(checkCiliumCniArgs({}), []);
    assert.deepStrictEqual(checkCiliumCniArgs({ clusterName: "c".repeat(32), clusterId: 255 }), []);
    assert.deepStrictEqual(checkIkoHomeOperatorArgs({ chart: { path: CHART } }), []);
    assert.deepStrictEqual(
      checkIkoHomeOperatorArgs({
        chart: { repo: "oci://r.example/iko", version: "3.8.42" },
        releaseName: "iko",
        namespace: "iko",
        imagePullSecrets: ["pull"],
      }),
      [],
    );
    assert.deepStrictEqual(
      checkIkoHomeOperatorArgs({
        chart: { path: CHART },
        remote: {
          crdFromCluster: true,
          secretName: "work-kubeconfig",
          secretKey: "config",
          kubeconfigPath: "/airgap/.kube/config",
        },
      }),
      [],
    );
    // Local mode judges no remote field: its webhooks are the chart's business.
    assert.deepStrictEqual(
      checkIkoHomeOperatorArgs({ chart: { path: CHART }, values: { apiserver: { enableMutatingWebhook: true } } }),
      [],
    );
    assert.deepStrictEqual(
      checkIkoHomeOperatorArgs({ chart: {} }).map(([f]) => f),
      ["chart.path"],
    );
    assert.deepStrictEqual(
      checkIkoHomeOperatorArgs({ chart: { path: CHART, repo: "oci://r.example/iko" } }).map(([f]) => f),
      ["chart.repo"],
    );
    assert.deepStrictEqual(
      checkIkoHomeOperatorArgs({ chart: { path: CHART }, imagePullSecrets: ["Bad Secret"] }).map(([f]) => f),
      ["imagePullSecrets"],
    );
    assert.deepStrictEqual(
      checkIkoHomeOperatorArgs({ chart: { path: CHART }, remote: {} }).map(([f]) => f),
      ["remote.crdManifestPath"],
    );
  });

  it("the config shows the value it was given (text) and keeps one problem per key", () => {
    assert.deepStrictEqual(configProblems({ ...wfh(), home: { name: "ikohome", workers: "50" } }), [
      'iko-plus:home.workers: "50" must be a whole number from 0 to 20',
    ]);
    assert.deepStrictEqual(configProblems({ ...wfh(), home: { name: "ikohome", cilium: { clusterId: "zero" } } }), [
      'iko-plus:home.cilium.clusterId: "zero" must be a whole number from 1 to 255, unique per cluster (Cilium ClusterMesh)',
    ]);
    const c = fleet();
    (c.clusters as Raw[])[1].name = "k".repeat(60);
    assert.deepStrictEqual(
      configProblems(c).filter((p) => p.startsWith("iko-plus:clusters[1].name: ")),
      [
        `iko-plus:clusters[1].name: "${"k".repeat(60)}" is 60 characters; Cilium ClusterMesh allows at most 32, so shorten it`,
      ],
    );
  });
});
