/**
 * unit (pure + mocks): KarmadaMember in Pull mode — karmada-agent's manifests and RBAC, the
 * secret-ness of its credentials, the order of its resources, the `join.syncMode` config key —
 * and a Push member registering exactly what it did before Pull mode existed.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import {
  FAKE_CA,
  Registered,
  fakeKubeconfig,
  fakeToken,
  installMocks,
  one,
  resolve,
  settle,
  unwrapSecret,
} from "./mocks";

const registered: Registered[] = installMocks();
import { ExistingCluster } from "../../components/cluster";
import {
  KarmadaControlPlane,
  KarmadaMember,
  agentDeployment,
  agentKarmadaRbac,
  agentKubeconfig,
  agentMemberClusterRole,
  checkKarmadaMemberArgs,
  helmAgentServer,
  helmAgentTlsServerName,
  memberClusterRoleRules,
  pullClusterObject,
} from "../../components/karmada";
import { ConfigError, fleetStack, validateConfig } from "../../stacks";

const since = (n: number) => registered.slice(n);
const SNAPSHOT = path.resolve(__dirname, "../fixtures/karmada-push-member.json");
const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");

function kubeconfigFile(name: string, server: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), `iko-${name}-`)), "kubeconfig");
  fs.writeFileSync(file, fakeKubeconfig(name, server));
  return file;
}

/** Every string in `v` outside secret-wrapped parts (what a plaintext leak into state would be). */
function plainStrings(v: unknown, out: string[] = []): string[] {
  if (unwrapSecret(v).secret) return out;
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) plainStrings(x, out);
  else if (v && typeof v === "object") for (const x of Object.values(v)) plainStrings(x, out);
  return out;
}

/** A registration as the Push snapshot records it: type, name, inputs, provider and dependencies by name. */
function record(r: Registered): Record<string, unknown> {
  const short = (u: string) => u.split("::").slice(-2).join("::");
  // The dynamic provider's serialized code is left out: it is works-provider.ts, not a manifest.
  const inputs = { ...r.inputs };
  delete inputs.__provider;
  return {
    type: r.type,
    name: r.name,
    inputs,
    provider: short(r.provider),
    parent: short(r.parent),
    dependencies: r.dependencies.map(short).sort(),
  };
}

describe("unit (pure): karmada-agent manifests of a Pull join", () => {
  it("the agent's RBAC in the Karmada API: its own Cluster and status, its Works, its lease, nothing else named", () => {
    const sa = [{ kind: "ServiceAccount", name: "karmada-agent-pull-member", namespace: "karmada-cluster" }];
    assert.deepStrictEqual(agentKarmadaRbac("pull-member"), {
      clusterRole: {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        metadata: { name: "system:karmada:pull-member:agent" },
        rules: [
          {
            apiGroups: ["cluster.karmada.io"],
            resources: ["clusters"],
            resourceNames: ["pull-member"],
            verbs: ["get"],
          },
          { apiGroups: ["cluster.karmada.io"], resources: ["clusters"], verbs: ["list", "watch"] },
          {
            apiGroups: ["cluster.karmada.io"],
            resources: ["clusters/status"],
            resourceNames: ["pull-member"],
            verbs: ["update"],
          },
          {
            apiGroups: ["config.karmada.io"],
            resources: ["resourceinterpreterwebhookconfigurations", "resourceinterpretercustomizations"],
            verbs: ["get", "list", "watch"],
          },
          { apiGroups: [""], resources: ["namespaces"], verbs: ["get"] },
          { apiGroups: [""], resources: ["services"], verbs: ["list", "watch"] },
          { apiGroups: [""], resources: ["events"], verbs: ["create", "patch", "update"] },
        ],
      },
      clusterRoleBinding: {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: "system:karmada:pull-member:agent" },
        roleRef: {
          apiGroup: "rbac.authorization.k8s.io",
          kind: "ClusterRole",
          name: "system:karmada:pull-member:agent",
        },
        subjects: sa,
      },
      roles: [
        {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "Role",
          metadata: { name: "system:karmada:pull-member:agent-work", namespace: "karmada-es-pull-member" },
          rules: [
            {
              apiGroups: ["work.karmada.io"],
              resources: ["works"],
              verbs: ["get", "create", "list", "watch", "update", "delete"],
            },
            { apiGroups: ["work.karmada.io"], resources: ["works/status"], verbs: ["patch", "update"] },
          ],
        },
        {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "Role",
          metadata: { name: "system:karmada:pull-member:agent-lease", namespace: "karmada-cluster" },
          rules: [
            { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] },
            {
              apiGroups: ["coordination.k8s.io"],
              resources: ["leases"],
              resourceNames: ["pull-member"],
              verbs: ["get", "update"],
            },
          ],
        },
      ],
      roleBindings: [
        {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "RoleBinding",
          metadata: { name: "system:karmada:pull-member:agent-work", namespace: "karmada-es-pull-member" },
          roleRef: {
            apiGroup: "rbac.authorization.k8s.io",
            kind: "Role",
            name: "system:karmada:pull-member:agent-work",
          },
          subjects: sa,
        },
        {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "RoleBinding",
          metadata: { name: "system:karmada:pull-member:agent-lease", namespace: "karmada-cluster" },
          roleRef: {
            apiGroup: "rbac.authorization.k8s.io",
            kind: "Role",
            name: "system:karmada:pull-member:agent-lease",
          },
          subjects: sa,
        },
      ],
    });
    const all = JSON.stringify(agentKarmadaRbac("pull-member"));
    for (const never of ["secrets", "certificatesigningrequests", '"delete"]', '"*"'])
      assert.ok(!all.includes(`"resources":[${never}`) && !all.includes(`"verbs":[${never}`), `no ${never}`);
  });

  it("the agent on the member: register's Deployment with our flags, the push join's scoped ClusterRole, not `*`", () => {
    const d = agentDeployment({
      cluster: "pull-member",
      image: "docker.io/karmada/karmada-agent:v1.16.0",
      apiEndpoint: "https://pull-member-control-plane:6443",
      provider: "kind",
      zones: ["a", "b"],
    });
    assert.deepStrictEqual(d, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "karmada-agent", namespace: "karmada-cluster", labels: { app: "karmada-agent" } },
      spec: {
        replicas: 1,
        strategy: { type: "Recreate" },
        selector: { matchLabels: { app: "karmada-agent" } },
        template: {
          metadata: { labels: { app: "karmada-agent" } },
          spec: {
            serviceAccountName: "karmada-agent-sa",
            containers: [
              {
                name: "karmada-agent",
                image: "docker.io/karmada/karmada-agent:v1.16.0",
                command: [
                  "/bin/karmada-agent",
                  "--karmada-kubeconfig=/etc/kubeconfig/karmada-kubeconfig",
                  "--cluster-name=pull-member",
                  "--cluster-api-endpoint=https://pull-member-control-plane:6443",
                  "--cluster-provider=kind",
                  "--cluster-zones=a,b",
                  "--controllers=*",
                  "--cluster-namespace=karmada-cluster",
                  "--report-secrets=None",
                  "--leader-elect=false",
                  "--cluster-status-update-frequency=10s",
                  "--metrics-bind-address=:8080",
                  "--health-probe-bind-address=0.0.0.0:10357",
                  "--v=2",
                ],
                ports: [{ name: "metrics", containerPort: 8080, protocol: "TCP" }],
                livenessProbe: {
                  httpGet: { path: "/healthz", port: 10357, scheme: "HTTP" },
                  failureThreshold: 3,
                  initialDelaySeconds: 15,
                  periodSeconds: 15,
                  timeoutSeconds: 5,
                },
                volumeMounts: [{ name: "kubeconfig", mountPath: "/etc/kubeconfig", readOnly: true }],
              },
            ],
            volumes: [{ name: "kubeconfig", secret: { secretName: "karmada-kubeconfig" } }],
            tolerations: [{ key: "node-role.kubernetes.io/control-plane", operator: "Exists", effect: "NoSchedule" }],
          },
        },
      },
    });
    assert.deepStrictEqual(agentMemberClusterRole().rules, memberClusterRoleRules("scoped"));
    assert.deepStrictEqual(agentMemberClusterRole("cluster-admin").rules, memberClusterRoleRules("cluster-admin"));
  });

  it("the agent's kubeconfig, the Pull Cluster (what the agent's registration writes, plus labels) and the Helm server for agents", () => {
    assert.deepStrictEqual(
      JSON.parse(
        agentKubeconfig({
          cluster: "m",
          server: "https://h:32301",
          caData: "Q0E=",
          token: "t0k",
          tlsServerName: "karmada-apiserver.karmada-host.svc",
        }),
      ),
      {
        apiVersion: "v1",
        kind: "Config",
        clusters: [
          {
            name: "karmada-apiserver",
            cluster: {
              server: "https://h:32301",
              "certificate-authority-data": "Q0E=",
              "tls-server-name": "karmada-apiserver.karmada-host.svc",
            },
          },
        ],
        users: [{ name: "karmada-agent-m", user: { token: "t0k" } }],
        contexts: [{ name: "karmada-agent-m", context: { cluster: "karmada-apiserver", user: "karmada-agent-m" } }],
        "current-context": "karmada-agent-m",
      },
    );
    assert.ok(
      !(
        "tls-server-name" in
        JSON.parse(agentKubeconfig({ cluster: "m", server: "https://h:1", caData: "", token: "" })).clusters[0].cluster
      ),
    );
    assert.deepStrictEqual(
      pullClusterObject({
        name: "m",
        apiEndpoint: "https://m:6443",
        id: "uid",
        provider: "kind",
        region: "r",
        zones: ["z"],
        labels: { role: "pull" },
      }),
      {
        apiVersion: "cluster.karmada.io/v1alpha1",
        kind: "Cluster",
        metadata: { name: "m", labels: { role: "pull" } },
        spec: {
          syncMode: "Pull",
          apiEndpoint: "https://m:6443",
          id: "uid",
          provider: "kind",
          region: "r",
          zones: ["z"],
        },
      },
    );
    assert.deepStrictEqual(pullClusterObject({ name: "m", apiEndpoint: "https://m:6443", id: "uid" }).spec, {
      syncMode: "Pull",
      apiEndpoint: "https://m:6443",
      id: "uid",
    });
    assert.strictEqual(
      helmAgentServer("https://pull-host-control-plane:6443", 32301),
      "https://pull-host-control-plane:32301",
    );
    assert.strictEqual(helmAgentTlsServerName("karmada-host"), "karmada-apiserver.karmada-host.svc");
  });

  it("checkKarmadaMemberArgs: syncMode Push or Pull, a pinned agent image, agent fields only in Pull mode", () => {
    assert.deepStrictEqual(
      checkKarmadaMemberArgs({
        syncMode: "Pull",
        agentImage: "docker.io/karmada/karmada-agent:v1.16.0",
        agentTlsServerName: "x",
        agentKarmadaServer: "https://h:1",
      }),
      [],
    );
    assert.deepStrictEqual(checkKarmadaMemberArgs({ syncMode: "Push" }), []);
    assert.deepStrictEqual(checkKarmadaMemberArgs({ syncMode: "pull" as "Pull" }), [
      ["syncMode", "pull", "is not a sync mode; use one of: Push, Pull"],
    ]);
    assert.deepStrictEqual(
      checkKarmadaMemberArgs({ syncMode: "Pull", agentImage: "docker.io/karmada/karmada-agent" }),
      [
        [
          "agentImage",
          "docker.io/karmada/karmada-agent",
          'has no tag; pin a version, e.g. ":2025.1" (an untagged image means latest)',
        ],
      ],
    );
    assert.deepStrictEqual(
      checkKarmadaMemberArgs({ agentImage: "docker.io/karmada/karmada-agent:v1.16.0", agentTlsServerName: "x" }),
      [
        [
          "agentImage",
          "docker.io/karmada/karmada-agent:v1.16.0",
          'is only used in Pull mode; set syncMode to "Pull" or remove it',
        ],
        ["agentTlsServerName", "x", 'is only used in Pull mode; set syncMode to "Pull" or remove it'],
      ],
    );
  });
});

describe("unit (mocks): KarmadaMember in Pull mode", () => {
  it("declares the agent's credential, RBAC and Cluster in Karmada and the agent on the member, every credential secret, in the safe order", async () => {
    const n = registered.length;
    const karmada = new KarmadaControlPlane("kpull", {
      existing: { kubeconfigPath: kubeconfigFile("karmada", "https://127.0.0.1:5443") },
    });
    const member = new ExistingCluster("pull-member", {
      kubeconfigPath: kubeconfigFile("pull-member", "https://127.0.0.1:7443"),
    });
    const m = new KarmadaMember("pull-member-member", {
      karmada,
      member,
      syncMode: "Pull",
      provider: "kind",
      labels: { role: "pull" },
      agentKarmadaServer: "https://pull-host-control-plane:32301",
      agentTlsServerName: "karmada-apiserver.karmada-host.svc",
      propagated: [{ kind: "Secret", namespace: "default", name: "s" }],
    });
    await settle(m, m.cluster, m.worksGone, karmada.provider, member.provider);
    await new Promise((r) => setTimeout(r, 200));
    const mine = since(n).filter((r) => r.name.startsWith("pull-member-member-"));
    const kp = (await resolve(karmada.provider.urn)).value;
    const mp = (await resolve(member.provider.urn)).value;
    const where = (r: Registered) =>
      r.provider.startsWith(kp) ? "karmada" : r.provider.startsWith(mp) ? "member" : r.provider;
    assert.deepStrictEqual(
      mine
        .map((r) => `${where(r)} ${r.type.replace(/^kubernetes:/, "")} ${r.name.replace("pull-member-member-", "")}`)
        .sort(),
      [
        "karmada cluster.karmada.io/v1alpha1:Cluster cluster",
        "karmada core/v1:Namespace execution-ns",
        "karmada core/v1:Secret agent-token",
        "karmada core/v1:ServiceAccount agent-sa",
        "karmada rbac.authorization.k8s.io/v1:ClusterRole agent-role",
        "karmada rbac.authorization.k8s.io/v1:ClusterRoleBinding agent-binding",
        "karmada rbac.authorization.k8s.io/v1:Role agent-lease-role",
        "karmada rbac.authorization.k8s.io/v1:Role agent-work-role",
        "karmada rbac.authorization.k8s.io/v1:RoleBinding agent-lease-binding",
        "karmada rbac.authorization.k8s.io/v1:RoleBinding agent-work-binding",
        "member apps/v1:Deployment agent",
        "member core/v1:Namespace kube-system",
        "member core/v1:Namespace member-ns",
        "member core/v1:Secret agent-kubeconfig",
        "member core/v1:ServiceAccount agent-member-sa",
        "member rbac.authorization.k8s.io/v1:ClusterRole agent-member-role",
        "member rbac.authorization.k8s.io/v1:ClusterRoleBinding agent-member-binding",
        " pulumi-nodejs:dynamic/iko-plus-karmada:MemberWorksGone works-gone",
        " pulumi-nodejs:dynamic/iko-plus-karmada:PullMemberRelease release",
      ].sort(),
    );
    assert.ok(
      !mine.some((r) => r.name.endsWith("-karmada-secret") || r.name.endsWith("-impersonator-sa")),
      "no push credentials: Karmada never calls the member",
    );
    const cluster = one(mine, "kubernetes:cluster.karmada.io/v1alpha1:Cluster", "pull-member-member-cluster");
    assert.deepStrictEqual(cluster.inputs.spec, {
      syncMode: "Pull",
      apiEndpoint: "https://127.0.0.1:7443",
      id: "uid-of-pull-member-member-kube-system",
      provider: "kind",
    });
    assert.deepStrictEqual(
      cluster.inputs.metadata,
      { name: "pull-member", labels: { role: "pull" } },
      "labels for placement, as a pushed member has",
    );
    const kubeconfigSecret = one(mine, "kubernetes:core/v1:Secret", "pull-member-member-agent-kubeconfig");
    const stringData = unwrapSecret(kubeconfigSecret.inputs.stringData);
    assert.ok(stringData.secret, "the agent's kubeconfig is a Pulumi secret from the start");
    const kc = JSON.parse(
      unwrapSecret((stringData.value as Record<string, unknown>)["karmada-kubeconfig"]).value as string,
    );
    assert.deepStrictEqual(kc.clusters[0].cluster, {
      server: "https://pull-host-control-plane:32301",
      "certificate-authority-data": FAKE_CA,
      "tls-server-name": "karmada-apiserver.karmada-host.svc",
    });
    // Each ServiceAccount has its own token (mocks): the agent's kubeconfig carries its own one.
    const agentToken = fakeToken("karmada-cluster", "karmada-agent-pull-member");
    assert.deepStrictEqual(kc.users[0].user, { token: agentToken });
    const b64 = Buffer.from(agentToken).toString("base64");
    for (const r of mine)
      for (const s of plainStrings(r.inputs))
        assert.ok(!s.includes(agentToken) && !s.includes(b64), `no plaintext token in ${r.name}`);
    assert.ok(
      unwrapSecret(
        one(mine, "pulumi-nodejs:dynamic/iko-plus-karmada:MemberWorksGone", "pull-member-member-works-gone").inputs
          .karmada,
      ).secret,
      "the unjoin's Karmada credentials are secret",
    );
    const token = one(mine, "kubernetes:core/v1:Secret", "pull-member-member-agent-token");
    assert.deepStrictEqual(
      [token.inputs.type, token.inputs.metadata],
      [
        "kubernetes.io/service-account-token",
        {
          name: "karmada-agent-pull-member",
          namespace: "karmada-cluster",
          annotations: { "kubernetes.io/service-account.name": "karmada-agent-pull-member" },
        },
      ],
    );
    const deps = (name: string) =>
      (mine.find((r) => r.name === name)?.dependencies ?? []).map((d) => d.split("::").pop());
    const agentDeps = deps("pull-member-member-agent");
    for (const d of [
      "agent-kubeconfig",
      "agent-member-binding",
      "cluster",
      "agent-binding",
      "agent-work-binding",
      "agent-lease-binding",
    ]) {
      assert.ok(
        agentDeps.includes(`pull-member-member-${d}`),
        `the agent starts after ${d} (and goes before it): ${agentDeps.join(" ")}`,
      );
    }
    // The release goes after the unjoin wait on destroy (it depends on the Cluster, the wait on it),
    // and its Karmada credentials are secret.
    assert.deepStrictEqual(deps("pull-member-member-release"), ["pull-member-member-cluster"]);
    // A new member cluster (a new identity) replaces it, which releases the old Cluster first.
    assert.strictEqual(
      one(mine, "pulumi-nodejs:dynamic/iko-plus-karmada:PullMemberRelease", "pull-member-member-release").inputs
        .memberIdentity,
      "pull-member@ca-sha256:1375aebc80b48e1e",
    );
    assert.ok(
      unwrapSecret(
        one(mine, "pulumi-nodejs:dynamic/iko-plus-karmada:PullMemberRelease", "pull-member-member-release").inputs
          .karmada,
      ).secret,
    );
    const waitDeps = deps("pull-member-member-works-gone");
    assert.ok(waitDeps.includes("pull-member-member-release"), `the wait goes first: ${waitDeps.join(" ")}`);
    assert.ok(
      waitDeps.includes("pull-member-member-agent") && waitDeps.includes("pull-member-member-cluster"),
      "the works-gone wait is deleted before the agent (which removes the Works) and the Cluster",
    );
    assert.ok(
      deps("pull-member-member-cluster").includes("pull-member-member-execution-ns"),
      "the Cluster after its execution namespace (deleted before it)",
    );
    const dep = one(mine, "kubernetes:apps/v1:Deployment", "pull-member-member-agent");
    assert.strictEqual(
      (dep.inputs.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0]
        .image,
      "docker.io/karmada/karmada-agent:v1.18.2",
    );
  });

  it("a Push member registers exactly what it did before Pull mode (snapshot from the previous commit's code)", async () => {
    const n = registered.length;
    const karmada = new KarmadaControlPlane("kpush", {
      existing: { kubeconfigPath: kubeconfigFile("karmada", "https://127.0.0.1:5443") },
    });
    const member = new ExistingCluster("push-member", {
      kubeconfigPath: kubeconfigFile("push-member", "https://127.0.0.1:7443"),
    });
    const m = new KarmadaMember("push-member-member", {
      karmada,
      member,
      provider: "kind",
      region: "local",
      zones: ["a"],
      labels: { tier: "primary" },
      propagated: [{ kind: "Secret", namespace: "default", name: "s" }],
    });
    await settle(m, m.cluster, m.worksGone);
    await new Promise((r) => setTimeout(r, 200));
    const mine = since(n)
      .filter((r) => r.name.startsWith("push-member-member-"))
      .map(record)
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    // Paths differ from run to run (a temp kubeconfig folder): only the works-gone wait holds one, inside its secret credentials.
    const text = JSON.stringify(mine, null, 1).replace(/\/tmp\/iko-[^"]*/g, "<tmp>");
    if (process.env.IKO_WRITE_PUSH_SNAPSHOT) fs.writeFileSync(SNAPSHOT, text + "\n");
    assert.strictEqual(text + "\n", fs.readFileSync(SNAPSHOT, "utf8"));
  });
});

/** A Push join's objects on the member, by resource name suffix, in the order the join declares them. */
const PUSH_MEMBER_SIDE = [
  "member-ns",
  "member-sa",
  "impersonator-sa",
  "member-role",
  "member-binding",
  "member-token",
  "impersonator-token",
];

describe("unit (mocks): a join's prerequisites declared after its objects on the member", () => {
  for (const syncMode of ["Push", "Pull"] as const) {
    it(`${syncMode}: a function dependsOn gets the join's objects on the member; the Cluster waits for what it returns`, async () => {
      const n = registered.length;
      const tag = syncMode.toLowerCase();
      const karmada = new KarmadaControlPlane(`kpre${tag}`, {
        existing: { kubeconfigPath: kubeconfigFile("karmada", "https://127.0.0.1:5443") },
      });
      const member = new ExistingCluster(`pre${tag}`, {
        kubeconfigPath: kubeconfigFile(`pre${tag}`, "https://127.0.0.1:7443"),
      });
      let given: string[] = [];
      const m = new KarmadaMember(`pre${tag}-member`, {
        karmada,
        member,
        syncMode,
        dependsOn: (memberSide) => {
          given = memberSide.map((r) => (r as unknown as { __name: string }).__name);
          return [
            new ExistingCluster(`pre${tag}-marker`, { kubeconfigPath: kubeconfigFile("m", "https://127.0.0.1:8443") }),
          ];
        },
      });
      await settle(m, m.cluster);
      await new Promise((r) => setTimeout(r, 200));
      const names = (suffixes: string[]) => suffixes.map((x) => `pre${tag}-member-${x}`);
      assert.deepStrictEqual(
        given,
        syncMode === "Push"
          ? names(PUSH_MEMBER_SIDE)
          : names(["member-ns", "agent-kubeconfig", "agent-member-sa", "agent-member-role", "agent-member-binding"]),
      );
      const cluster = one(since(n), "kubernetes:cluster.karmada.io/v1alpha1:Cluster", `pre${tag}-member-cluster`);
      assert.ok(
        cluster.dependencies.some((d) => d.endsWith(`::pre${tag}-marker-k8s`)),
        `the Cluster waits for the prerequisite: ${cluster.dependencies.join(" ")}`,
      );
    });
  }
  it("the fleet stack declares each member's IrisCluster CRD after the join's objects on the member, and joins after it", async () => {
    const n = registered.length;
    const cfg = validateConfig(
      {
        program: "fleet",
        clusters: [
          {
            name: "crdlast",
            kubeconfigPath: kubeconfigFile("crdlast", "https://127.0.0.1:9443"),
            iko: false,
            join: { provider: "kind" },
          },
        ],
        karmada: { mode: "existing", kubeconfigPath: kubeconfigFile("karmada", "https://127.0.0.1:5443") },
        iko: { chartPath: CHART, crdManifestPath: CRD },
      },
      [],
    );
    if (cfg.program !== "fleet") throw new Error("fleet");
    fleetStack(cfg, { secrets: {}, secretObjects: {} });
    await new Promise((r) => setTimeout(r, 500));
    const mine = since(n);
    const deps = (type: string, name: string) => one(mine, type, name).dependencies.map((d) => d.split("::").pop());
    const crdDeps = deps("kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition", "crdlast-iriscluster-crd-crd");
    for (const x of PUSH_MEMBER_SIDE)
      assert.ok(crdDeps.includes(`crdlast-member-${x}`), `the CRD after ${x}: ${crdDeps.join(" ")}`);
    assert.ok(
      deps("kubernetes:cluster.karmada.io/v1alpha1:Cluster", "crdlast-member-cluster").includes(
        "crdlast-iriscluster-crd-crd",
      ),
      "the join waits for the CRD",
    );
  });
});

describe("unit: the join.syncMode config key", () => {
  const fleet = (join: unknown): Record<string, unknown> => ({
    program: "fleet",
    clusters: [
      { name: "pull-host", cilium: { enabled: false } },
      { name: "pull-member", cilium: { enabled: false }, join },
    ],
    karmada: { mode: "helm", host: "pull-host", endpoint: "https://127.0.0.1:32301", nodePort: 32301 },
    iko: { chartPath: CHART, crdManifestPath: CRD },
  });
  const problems = (join: unknown) => {
    try {
      validateConfig(fleet(join), []);
      return [];
    } catch (e) {
      if (e instanceof ConfigError)
        return e.message
          .split("\n")
          .filter((l) => l.includes("iko-plus:"))
          .map((l) => l.trim().replace(/^- /, ""));
      throw e;
    }
  };
  it("Push by default, Pull when set, with an agent image", () => {
    const cfg = validateConfig(fleet({ provider: "kind" }), []);
    if (cfg.program !== "fleet") throw new Error("fleet");
    assert.strictEqual(cfg.clusters[1].join?.syncMode, "Push");
    const pull = validateConfig(fleet({ syncMode: "Pull", agentImage: "docker.io/karmada/karmada-agent:v1.16.0" }), []);
    if (pull.program !== "fleet") throw new Error("fleet");
    assert.deepStrictEqual(
      [pull.clusters[1].join?.syncMode, pull.clusters[1].join?.agentImage],
      ["Pull", "docker.io/karmada/karmada-agent:v1.16.0"],
    );
  });
  it("reports a bad mode, an unpinned agent image and an agent image on a Push member under their keys", () => {
    assert.deepStrictEqual(problems({ syncMode: "pull" }), [
      'iko-plus:clusters[1].join.syncMode: "pull" is not allowed; use one of: Push, Pull',
    ]);
    assert.deepStrictEqual(problems({ syncMode: "Pull", agentImage: "docker.io/karmada/karmada-agent" }), [
      'iko-plus:clusters[1].join.agentImage: "docker.io/karmada/karmada-agent" has no tag; pin a version, e.g. ":2025.1" (an untagged image means latest)',
    ]);
    assert.deepStrictEqual(problems({ agentImage: "docker.io/karmada/karmada-agent:v1.16.0" }), [
      'iko-plus:clusters[1].join.agentImage: "docker.io/karmada/karmada-agent:v1.16.0" is only used in Pull mode; set syncMode to "Pull" or remove it',
    ]);
  });
  it("unit (mocks): the fleet stack gives a Pull member's agent the host node at the NodePort, checked for the Service name", async () => {
    const { fleetStack } = await import("../../stacks");
    const cfg = validateConfig(fleet({ syncMode: "Pull", labels: { role: "pull" } }), []);
    if (cfg.program !== "fleet") throw new Error("fleet");
    const n = registered.length;
    const out = fleetStack(cfg, { secrets: {}, secretObjects: {} });
    await new Promise((r) => setTimeout(r, 500));
    const mine = since(n);
    const secret = one(mine, "kubernetes:core/v1:Secret", "pull-member-member-agent-kubeconfig");
    const kc = JSON.parse(
      unwrapSecret((unwrapSecret(secret.inputs.stringData).value as Record<string, unknown>)["karmada-kubeconfig"])
        .value as string,
    );
    assert.deepStrictEqual(
      [kc.clusters[0].cluster.server, kc.clusters[0].cluster["tls-server-name"]],
      ["https://pull-host-control-plane:32301", "karmada-apiserver.karmada-host.svc"],
    );
    assert.ok(secret.provider.includes("::pull-member-k8s::"));
    assert.strictEqual(
      (
        one(mine, "kubernetes:cluster.karmada.io/v1alpha1:Cluster", "pull-member-member-cluster").inputs.spec as {
          syncMode: string;
        }
      ).syncMode,
      "Pull",
    );
    assert.deepStrictEqual(out.joinedMembers, ["pull-member"]);
    await pulumi.output(out.karmadaKubeconfig).apply(() => undefined);
  });
  it("karmada.agentServer (and agentTlsServerName) point agents elsewhere, e.g. at an existing Karmada; a bad one is reported", async () => {
    const { fleetStack } = await import("../../stacks");
    const raw: Record<string, unknown> = {
      ...fleet({ syncMode: "Pull" }),
      karmada: {
        mode: "existing",
        kubeconfigPath: kubeconfigFile("karmada", "https://127.0.0.1:5443"),
        agentServer: "https://karmada.example:443",
      },
    };
    raw.clusters = [(raw.clusters as unknown[])[1]];
    const cfg = validateConfig(raw, []);
    if (cfg.program !== "fleet") throw new Error("fleet");
    const n = registered.length;
    fleetStack(cfg, { secrets: {}, secretObjects: {} });
    await new Promise((r) => setTimeout(r, 500));
    const secret = since(n).find((r) => r.name === "pull-member-member-agent-kubeconfig") as Registered;
    const kc = JSON.parse(
      unwrapSecret((unwrapSecret(secret.inputs.stringData).value as Record<string, unknown>)["karmada-kubeconfig"])
        .value as string,
    );
    assert.deepStrictEqual(kc.clusters[0].cluster.server, "https://karmada.example:443");
    assert.ok(!("tls-server-name" in kc.clusters[0].cluster), "no Helm Service name for another Karmada");
    let message = "";
    try {
      validateConfig({ ...raw, karmada: { ...(raw.karmada as object), agentServer: "karmada.example" } }, []);
    } catch (e) {
      message = String(e);
    }
    assert.match(
      message,
      /karmada\.agentServer: "karmada\.example" must be the Karmada API as Pull members reach it, https:\/\/<host>:<port>/,
    );
  });
});
