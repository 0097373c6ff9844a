/**
 * The `mesh` config of the wfh and fleet stacks, the policy rule cilium-mesh-unique-clusters, and
 * the wfh stack program with a mesh under mocks. The rules are ClusterMesh's
 * (checkClusterMeshMembers); these tests check they are reported under config paths and by the
 * policy pack.
 */
import * as assert from "assert";
import * as path from "path";
import { Registered, installMocks, one, settle, unwrapSecret } from "./mocks";

const registered: Registered[] = installMocks();
import { clusterPodSubnet, replacesKubeProxy, validateConfig, validateWfhConfig, wfhStack } from "../../stacks";
import { duplicateMeshClusters, isCiliumChart } from "../../policy/rules/cilium-mesh";
import { PolicyResource, UNKNOWN } from "../../policy/rules/values";
import { clusterMeshValues } from "../../components/cilium";
import { problemsOf } from "./config-problems";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const ID_FIX = "give every cluster its own id from 1 to 255";

function wfh(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    program: "wfh",
    home: { name: "mesh-a", podSubnet: "10.245.0.0/16", cilium: { clusterId: 11 } },
    work: { name: "mesh-b", podSubnet: "10.246.0.0/16", cilium: { clusterId: 12 } },
    iko: { chartPath: CHART, crdManifestPath: CRD },
    ...extra,
  };
}

describe("unit: mesh config (wfh and fleet stacks)", () => {
  it("wfh: names, or entries with nodePort and address; defaults NodePort 32379 and CA generation 1", () => {
    assert.deepStrictEqual(
      validateWfhConfig(
        wfh({ mesh: { clusters: ["mesh-a", { name: "mesh-b", nodePort: 32380, address: "172.18.0.7" }] } }),
      ).mesh,
      {
        members: [
          { name: "mesh-a", nodePort: 32379, address: undefined },
          { name: "mesh-b", nodePort: 32380, address: "172.18.0.7" },
        ],
        caGeneration: 1,
        readyTimeoutSeconds: 300,
      },
    );
    assert.strictEqual(validateWfhConfig(wfh()).mesh, undefined);
    assert.deepStrictEqual(
      validateWfhConfig(wfh({ mesh: { clusters: ["mesh-b"], ca: { generation: "3" }, readyTimeoutSeconds: "45" } }))
        .mesh,
      {
        members: [{ name: "mesh-b", nodePort: 32379, address: undefined }],
        caGeneration: 3,
        readyTimeoutSeconds: 45,
      },
    );
  });

  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      "unknown keys",
      wfh({ mesh: { clusters: ["mesh-a"], members: [], ca: { generation: 1, keyBits: 2048 } } }),
      [
        "iko-plus:mesh.members: [] is not a known key; use one of: clusters, ca, readyTimeoutSeconds",
        "iko-plus:mesh.ca.keyBits: 2048 is not a known key; use one of: generation",
      ],
    ],
    [
      "a wait too short",
      wfh({ mesh: { clusters: ["mesh-a"], readyTimeoutSeconds: 5 } }),
      ["iko-plus:mesh.readyTimeoutSeconds: 5 must be a whole number from 10 to 3600"],
    ],
    [
      "no clusters",
      wfh({ mesh: {} }),
      ["iko-plus:mesh.clusters: (not set) must be a non-empty list of this stack's clusters, e.g. [mesh-a, mesh-b]"],
    ],
    [
      "a stranger, a repeat, a bad NodePort, an unknown entry key",
      wfh({ mesh: { clusters: ["mesh-c", "mesh-a", "mesh-a", { name: "mesh-b", nodePort: 2379, port: 1 }] } }),
      [
        'iko-plus:mesh.clusters[0]: "mesh-c" is not one of this stack\'s clusters (mesh-a, mesh-b)',
        'iko-plus:mesh.clusters[2]: "mesh-a" is listed twice; list each cluster once',
        "iko-plus:mesh.clusters[3].port: 1 is not a known key; use one of: name, nodePort, address",
        "iko-plus:mesh.clusters[3].nodePort: 2379 must be a whole number from 30000 to 32767 (Kubernetes' NodePort range)",
      ],
    ],
    [
      "a member without Cilium",
      wfh({
        work: { name: "mesh-b", podSubnet: "10.246.0.0/16", cilium: { enabled: false } },
        mesh: { clusters: ["mesh-a", "mesh-b"] },
      }),
      [
        'iko-plus:mesh.clusters[1]: "mesh-b" runs no Cilium (work.cilium.enabled is false); set it to true or leave the cluster out of the mesh',
      ],
    ],
    [
      "kind's default pod subnet on both members",
      wfh({
        home: { name: "mesh-a", cilium: { clusterId: 11 } },
        work: { name: "mesh-b", cilium: { clusterId: 12 } },
        mesh: { clusters: ["mesh-a", "mesh-b"] },
      }),
      [
        'iko-plus:work.podSubnet: "10.244.0.0/16" overlaps home.podSubnet "10.244.0.0/16"; ClusterMesh needs pod subnets apart, e.g. 10.244.0.0/16 and 10.245.0.0/16',
      ],
    ],
    [
      "one NodePort with kube-proxy replacement",
      wfh({
        work: { name: "mesh-b", podSubnet: "10.246.0.0/16", kubeProxyMode: "none", cilium: { clusterId: 12 } },
        mesh: { clusters: ["mesh-a", "mesh-b"] },
      }),
      [
        "iko-plus:mesh.clusters[1].nodePort: 32379 is also home's clustermesh-apiserver NodePort, and one of them replaces kube-proxy, which then sends that NodePort to its own cluster (Cilium #24692); give each its own, e.g. 32380",
      ],
    ],
    [
      "a duplicate id: once, under the cluster's own key",
      wfh({
        work: { name: "mesh-b", podSubnet: "10.246.0.0/16", cilium: { clusterId: 11 } },
        mesh: { clusters: ["mesh-a", "mesh-b"] },
      }),
      [`iko-plus:work.cilium.clusterId: 11 is also home's Cilium cluster id; ${ID_FIX}`],
    ],
  ];
  for (const [what, raw, expected] of cases) {
    it(`wfh refuses: ${what}`, () => assert.deepStrictEqual(problemsOf(raw), expected));
  }

  it("fleet: members among the clusters, problems under clusters[i] keys", () => {
    const fleet = (mesh: unknown) => ({
      program: "fleet",
      clusters: [
        { name: "ikofett", cilium: { clusterId: 1 }, podSubnet: "10.244.0.0/16" },
        { name: "ikoclone", cilium: { clusterId: 2 } },
        { name: "ikothird", cilium: { clusterId: 3 }, podSubnet: "10.247.0.0/16" },
      ],
      karmada: { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443" },
      iko: { chartPath: CHART, crdManifestPath: CRD },
      mesh,
    });
    const cfg = validateConfig(fleet({ clusters: ["ikofett", "ikothird"] }), []);
    assert.ok(cfg.program === "fleet");
    if (cfg.program === "fleet")
      assert.deepStrictEqual(
        cfg.mesh?.members.map((m) => m.name),
        ["ikofett", "ikothird"],
      );
    let problems: string[] = [];
    try {
      validateConfig(fleet({ clusters: ["ikofett", "ikoclone"] }), []);
    } catch (e) {
      problems = (e as { problems: string[] }).problems;
    }
    // ikoclone sets no podSubnet: outside the mesh that is fine; in it, kind's default overlaps ikofett's.
    assert.deepStrictEqual(problems, [
      'iko-plus:clusters[1].podSubnet: "10.244.0.0/16" overlaps clusters[0].podSubnet "10.244.0.0/16"; ClusterMesh needs pod subnets apart, e.g. 10.244.0.0/16 and 10.245.0.0/16',
    ]);
  });
});

describe("unit: policy cilium-mesh-unique-clusters", () => {
  const release = (
    name: string,
    values: unknown,
    chart = "/go/pkg/mod/github.com/cilium/cilium@v1.18.0/install/kubernetes/cilium",
  ): PolicyResource => ({
    type: "kubernetes:helm.sh/v3:Release",
    name,
    urn: `urn:${name}`,
    props: { chart, values: values as PolicyResource["props"] },
  });
  const member = (name: string, id: number) => ({
    cluster: { name, id },
    clustermesh: clusterMeshValues({ nodePort: 32379, peers: [] }),
  });

  it("recognises Cilium's chart by path, name or archive", () => {
    for (const c of ["cilium", "install/kubernetes/cilium", "./charts/cilium-1.18.0.tgz", "charts/cilium/"])
      assert.strictEqual(isCiliumChart(c), true, c);
    for (const c of ["iris-operator", "./charts/cilium-extras", "karmada"])
      assert.strictEqual(isCiliumChart(c), false, c);
  });

  it("unit: flags the same release whatever order the engine hands the resources over in", () => {
    const a = release("mesh-a-cni-cilium", member("mesh-a", 11));
    const c = release("mesh-c-cni-cilium", member("mesh-c", 11));
    assert.deepStrictEqual(
      duplicateMeshClusters([a, c]).map((f) => f.urn),
      ["urn:mesh-c-cni-cilium"],
    );
    assert.deepStrictEqual(
      duplicateMeshClusters([c, a]).map((f) => f.urn),
      ["urn:mesh-c-cni-cilium"],
    );
  });
  it("fires on a mesh member repeating an earlier member's id or name", () => {
    assert.deepStrictEqual(
      duplicateMeshClusters([
        release("mesh-a-cni-cilium", member("mesh-a", 11)),
        release("mesh-b-cni-cilium", member("mesh-b", 11)),
        release("mesh-c-cni-cilium", member("mesh-a", 13), "cilium"),
      ]),
      [
        {
          urn: "urn:mesh-b-cni-cilium",
          message: `kubernetes:helm.sh/v3:Release "mesh-b-cni-cilium" (cluster "mesh-b") joins a Cilium ClusterMesh with values.cluster.id 11, which is also kubernetes:helm.sh/v3:Release "mesh-a-cni-cilium" (cluster "mesh-a")'s Cilium cluster id; ${ID_FIX}`,
        },
        {
          urn: "urn:mesh-c-cni-cilium",
          message:
            'kubernetes:helm.sh/v3:Release "mesh-c-cni-cilium" (cluster "mesh-a") joins a Cilium ClusterMesh with values.cluster.name "mesh-a", which is also the name of kubernetes:helm.sh/v3:Release "mesh-a-cni-cilium" (cluster "mesh-a"); give every cluster its own name',
        },
      ],
    );
  });

  it("stays silent for distinct members, releases outside the mesh, other charts and unknown values", () => {
    assert.deepStrictEqual(
      duplicateMeshClusters([release("a", member("mesh-a", 11)), release("b", member("mesh-b", 12))]),
      [],
    );
    assert.deepStrictEqual(
      duplicateMeshClusters([release("a", member("mesh-a", 11)), release("b", { cluster: { name: "plain", id: 11 } })]),
      [],
      "a Cilium release without the clustermesh-apiserver is no member",
    );
    assert.deepStrictEqual(
      duplicateMeshClusters([
        release("a", member("mesh-a", 11)),
        release("b", member("mesh-b", 11), "./iris-operator"),
      ]),
      [],
    );
    assert.deepStrictEqual(
      duplicateMeshClusters([
        release("a", member("mesh-a", 11)),
        release("b", { cluster: { name: "mesh-b", id: UNKNOWN }, clustermesh: { useAPIServer: true } }),
      ]),
      [],
    );
    assert.deepStrictEqual(
      duplicateMeshClusters([
        release("a", member("mesh-a", 11)),
        { ...release("b", member("mesh-b", 11)), type: "kubernetes:core/v1:ConfigMap" },
      ]),
      [],
    );
  });
});

describe("unit: a cluster's pod subnet and kube-proxy replacement (pure)", () => {
  const kind = (kubeProxyMode: "iptables" | "none", podSubnet?: string) => ({ workers: 1, kubeProxyMode, podSubnet });
  it("a kind cluster without podSubnet has kind's default; an existing one has none known; a given one wins", () => {
    assert.strictEqual(clusterPodSubnet({ source: "kind", kind: kind("iptables") }), "10.244.0.0/16");
    assert.strictEqual(clusterPodSubnet({ source: "kubeconfig", kind: kind("iptables") }), undefined);
    assert.strictEqual(
      clusterPodSubnet({ source: "kubeconfig", kind: kind("iptables", "10.9.0.0/16") }),
      "10.9.0.0/16",
    );
    assert.strictEqual(clusterPodSubnet({ source: "kind", kind: kind("iptables", "10.8.0.0/16") }), "10.8.0.0/16");
  });
  it("Cilium replaces kube-proxy only on a kind cluster created without it", () => {
    assert.strictEqual(replacesKubeProxy({ source: "kind", kind: kind("none") }), true);
    assert.strictEqual(replacesKubeProxy({ source: "kind", kind: kind("iptables") }), false);
    assert.strictEqual(replacesKubeProxy({ source: "kubeconfig", kind: kind("none") }), false);
  });
});

describe("unit (mocks): the wfh stack with a mesh", () => {
  it("a kind cluster without kube-proxy gets Cilium's kube-proxy replacement, the other not; a given mesh address is the peer's", async () => {
    const n = registered.length;
    const cfg = validateWfhConfig(
      wfh({
        home: { name: "kp-a", podSubnet: "10.245.0.0/16", kubeProxyMode: "none", cilium: { clusterId: 21 } },
        work: { name: "kp-b", podSubnet: "10.246.0.0/16", cilium: { clusterId: 22 } },
        mesh: { clusters: ["kp-a", { name: "kp-b", address: "172.18.0.9", nodePort: 32380 }] },
      }),
    );
    wfhStack(cfg, { secrets: {} });
    await new Promise((r) => setTimeout(r, 1500));
    await settle();
    const mine = registered.slice(n);
    const values = (name: string) =>
      one(mine, "kubernetes:helm.sh/v3:Release", `${name}-cni-cilium`).inputs.values as Record<string, unknown>;
    assert.strictEqual(values("kp-a").kubeProxyReplacement, true);
    assert.strictEqual(values("kp-a").k8sServiceHost, "kp-a-control-plane");
    assert.strictEqual(values("kp-b").kubeProxyReplacement, undefined);
    assert.deepStrictEqual(
      values("kp-a").clustermesh,
      clusterMeshValues({ nodePort: 32379, peers: [{ name: "kp-b", address: "172.18.0.9", port: 32380 }] }),
    );
    assert.deepStrictEqual(
      values("kp-b").clustermesh,
      clusterMeshValues({ nodePort: 32380, peers: [{ name: "kp-a", address: "kp-a-control-plane", port: 32379 }] }),
    );
  });

  it("declares the ClusterMesh between home and work, each Cilium release with the other as its peer, after its Secrets", async () => {
    const n = registered.length;
    const cfg = validateWfhConfig(
      wfh({
        home: { name: "wm-a", podSubnet: "10.245.0.0/16", cilium: { clusterId: 11 } },
        work: { name: "wm-b", podSubnet: "10.246.0.0/16", cilium: { clusterId: 12 } },
        mesh: { clusters: ["wm-a", "wm-b"] },
      }),
    );
    const out = wfhStack(cfg, { secrets: {} });
    assert.deepStrictEqual(out.clusterMesh?.members, ["wm-a", "wm-b"]);
    await new Promise((r) => setTimeout(r, 1500));
    await settle();
    const mine = registered.slice(n);
    one(mine, "iko-plus:cilium:ClusterMesh", "mesh");
    const relA = one(mine, "kubernetes:helm.sh/v3:Release", "wm-a-cni-cilium");
    assert.deepStrictEqual(
      (relA.inputs.values as Record<string, unknown>).clustermesh,
      clusterMeshValues({ nodePort: 32379, peers: [{ name: "wm-b", address: "wm-b-control-plane", port: 32379 }] }),
    );
    assert.ok(
      relA.dependencies.some((d) => d.endsWith("::mesh-wm-a-remote-cert")),
      "home's release waits for its remote certificate Secret",
    );
    assert.strictEqual(
      mine.filter((r) => r.type === "kubernetes:core/v1:Secret" && r.name.startsWith("mesh-")).length,
      8,
    );
    // The mesh is ready only once each member's agents hold the other's probe backends: a global
    // probe Service on each member after its Cilium, then the wait, which IKO's release waits for.
    for (const member of ["wm-a", "wm-b"]) {
      const probe = one(mine, "kubernetes:core/v1:Service", `mesh-${member}-probe`);
      assert.deepStrictEqual(probe.inputs.metadata, {
        name: "iko-plus-mesh-probe",
        namespace: "kube-system",
        labels: { "app.kubernetes.io/managed-by": "iko-plus" },
        annotations: { "service.cilium.io/global": "true" },
      });
      assert.ok(
        probe.dependencies.some((d) => d.endsWith(`::${member}-cni-cilium`)),
        `${member}'s probe after its Cilium`,
      );
    }
    const ready = one(mine, "pulumi-nodejs:dynamic/iko-plus-cilium:ClusterMeshReady", "mesh-ready");
    assert.deepStrictEqual(
      ready.dependencies
        .filter((d) => d.includes("-probe"))
        .map((d) => d.replace(/.*::/, ""))
        .sort(),
      ["mesh-wm-a-probe", "mesh-wm-b-probe"],
    );
    assert.strictEqual(ready.inputs.timeoutSeconds, 300, "mesh.readyTimeoutSeconds' default");
    const members = unwrapSecret(ready.inputs.members);
    assert.strictEqual(members.secret, true, "the members' credentials are secret");
    assert.deepStrictEqual(
      (members.value as { name: string }[]).map((m) => m.name),
      ["wm-a", "wm-b"],
    );
    const ikoRelease = mine.find((r) => r.type === "kubernetes:helm.sh/v3:Release" && r.name.startsWith("iko"));
    assert.ok(ikoRelease, "IKO's release is declared");
    assert.ok(
      ikoRelease.dependencies.some((d) => d.endsWith("::mesh-ready")),
      `IKO's release waits for the mesh: ${ikoRelease.dependencies.join(", ")}`,
    );
    // Without mesh: no ClusterMesh, no clustermesh values.
    const m = registered.length;
    const plain = wfhStack(
      validateWfhConfig(
        wfh({ home: { name: "wp-a", podSubnet: "10.245.0.0/16" }, work: { name: "wp-b", podSubnet: "10.246.0.0/16" } }),
      ),
      { secrets: {} },
    );
    assert.strictEqual(plain.clusterMesh, undefined);
    await new Promise((r) => setTimeout(r, 1500));
    const rel = one(registered.slice(m), "kubernetes:helm.sh/v3:Release", "wp-a-cni-cilium");
    assert.strictEqual((rel.inputs.values as Record<string, unknown>).clustermesh, undefined);
  });
});
