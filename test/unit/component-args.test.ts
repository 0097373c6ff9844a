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
import { ExistingCluster, checkExistingClusterArgs } from "../../components/cluster";
import { GkeCluster } from "../../components/gcp";
import { CrdMirror, IkoHomeOperator, checkCrdMirrorArgs, checkIkoHomeOperatorArgs } from "../../components/iko";
import { IrisClusterArgs, checkIrisClusterArgs, irisClusterManifest } from "../../components/iris";
import {
  FederatedIrisCluster,
  FederatedIrisClusterArgs,
  FleetSecret,
  KarmadaControlPlane,
  KarmadaMember,
  checkFederatedIrisClusterArgs,
  checkFleetSecretArgs,
  checkKarmadaMemberArgs,
} from "../../components/karmada";
import { KindCluster, checkKindClusterArgs } from "../../components/kind";
import { FleetTls, checkFleetCaOptions, checkFleetTlsArgs } from "../../components/tls";
import { ConfigError, validateConfig } from "../../stacks";
import { federatedIrisManifest } from "../../stacks/tls";

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
  component:
    | "KindCluster"
    | "CiliumCni"
    | "KarmadaMember"
    | "IkoHomeOperator"
    | "KarmadaControlPlane"
    | "GkeCluster"
    | "FederatedIrisCluster"
    | "FleetSecret"
    | "FleetTls"
    | "ExistingCluster"
    | "CrdMirror"
    | "IrisCluster";
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

const IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";
const LICENSED = "containers.intersystems.com/intersystems/iris:2025.1";
const DIGEST = `containers.intersystems.com/intersystems/iris@sha256:${"a".repeat(64)}`;
/** The manifest of IrisCluster iris-a in default with `extra` args. */
const iris = (extra: Partial<IrisClusterArgs>) => () =>
  irisClusterManifest({ name: "iris-a", namespace: "default", image: IMAGE, ...extra });
/** The same in a wfh config: `irisClusters[0]` with `extra` keys. */
const irisConfig = (extra: Raw) => () => ({ ...wfh(), irisClusters: [{ name: "iris-a", image: IMAGE, ...extra }] });
const LICENSE_REQUIRED = (image: string) =>
  `is required for the licensed image ${JSON.stringify(image)}; name the Secret holding iris.key, or use an iris-community image`;
/** A FederatedIrisCluster of IrisCluster iris-a placed on ikoclone, with `extra` args. */
const federated = (resource: string, extra: Partial<FederatedIrisClusterArgs>) => () =>
  new FederatedIrisCluster(resource, {
    karmada,
    irisCluster: irisClusterManifest({ name: "iris-a", namespace: "default", image: IMAGE }),
    placement: { clusterNames: ["ikoclone"] },
    ...extra,
  });
/** The same in a fleet config: `federatedIrisClusters[0]` with `extra` keys. */
const federatedConfig = (extra: Raw) => () => ({
  ...fleet(),
  federatedIrisClusters: [{ name: "iris-a", image: IMAGE, placement: { clusterNames: ["ikoclone"] }, ...extra }],
});

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
    title: "a Cilium version written as an image tag",
    component: "CiliumCni",
    resource: "cniv",
    construct: () => new CiliumCni("cniv", { cluster: host, clusterId: 3, version: "v1.18.6" }),
    field: "version",
    value: "v1.18.6",
    problem: 'must be a chart version like 1.18.6 (no "v")',
    config: () => ({ ...wfh(), work: { name: "ikowork", cilium: { version: "v1.18.6" } } }),
    key: "work.cilium.version",
  },
  {
    title: "a Cilium version given with a local chart",
    component: "CiliumCni",
    resource: "cnivp",
    construct: () => new CiliumCni("cnivp", { cluster: host, clusterId: 3, version: "1.18.0", chartPath: CHART }),
    field: "version",
    value: "1.18.0",
    problem:
      "is for the chart from Cilium's repository; a local chart (chartPath) carries its own version: give one of the two",
    config: () => ({ ...wfh(), home: { name: "ikohome", cilium: { version: "1.18.0", chartPath: CHART } } }),
    key: "home.cilium.version",
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
  {
    title: "a policy name with capitals",
    component: "FederatedIrisCluster",
    resource: "fedpolicy",
    construct: federated("fedpolicy", { policyName: "Iris_Policy" }),
    field: "policyName",
    value: "Iris_Policy",
    problem: DNS,
    config: federatedConfig({ policyName: "Iris_Policy" }),
    key: "federatedIrisClusters[0].policyName",
  },
  {
    title: "a set-based selector written as a label value",
    component: "FederatedIrisCluster",
    resource: "fedlabel",
    construct: federated("fedlabel", { placement: { labels: { region: "in (a,c)" } } }),
    field: "placement.labels.region",
    value: "in (a,c)",
    problem:
      "is a set-based selector written as a label value, which selects nothing; write it as matchExpressions: [{key: region, operator: In, values: [a, c]}]",
    config: federatedConfig({ placement: { labels: { region: "in (a,c)" } } }),
    key: "federatedIrisClusters[0].placement.labels.region",
  },
  {
    title: "a placement that sets no filter",
    component: "FederatedIrisCluster",
    resource: "fednowhere",
    construct: federated("fednowhere", { placement: {} }),
    field: "placement",
    value: {},
    problem: "places the object nowhere; set clusterNames, labels, matchExpressions, regions or affinities",
    config: federatedConfig({ placement: {} }),
    key: "federatedIrisClusters[0].placement",
  },
  {
    title: "a spread constraint with more minGroups than maxGroups",
    component: "FederatedIrisCluster",
    resource: "fedspread",
    construct: federated("fedspread", {
      placement: { regions: ["a", "b"], spreadConstraints: [{ spreadByField: "region", maxGroups: 2, minGroups: 3 }] },
    }),
    field: "placement.spreadConstraints[0].minGroups",
    value: 3,
    problem: "is more than maxGroups (2); no placement can satisfy it",
    config: federatedConfig({
      placement: { regions: ["a", "b"], spreadConstraints: [{ spreadByField: "region", maxGroups: 2, minGroups: 3 }] },
    }),
    key: "federatedIrisClusters[0].placement.spreadConstraints[0].minGroups",
  },
  {
    title: "an override path that is no JSON pointer",
    component: "FederatedIrisCluster",
    resource: "fedpath",
    construct: federated("fedpath", {
      overrides: [
        { target: { clusterNames: ["ikoclone"] }, plaintext: [{ path: "spec.x", operator: "add", value: 1 }] },
      ],
    }),
    field: "overrides[0].plaintext[0].path",
    value: "spec.x",
    problem: "must be a JSON pointer such as /spec/storageClassName",
    config: federatedConfig({
      overrides: [{ clusterNames: ["ikoclone"], plaintext: [{ path: "spec.x", operator: "add", value: 1 }] }],
    }),
    key: "federatedIrisClusters[0].overrides[0].plaintext[0].path",
  },
  {
    title: "an override label key with a space",
    component: "FederatedIrisCluster",
    resource: "fedovlabel",
    construct: federated("fedovlabel", {
      overrides: [{ target: { labels: { "my tier": "a" } }, plaintext: [{ path: "/spec/x", operator: "remove" }] }],
    }),
    field: 'overrides[0].target.labels["my tier"]',
    value: "my tier",
    problem:
      "is not a label key: the name (after any 'prefix/') must be 1 to 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit; use e.g. region or topology.kubernetes.io/region",
    config: federatedConfig({
      overrides: [{ labels: { "my tier": "a" }, plaintext: [{ path: "/spec/x", operator: "remove" }] }],
    }),
    key: 'federatedIrisClusters[0].overrides[0].labels["my tier"]',
  },
  {
    title: "a failover grace period without purgeMode Gracefully",
    component: "FederatedIrisCluster",
    resource: "fedgrace",
    construct: federated("fedgrace", {
      failover: { application: { purgeMode: "Directly", gracePeriodSeconds: 60 } },
    }),
    field: "failover.application.gracePeriodSeconds",
    value: 60,
    problem: "only applies with purgeMode Gracefully (it is Directly); remove it or set purgeMode: Gracefully",
    config: federatedConfig({ failover: { application: { purgeMode: "Directly", gracePeriodSeconds: 60 } } }),
    key: "federatedIrisClusters[0].failover.application.gracePeriodSeconds",
  },
  {
    title: "a fleet Secret name with capitals",
    component: "FleetSecret",
    resource: "fsname",
    construct: () =>
      new FleetSecret("fsname", { karmada, name: "Db_Pass", data: {}, placement: { clusterNames: ["ikoclone"] } }),
    field: "name",
    value: "Db_Pass",
    problem: DNS,
    config: () => ({
      ...fleet(),
      fleetSecrets: [{ name: "Db_Pass", dataKey: "dbPass", clusterNames: ["ikoclone"] }],
      dbPass: { password: "x" },
    }),
    key: "fleetSecrets[0].name",
  },
  {
    title: "a cert-manager namespace with a dot",
    component: "FleetTls",
    resource: "tlsns",
    construct: () => new FleetTls("tlsns", { members: [host], namespace: "cert.manager" }),
    field: "namespace",
    value: "cert.manager",
    problem: DNS,
    config: () => ({ ...fleet(), fleetTls: { namespace: "cert.manager" } }),
    key: "fleetTls.namespace",
  },
  {
    title: "a CA valid for 0 days",
    component: "FleetTls",
    resource: "tlsdays",
    construct: () => new FleetTls("tlsdays", { members: [host], ca: { generate: { validityDays: 0 } } }),
    field: "ca.generate.validityDays",
    value: 0,
    problem: "must be a whole number from 1 to 36500 (days the CA is valid)",
    config: () => ({ ...fleet(), fleetTls: { ca: { validityDays: 0 } } }),
    key: "fleetTls.ca.validityDays",
  },
  {
    title: "a kubeconfig file that does not exist",
    component: "ExistingCluster",
    resource: "ghostcluster",
    construct: () => new ExistingCluster("ghostcluster", { kubeconfigPath: "/no/such/kubeconfig" }),
    field: "kubeconfigPath",
    value: "/no/such/kubeconfig",
    problem: "cannot be read (ENOENT); point it at an existing kubeconfig file",
    config: () => ({ ...wfh(), work: { name: "ikowork", kubeconfigPath: "/no/such/kubeconfig" } }),
    key: "work.kubeconfigPath",
  },
  {
    title: "a CRD manifest that does not exist",
    component: "CrdMirror",
    resource: "crdghost",
    construct: () => new CrdMirror("crdghost", { target: host, manifestPath: "./no-crd.yaml" }),
    field: "manifestPath",
    value: "./no-crd.yaml",
    problem: "does not exist; point it at a YAML file holding the irisclusters.intersystems.com CRD",
    config: () => ({ ...fleet(), iko: { chartPath: CHART, crdManifestPath: "./no-crd.yaml" } }),
    key: "iko.crdManifestPath",
  },
  {
    title: "an IrisCluster name with capitals",
    component: "IrisCluster",
    resource: "Iris_A",
    construct: iris({ name: "Iris_A" }),
    field: "name",
    value: "Iris_A",
    problem: DNS,
    config: irisConfig({ name: "Iris_A" }),
    key: "irisClusters[0].name",
  },
  {
    title: "an IrisCluster namespace with a dot",
    component: "IrisCluster",
    resource: "iris-a",
    construct: iris({ namespace: "iris.prod" }),
    field: "namespace",
    value: "iris.prod",
    problem: DNS,
    config: irisConfig({ namespace: "iris.prod" }),
    key: "irisClusters[0].namespace",
  },
  {
    title: "an IRIS image tagged latest",
    component: "IrisCluster",
    resource: "iris-a",
    construct: iris({ image: "containers.intersystems.com/intersystems/iris-community:latest" }),
    field: "image",
    value: "containers.intersystems.com/intersystems/iris-community:latest",
    problem: 'uses the tag "latest"; pin a version, e.g. ":2025.1"',
    config: irisConfig({ image: "containers.intersystems.com/intersystems/iris-community:latest" }),
    key: "irisClusters[0].image",
  },
  {
    title: "a licensed image without a license key Secret",
    component: "IrisCluster",
    resource: "iris-a",
    construct: iris({ image: LICENSED }),
    field: "licenseKeySecret",
    value: undefined,
    problem: LICENSE_REQUIRED(LICENSED),
    config: irisConfig({ image: LICENSED }),
    key: "irisClusters[0].licenseKeySecret",
  },
  {
    title: "a licensed image pinned by digest without a license key (a fleet's licenseKeyConfig)",
    component: "IrisCluster",
    resource: "iris-a",
    construct: iris({ image: DIGEST }),
    field: "licenseKeySecret",
    value: undefined,
    problem: LICENSE_REQUIRED(DIGEST),
    config: federatedConfig({ image: DIGEST }),
    key: "federatedIrisClusters[0].licenseKeyConfig",
  },
  {
    title: "a license key Secret name with capitals",
    component: "IrisCluster",
    resource: "iris-a",
    construct: iris({ image: LICENSED, licenseKeySecret: "Iris_Key" }),
    field: "licenseKeySecret",
    value: "Iris_Key",
    problem:
      "is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit",
    config: irisConfig({ image: LICENSED, licenseKeySecret: "Iris_Key" }),
    key: "irisClusters[0].licenseKeySecret",
  },
  {
    title: "a topology of 0 data shards",
    component: "IrisCluster",
    resource: "iris-a",
    construct: iris({ spec: { topology: { data: { shards: 0 } } } }),
    field: "spec.topology.data.shards",
    value: 0,
    problem: "must be a whole number from 1 to 64",
    config: irisConfig({ spec: { topology: { data: { shards: 0 } } } }),
    key: "irisClusters[0].spec.topology.data.shards",
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

  it("IkoHomeOperator remote: the Secret key's and the mount path's bounds, each message exact", () => {
    const remote = (r: Record<string, unknown>) =>
      checkIkoHomeOperatorArgs({ chart: { path: CHART }, remote: { crdFromCluster: true, ...r } });
    const KEY = "is not a valid Secret key; use letters, digits, '-', '_' and '.', e.g. \"config\"";
    for (const good of ["config", "k".repeat(253), "a.b_c-D9"])
      assert.deepStrictEqual(remote({ secretKey: good }), [], good.slice(0, 20));
    for (const bad of ["k".repeat(254), "", "a/b", "a b"])
      assert.deepStrictEqual(remote({ secretKey: bad }), [["remote.secretKey", bad, KEY]], bad.slice(0, 20));
    const PATH = "must be an absolute file path below a folder, without quotes or spaces, e.g. /airgap/.kube/config";
    for (const good of ["/airgap/.kube/config", "/a/b", "/a//b"])
      assert.deepStrictEqual(remote({ kubeconfigPath: good }), [], good);
    for (const bad of ["/config", "airgap/config", "/airgap/.kube/", "/a/b c", "/a/'b'", "/a/b\\c", "x/a/b", "/a/b\n"])
      assert.deepStrictEqual(remote({ kubeconfigPath: bad }), [["remote.kubeconfigPath", bad, PATH]], bad);
    assert.deepStrictEqual(remote({ secretName: "Work_Kubeconfig" }), [
      [
        "remote.secretName",
        "Work_Kubeconfig",
        "is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit",
      ],
    ]);
    assert.deepStrictEqual(remote({ crdFromCluster: undefined }), [
      [
        "remote.crdManifestPath",
        undefined,
        "is required for a remote operator; export the CRD with `kubectl get crd irisclusters.intersystems.com -o yaml > ikocrds.yaml`, or copy it from a cluster that has it",
      ],
    ]);
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
  it("CrdMirror: exactly one source, a CRD name with its group, a manifest that exists", () => {
    assert.deepStrictEqual(checkCrdMirrorArgs({ manifestPath: CRD }), []);
    assert.deepStrictEqual(checkCrdMirrorArgs({ sourceCluster: host, crdName: "widgets.example.com" }), []);
    assert.deepStrictEqual(checkCrdMirrorArgs({}), [
      [
        "manifestPath",
        undefined,
        "is required unless sourceCluster is given; give exactly one of manifestPath and sourceCluster",
      ],
    ]);
    assert.deepStrictEqual(checkCrdMirrorArgs({ manifestPath: CRD, sourceCluster: host }), [
      ["manifestPath", CRD, "is set together with sourceCluster; give exactly one of manifestPath and sourceCluster"],
    ]);
    assert.deepStrictEqual(checkCrdMirrorArgs({ manifestPath: "./none.yaml", crdName: "widgets" }), [
      ["crdName", "widgets", "is not a CRD name; use <plural>.<group>, e.g. irisclusters.intersystems.com"],
      ["manifestPath", "./none.yaml", "does not exist; point it at a YAML file holding the widgets CRD"],
    ]);
  });

  it("ExistingCluster: exactly one kubeconfig source; a file must be a usable kubeconfig", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-existing-args-"));
    const good = path.join(dir, "good");
    fs.writeFileSync(good, fakeKubeconfig("x", "https://127.0.0.1:6443"));
    const bad = path.join(dir, "bad");
    fs.writeFileSync(bad, "kind: Config\n");
    assert.deepStrictEqual(checkExistingClusterArgs({ kubeconfigPath: good }), []);
    assert.deepStrictEqual(checkExistingClusterArgs({ kubeconfig: "contents" }), []);
    assert.deepStrictEqual(checkExistingClusterArgs({}), [
      ["kubeconfigPath", undefined, "is required, or give the kubeconfig's contents instead"],
    ]);
    assert.deepStrictEqual(checkExistingClusterArgs({ kubeconfig: "contents", kubeconfigPath: good }), [
      ["kubeconfigPath", good, "is set together with the kubeconfig's contents; keep one of them"],
    ]);
    assert.deepStrictEqual(checkExistingClusterArgs({ kubeconfigPath: dir }), [
      ["kubeconfigPath", dir, "cannot be read (EISDIR); point it at an existing kubeconfig file"],
    ]);
    const [[field, value, problem]] = checkExistingClusterArgs({ kubeconfigPath: bad });
    assert.deepStrictEqual([field, value], ["kubeconfigPath", bad]);
    assert.match(problem, /^is not a usable kubeconfig: /);
    assert.throws(() => new ExistingCluster("twosources", { kubeconfig: "contents", kubeconfigPath: good }), {
      message: `ExistingCluster "twosources": kubeconfigPath: ${JSON.stringify(good)} is set together with the kubeconfig's contents; keep one of them`,
    });
  });

  it("FleetTls: members (at least one, each once), a pinned cert-manager it installs, names, certificates, CA options", () => {
    const a = { name: "a" };
    assert.deepStrictEqual(checkFleetTlsArgs({ members: [a] }), []);
    assert.deepStrictEqual(
      checkFleetTlsArgs({
        members: [a, { name: "b" }],
        certManagerVersion: "v1.19.1",
        namespace: "cm",
        issuerName: "fleet.ca",
        caSecretName: "fleet-ca",
        certificates: [{ name: "iris-a" }, { name: "iris-a", namespace: "other", secretName: "iris.tls" }],
        ca: { generate: { validityDays: 36500, generation: 1_000_000, keyBits: 2048, commonName: "c".repeat(64) } },
      }),
      [],
    );
    assert.deepStrictEqual(checkFleetTlsArgs({ members: [] }), [
      ["members", [], "is empty; list the clusters that issue certificates, e.g. [ikoclone]"],
    ]);
    assert.deepStrictEqual(checkFleetTlsArgs({}), [
      ["members", [], "is empty; list the clusters that issue certificates, e.g. [ikoclone]"],
    ]);
    assert.deepStrictEqual(
      checkFleetTlsArgs({
        members: [a],
        certificates: [
          { name: "iris-c", secretName: "Bad_Secret" },
          { name: "iris-c", namespace: "default" },
        ],
      }),
      [
        [
          "certificates[0].secretName",
          "Bad_Secret",
          "is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit",
        ],
        ["certificates[1].name", "iris-c", "is listed twice in namespace default; request each certificate once"],
      ],
      "no namespace means default: the same certificate twice",
    );
    assert.deepStrictEqual(checkFleetTlsArgs({ members: [a, { name: "b" }, a] }), [
      ["members", "a", "is listed twice; list each cluster once"],
    ]);
    assert.deepStrictEqual(
      checkFleetTlsArgs({ members: [a], certManagerVersion: "v1.19.1", installCertManager: false }),
      [
        [
          "certManagerVersion",
          "v1.19.1",
          "is set but installCertManager is false, so nothing installs it; remove it or set installCertManager: true",
        ],
      ],
    );
    assert.deepStrictEqual(checkFleetTlsArgs({ members: [a], certManagerVersion: "latest" }), [
      ["certManagerVersion", "latest", 'must be a pinned chart version such as v1.19.1 (no range, no "latest")'],
    ]);
    assert.deepStrictEqual(
      checkFleetTlsArgs({
        members: [a],
        issuerName: "Fleet CA",
        certificates: [{ name: "Iris" }, { name: "iris-b", namespace: "x.y" }, { name: "iris-b", namespace: "x.y" }],
      }),
      [
        [
          "issuerName",
          "Fleet CA",
          "is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit",
        ],
        ["certificates[0].name", "Iris", DNS],
        ["certificates[1].namespace", "x.y", DNS],
        ["certificates[2].namespace", "x.y", DNS],
        ["certificates[2].name", "iris-b", "is listed twice in namespace x.y; request each certificate once"],
      ],
    );
    assert.deepStrictEqual(
      checkFleetCaOptions({ commonName: "c".repeat(65), organization: "o".repeat(65), generation: 0, keyBits: 1024 }),
      [
        ["commonName", "c".repeat(65), "is 65 characters; an X.509 common name has at most 64"],
        ["organization", "o".repeat(65), "is 65 characters; an X.509 organization has at most 64"],
        ["generation", 0, "must be a whole number from 1 to 1000000 (raise it by one to generate a new CA)"],
        ["keyBits", 1024, "is not a supported RSA key size; use one of: 2048, 3072, 4096"],
      ],
    );
  });

  it("FederatedIrisCluster: its names, one placement form, targets, spread, failover, overrides and the names it propagates", () => {
    const placement = { clusterNames: ["m1"] };
    const iris = { metadata: { name: "iris-a", namespace: "default" } };
    assert.deepStrictEqual(checkFederatedIrisClusterArgs({ irisCluster: iris, policyName: "p", placement }), []);
    assert.deepStrictEqual(
      checkFederatedIrisClusterArgs({
        irisCluster: iris,
        placement: {
          affinities: [
            { name: "primary", regions: ["a"] },
            { name: "dr", matchExpressions: [{ key: "tier", operator: "Exists" }] },
          ],
          spreadConstraints: [{ spreadByField: "region", maxGroups: 100, minGroups: 1 }],
        },
        failover: { application: { tolerationSeconds: 0, purgeMode: "Gracefully", gracePeriodSeconds: 86400 } },
        overrides: [
          { name: "ov", target: { labels: { tier: "a" } }, plaintext: [{ path: "/spec/x", operator: "remove" }] },
        ],
        secrets: ["s.one"],
        configMaps: ["cm"],
      }),
      [],
    );
    assert.deepStrictEqual(
      checkFederatedIrisClusterArgs({
        irisCluster: { metadata: { namespace: "Bad" } },
        policyName: "p".repeat(64),
        placement: {
          clusterNames: ["m1", "m1"],
          affinities: [{ name: "g" }],
          spreadConstraints: [{ spreadByField: "zone", maxGroups: 101, minGroups: 0 }],
        },
        failover: { application: { tolerationSeconds: 86401 } },
        overrides: [{ name: "Ov", target: {}, plaintext: [] }],
        secrets: ["Bad_Secret"],
      }),
      [
        ["irisCluster.metadata.name", undefined, "is required; give the IrisCluster a DNS-1123 name"],
        ["irisCluster.metadata.namespace", "Bad", DNS],
        ["policyName", "p".repeat(64), "is 64 characters; a DNS-1123 label has at most 63"],
        [
          "placement.affinities",
          "[...]",
          "is set together with clusterNames, labels, matchExpressions or regions; use one of the two forms",
        ],
        ["placement.clusterNames", ["m1", "m1"], "names m1 more than once; list each member once"],
        ["placement.spreadConstraints[0].maxGroups", 101, "must be a whole number from 1 to 100"],
        ["placement.spreadConstraints[0].minGroups", 0, "must be a whole number from 1 to 100"],
        [
          "failover.application.tolerationSeconds",
          86401,
          "must be a whole number from 0 to 86400 (seconds an IrisCluster may stay unhealthy before it moves)",
        ],
        [
          "overrides[0]",
          { name: "Ov", target: {}, plaintext: [] },
          "targets no member; set clusterNames, labels, matchExpressions or regions",
        ],
        [
          "overrides[0].plaintext",
          [],
          "must be a non-empty list of {path: /spec/..., operator: add|remove|replace, value}",
        ],
        ["overrides[0].name", "Ov", DNS],
        [
          "secrets[0]",
          "Bad_Secret",
          "is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit",
        ],
      ],
    );
    assert.deepStrictEqual(
      checkFederatedIrisClusterArgs({
        placement: { affinities: [] },
        failover: {},
        overrides: [{ target: { clusterNames: ["m1"] }, plaintext: [{ path: "/spec/x", operator: "replace" }] }],
      }),
      [
        ["placement.affinities", [], "must be a non-empty list of {name, clusterNames|labels}, primary first"],
        [
          "failover",
          {},
          "sets no failover; give application: {tolerationSeconds, purgeMode} and/or cluster: {purgeMode}, or remove it",
        ],
        ["overrides[0].plaintext[0].value", undefined, "is required for operator replace"],
      ],
    );
    assert.deepStrictEqual(
      checkFederatedIrisClusterArgs({
        placement: {
          matchExpressions: [{ key: "region", operator: "In" }],
          spreadConstraints: [{ spreadByField: "region", maxGroups: 1.5 }],
        },
        failover: { application: { purgeMode: "Never", gracePeriodSeconds: 0 } },
      }),
      [
        [
          "placement.matchExpressions[0].values",
          undefined,
          "is required with operator In: a non-empty list of label values, e.g. [us-central1]",
        ],
        ["placement.spreadConstraints[0].maxGroups", 1.5, "must be a whole number from 1 to 100"],
        [
          "failover.application.gracePeriodSeconds",
          0,
          "only applies with purgeMode Gracefully (it is Never); remove it or set purgeMode: Gracefully",
        ],
      ],
    );
    // Gracefully (also by default): the grace period's range.
    assert.deepStrictEqual(checkFederatedIrisClusterArgs({ failover: { application: { gracePeriodSeconds: 0 } } }), [
      [
        "failover.application.gracePeriodSeconds",
        0,
        "must be a whole number from 1 to 86400 (seconds the old copy is kept at most)",
      ],
    ]);
  });

  it("FederatedIrisCluster and FleetSecret constructors: one error listing every problem, the default policy name checked", async () => {
    const n = registered.length;
    const long = "i".repeat(60);
    assert.throws(
      federated("fedmany", {
        irisCluster: irisClusterManifest({ name: long, namespace: "default", image: IMAGE }),
        placement: {},
      }),
      {
        message:
          `FederatedIrisCluster "fedmany": policyName: "${long}-propagate" is 70 characters; a DNS-1123 label has at most 63; ` +
          "placement: {} places the object nowhere; set clusterNames, labels, matchExpressions, regions or affinities",
      },
    );
    assert.throws(
      () => new FleetSecret("fsnowhere", { karmada, name: "db", namespace: "x_y", data: {}, placement: {} }),
      {
        message: `FleetSecret "fsnowhere": namespace: "x_y" ${DNS}; placement: {} sends the Secret nowhere; set clusterNames, labels or matchExpressions`,
      },
    );
    assert.deepStrictEqual(
      checkFleetSecretArgs({ name: "db", namespace: "default", placement: { labels: { a: "b" } } }),
      [],
    );
    await tick();
    assert.strictEqual(since(n).length, 0);
  });

  it("IrisCluster: one error listing every problem in order; the checks accept good values and judge only what is given", () => {
    assert.throws(
      () =>
        irisClusterManifest({
          name: "Iris_A",
          namespace: "a.b",
          image: DIGEST,
          spec: { topology: { data: { shards: 65 }, compute: { replicas: 1.5 }, webgateway: { replicas: 101 } } },
        }),
      {
        message:
          `IrisCluster "Iris_A": name: "Iris_A" ${DNS}; namespace: "a.b" ${DNS}; licenseKeySecret: (not set) ${LICENSE_REQUIRED(DIGEST)}; ` +
          "spec.topology.data.shards: 65 must be a whole number from 1 to 64; " +
          "spec.topology.compute.replicas: 1.5 must be a whole number from 0 to 100; " +
          "spec.topology.webgateway.replicas: 101 must be a whole number from 0 to 100",
      },
    );
    assert.deepStrictEqual(checkIrisClusterArgs({}), [
      ["name", undefined, "is required; give the IrisCluster a DNS-1123 name"],
      ["image", undefined, "is required; e.g. containers.intersystems.com/intersystems/iris-community:2025.1"],
    ]);
    assert.deepStrictEqual(checkIrisClusterArgs({ name: "iris-a", image: "iris" }), [
      ["image", "iris", 'has no tag; pin a version, e.g. ":2025.1" (an untagged image means latest)'],
    ]);
    const health = "containers.intersystems.com/intersystems/irishealth:2025.1";
    assert.deepStrictEqual(checkIrisClusterArgs({ name: "iris-a", image: health }), [
      ["licenseKeySecret", undefined, LICENSE_REQUIRED(health)],
    ]);
    for (const good of [
      { name: "iris-a", image: IMAGE },
      { name: "iris-a", namespace: "iris", image: LICENSED, licenseKeySecret: "iris.key-secret" },
      { name: "i".repeat(63), image: DIGEST, licenseKeySecret: "k" },
      {
        name: "iris-a",
        image: IMAGE,
        spec: { topology: { data: { shards: 64 }, compute: { replicas: 0 }, webgateway: { replicas: 100 } } },
      },
      { name: "iris-a", image: IMAGE, spec: { topology: { data: { image: IMAGE } } } },
    ])
      assert.deepStrictEqual(checkIrisClusterArgs(good), [], JSON.stringify(good));
    assert.deepStrictEqual(
      checkIrisClusterArgs({ name: "iris-a", image: IMAGE, spec: { topology: { data: { shards: 0 } } } }),
      [["spec.topology.data.shards", 0, "must be a whole number from 1 to 64"]],
    );
  });

  it("IrisCluster in a fleet: the license Secret is FederatedIrisCluster's, so a bad name is reported once, under name", () => {
    const raw = {
      ...federatedConfig({
        name: "Iris_A",
        policyName: "iris-propagate",
        image: LICENSED,
        licenseKeyConfig: "irisKey",
      })(),
      irisKey: "KEY",
    };
    let problems: string[] = [];
    try {
      validateConfig(raw, ["iko-plus:irisKey"]);
    } catch (e) {
      assert.ok(e instanceof ConfigError, String(e));
      problems = e.problems;
    }
    assert.deepStrictEqual(
      problems.filter((p) => p.startsWith("iko-plus:federatedIrisClusters[0].")),
      [`iko-plus:federatedIrisClusters[0].name: "Iris_A" ${DNS}`],
    );
    assert.deepStrictEqual(
      federatedIrisManifest(
        { name: "iris-a", namespace: "default", image: LICENSED, licenseKeyConfig: "irisKey" },
        undefined,
      ).spec,
      { topology: { data: { image: LICENSED } }, licenseKeySecret: { name: "iris-a-license" } },
      "the template names the Secret FederatedIrisCluster writes",
    );
    assert.throws(() => federatedIrisManifest({ name: "iris-a", namespace: "default", image: LICENSED }, undefined), {
      message: `IrisCluster "iris-a": licenseKeySecret: (not set) ${LICENSE_REQUIRED(LICENSED)}`,
    });
  });
});
