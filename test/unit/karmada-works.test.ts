/**
 * Destroy with a member down (issue 15, item 5): what each member's unjoin waits for (this stack's
 * objects that Karmada propagated there, and the Works still carrying them), the one message of a
 * wait that timed out, the Karmada credentials the wait uses (secret), and the order on destroy:
 * federated objects, then the wait, then the Cluster.
 */
import * as assert from "assert";
import * as https from "https";
import * as path from "path";
import {
  MemberWorksGoneInputs,
  MemberWorksGoneProvider,
  PlaceableMember,
  PropagatedObject,
  WorkLike,
  clusterReadyStatus,
  propagatedByMember,
  remainingWorks,
  waitForWorksGone,
  workNamespace,
  worksTimeoutMessage,
  worksWaitDecision,
} from "../../components/karmada";
import { KubeconfigError, kubeconfigCredentials } from "../../components/kubeconfig";
import { generateFleetCa } from "../../components/tls/ca";
import {
  Registered,
  fakeKubeconfig,
  fakeKubeconfigFiles,
  installMocks,
  registrationDelays,
  unwrapSecret,
} from "./mocks";

const registered: Registered[] = installMocks();

const MEMBERS: PlaceableMember[] = [
  { name: "ikohome", labels: { site: "home" }, region: "local" },
  { name: "ikoclone", labels: { site: "clone", dr: "yes" }, region: "local" },
  { name: "ikowork", region: "europe-west1" },
];

const work = (name: string, objects: [string, string, string][], deleting = false): WorkLike => ({
  metadata: { name, ...(deleting ? { deletionTimestamp: "2026-12-01T10:00:00Z" } : {}) },
  spec: {
    workload: { manifests: objects.map(([kind, namespace, n]) => ({ kind, metadata: { name: n, namespace } })) },
  },
});

describe("unit: destroy waits for a member's Works before its unjoin", () => {
  it("propagatedByMember: per member, the objects any placement can put there (IrisCluster, license, Secrets, ConfigMaps, fleet Secrets), sorted, once", () => {
    const got = propagatedByMember(
      MEMBERS,
      [
        {
          name: "iris-a",
          namespace: "default",
          placement: { clusterNames: ["ikohome", "ikoclone"] },
          licenseKey: true,
          secrets: ["tls-x"],
          configMaps: ["cpf"],
        },
        {
          name: "iris-dr",
          namespace: "prod",
          placement: {
            affinities: [
              { name: "primary", clusterNames: ["ikohome"] },
              { name: "dr", labels: { dr: "yes" } },
            ],
          },
          licenseKey: false,
          secrets: [],
          configMaps: [],
        },
      ],
      [
        { name: "shhhh-secret", namespace: "default", placement: { labels: { site: "clone" } } },
        { name: "tls-x", namespace: "default", placement: { clusterNames: ["ikoclone"] } },
      ],
    );
    assert.deepStrictEqual(got, {
      ikohome: [
        { kind: "ConfigMap", namespace: "default", name: "cpf" },
        { kind: "IrisCluster", namespace: "default", name: "iris-a" },
        { kind: "IrisCluster", namespace: "prod", name: "iris-dr" },
        { kind: "Secret", namespace: "default", name: "iris-a-license" },
        { kind: "Secret", namespace: "default", name: "tls-x" },
      ],
      ikoclone: [
        { kind: "ConfigMap", namespace: "default", name: "cpf" },
        { kind: "IrisCluster", namespace: "default", name: "iris-a" },
        { kind: "IrisCluster", namespace: "prod", name: "iris-dr" },
        { kind: "Secret", namespace: "default", name: "iris-a-license" },
        { kind: "Secret", namespace: "default", name: "shhhh-secret" },
        { kind: "Secret", namespace: "default", name: "tls-x" },
      ],
      ikowork: [],
    });
  });

  it("remainingWorks: the Works still carrying this stack's objects, deleting ones included; others' Works ignored", () => {
    const objects: PropagatedObject[] = [
      { kind: "Secret", namespace: "default", name: "shhhh-secret" },
      { kind: "IrisCluster", namespace: "default", name: "iris-a" },
      { kind: "Secret", namespace: "default", name: "iris-a-license" },
    ];
    const works = [
      work("shhhh-secret-5d8f", [["Secret", "default", "shhhh-secret"]], true),
      work("other-stack-secret-1a2b", [["Secret", "default", "other"]]),
      work("iris-a-7c9d", [["IrisCluster", "default", "iris-a"]]),
      work("same-name-other-ns", [["Secret", "prod", "shhhh-secret"]]),
      work("same-name-other-kind", [["ConfigMap", "default", "iris-a"]]),
      {},
    ];
    assert.deepStrictEqual(remainingWorks(works, objects), [
      { work: "iris-a-7c9d", objects: ["IrisCluster default/iris-a"], deleting: false },
      { work: "shhhh-secret-5d8f", objects: ["Secret default/shhhh-secret"], deleting: true },
    ]);
    assert.deepStrictEqual(remainingWorks(works, []), [], "nothing of this stack: nothing to wait for");
    assert.deepStrictEqual(remainingWorks([], objects), []);
    // Works as Karmada may show them half-written: no workload, manifests without metadata, no name.
    assert.deepStrictEqual(
      remainingWorks(
        [
          { spec: {} },
          { metadata: { name: "bare" }, spec: { workload: { manifests: [{}, { kind: "Secret" }] } } },
          {
            spec: {
              workload: { manifests: [{ kind: "IrisCluster", metadata: { namespace: "default", name: "iris-a" } }] },
            },
          },
        ],
        [...objects, { kind: "Secret", namespace: "", name: "" }],
      ),
      [
        { work: "", objects: ["IrisCluster default/iris-a"], deleting: false },
        { work: "bare", objects: ["Secret /"], deleting: false },
      ],
    );
    assert.strictEqual(workNamespace("ikoclone"), "karmada-es-ikoclone");
  });

  it("worksWaitDecision: done when nothing is left; a member not Ready fails after timeoutSeconds, a Ready one (Karmada's retry pending) after readyTimeoutSeconds", () => {
    const left = [{ work: "w", objects: ["Secret default/s"], deleting: true }];
    const at = (remaining: typeof left, ready: string, elapsedSeconds: number, unanswered = false) =>
      worksWaitDecision({
        remaining,
        ready,
        elapsedSeconds,
        timeoutSeconds: 120,
        readyTimeoutSeconds: 1020,
        unanswered,
      });
    assert.deepStrictEqual(
      [at([], "False", 0), at([], "True", 5000), at([], "Unknown", 10, true)],
      ["done", "done", "wait"],
    );
    assert.deepStrictEqual(
      [at(left, "Unknown", 119), at(left, "Unknown", 120), at(left, "False", 120), at(left, "absent", 121)],
      ["wait", "fail", "fail", "fail"],
    );
    assert.deepStrictEqual(
      [at(left, "True", 120), at(left, "True", 1019), at(left, "True", 1020)],
      ["wait", "wait", "fail"],
    );
    assert.deepStrictEqual(
      [at([], "True", 119, true), at([], "True", 120, true)],
      ["wait", "fail"],
      "Karmada not answering: the short limit",
    );
    assert.deepStrictEqual(
      [
        clusterReadyStatus(undefined),
        clusterReadyStatus({ status: { conditions: [{ type: "Ready", status: "False" }] } }),
        clusterReadyStatus({}),
        clusterReadyStatus({ status: { conditions: [{ type: "Offline", status: "True" }] } }),
        clusterReadyStatus({
          status: {
            conditions: [
              { type: "Offline", status: "True" },
              { type: "Ready", status: "True" },
            ],
          },
        }),
      ],
      ["absent", "False", "absent", "absent", "True"],
    );
  });

  it("worksTimeoutMessage: one message naming the member, what is left, why, and the fix", () => {
    const left = [
      { work: "iris-a-7c9d", objects: ["IrisCluster default/iris-a"], deleting: true },
      { work: "shhhh-secret-5d8f", objects: ["Secret default/shhhh-secret"], deleting: true },
    ];
    assert.strictEqual(
      worksTimeoutMessage("ikoclone", 120, left, "Unknown"),
      'member cluster "ikoclone": 2 propagated object(s) of this stack still on it after 120 s (IrisCluster default/iris-a, Secret default/shhhh-secret; ' +
        "Works karmada-es-ikoclone/iris-a-7c9d, karmada-es-ikoclone/shhhh-secret-5d8f): Karmada cannot remove them while the member is unreachable (Cluster Ready=Unknown); " +
        'bring member cluster "ikoclone" back (its API server must answer Karmada), then run destroy again; its Cluster and join Secrets stay until then, so no propagated object outlives the stack',
    );
    assert.strictEqual(
      worksTimeoutMessage("ikoclone", 1020, left.slice(1), "True"),
      'member cluster "ikoclone": 1 propagated object(s) of this stack still on it after 1020 s (Secret default/shhhh-secret; Works karmada-es-ikoclone/shhhh-secret-5d8f): ' +
        "Karmada has not removed them although the member is Ready; see karmada-controller-manager's log for karmada-es-ikoclone, then run destroy again; its Cluster and join Secrets stay until then",
    );
    assert.strictEqual(
      worksTimeoutMessage("ikoclone", 5, [], "Unknown", "https://127.0.0.1:5443: connect ECONNREFUSED 127.0.0.1:5443"),
      'member cluster "ikoclone": the Karmada API did not answer for 5 s while waiting for this stack\'s Works in karmada-es-ikoclone to go ' +
        "(https://127.0.0.1:5443: connect ECONNREFUSED 127.0.0.1:5443); bring the Karmada API back, then run destroy again",
    );
    // An object in two Works (an old one being deleted, a new one) is counted and listed once.
    const twice = [
      { work: "old", objects: ["Secret default/s"], deleting: true },
      { work: "new", objects: ["Secret default/s"], deleting: false },
    ];
    assert.match(
      worksTimeoutMessage("m", 10, twice, "False"),
      /^member cluster "m": 1 propagated object\(s\) of this stack still on it after 10 s \(Secret default\/s; Works karmada-es-m\/old, karmada-es-m\/new\)/,
    );
  });

  it("kubeconfigCredentials: embedded client certificate, token, files; exec refused with the fix", () => {
    const fake = fakeKubeconfig("karmada", "https://127.0.0.1:5443");
    const none = (f: string): string => {
      throw new Error(`read ${f}`);
    };
    assert.deepStrictEqual(kubeconfigCredentials(fake, "k", none), {
      server: "https://127.0.0.1:5443",
      insecure: false,
      ca: "FAKE-CA-PEM",
      cert: "FAKE-CERT",
      key: "FAKE-KEY",
    });
    const files = [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      "- name: c",
      "  cluster:",
      "    server: https://k:5443",
      "    certificate-authority: /ca.pem",
      "    insecure-skip-tls-verify: true",
      "contexts:",
      "- name: c",
      "  context: {cluster: c, user: u}",
      "current-context: c",
      "users:",
      "- name: u",
      "  user:",
      "    tokenFile: /token",
      "",
    ].join("\n");
    assert.deepStrictEqual(
      kubeconfigCredentials(files, "k", (f) => `${f}-contents\n`),
      { server: "https://k:5443", insecure: true, ca: "/ca.pem-contents\n", token: "/token-contents" },
    );
    const exec = files.replace(
      "    tokenFile: /token",
      "    exec: {command: gke-gcloud-auth-plugin, apiVersion: client.authentication.k8s.io/v1beta1}",
    );
    assert.throws(
      () => kubeconfigCredentials(exec, "the Karmada kubeconfig", () => "CA"),
      (e: Error) =>
        e instanceof KubeconfigError &&
        e.message ===
          'the Karmada kubeconfig: user "u" authenticates with neither a client certificate and key nor a token; give a kubeconfig with client-certificate-data/client-key-data or a token (exec plugins are not supported here)',
    );
  });
});

describe("unit: the MemberWorksGone provider against a fake Karmada API", function () {
  this.timeout(60_000);
  let server: https.Server;
  let port = 0;
  const requests: { url: string; auth: string }[] = [];
  let answers: (WorkLike[] | number)[] = [];
  let clusterReady = "Unknown";

  before(async () => {
    const ca = generateFleetCa({ keyBits: 2048, commonName: "fake karmada" });
    server = https.createServer({ cert: ca.certPem, key: ca.keyPem }, (req, res) => {
      requests.push({ url: req.url ?? "", auth: String(req.headers.authorization ?? "") });
      if (req.url === "/apis/cluster.karmada.io/v1alpha1/clusters/ikoclone") {
        res
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify({ kind: "Cluster", status: { conditions: [{ type: "Ready", status: clusterReady }] } }));
        return;
      }
      const next = answers.length > 1 ? answers.shift() : answers[0];
      if (typeof next === "number") {
        res.writeHead(next).end("{}");
      } else {
        res
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify({ kind: "WorkList", items: next ?? [] }));
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.address() as { port: number }).port;
  });
  after(() => {
    server.close();
  });

  const inputs = (timeoutSeconds: number, readyTimeoutSeconds = 30): MemberWorksGoneInputs => ({
    cluster: "ikoclone",
    timeoutSeconds,
    readyTimeoutSeconds,
    objects: [{ kind: "Secret", namespace: "default", name: "shhhh-secret" }],
    karmada: { server: `https://127.0.0.1:${port}`, insecure: true, token: "t0ken" },
  });

  it("delete returns once no Work carries the stack's objects (a 500 and a deleting Work in between)", async () => {
    requests.length = 0;
    answers = [
      [work("shhhh-secret-5d8f", [["Secret", "default", "shhhh-secret"]])],
      500,
      [work("shhhh-secret-5d8f", [["Secret", "default", "shhhh-secret"]], true)],
      [work("other-1", [["Secret", "default", "other"]])],
    ];
    await waitForWorksGone(inputs(30), 10);
    const works = "/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-ikoclone/works";
    const cluster = "/apis/cluster.karmada.io/v1alpha1/clusters/ikoclone";
    assert.deepStrictEqual(
      requests.map((r) => r.url),
      [works, cluster, works, works, cluster, works],
      "the Cluster's Ready condition is read while Works are left",
    );
    assert.ok(
      requests.every((r) => r.auth === "Bearer t0ken"),
      "the token is sent as a bearer token",
    );
  });

  it("delete fails after timeoutSeconds while the member is not Ready (the one message naming it), waits longer while it is Ready; a missing Work API (404) means nothing is left", async () => {
    answers = [[work("shhhh-secret-5d8f", [["Secret", "default", "shhhh-secret"]], true)]];
    const left = [{ work: "shhhh-secret-5d8f", objects: ["Secret default/shhhh-secret"], deleting: true }];
    const provider = new MemberWorksGoneProvider();
    clusterReady = "Unknown";
    await assert.rejects(
      provider.delete("ikoclone", inputs(1, 3)),
      (e: Error) => e.message === worksTimeoutMessage("ikoclone", 1, left, "Unknown"),
    );
    clusterReady = "True";
    const t0 = Date.now();
    await assert.rejects(
      provider.delete("ikoclone", inputs(1, 3)),
      (e: Error) => e.message === worksTimeoutMessage("ikoclone", 3, left, "True"),
    );
    assert.ok(Date.now() - t0 >= 3000, "a Ready member gets readyTimeoutSeconds");
    answers = [404];
    await provider.delete("ikoclone", inputs(1));
  });

  it("a Karmada API that does not answer: the message says so, naming the member", async () => {
    const dead = { ...inputs(1), karmada: { server: "https://127.0.0.1:1", insecure: true, token: "t" } };
    await assert.rejects(
      waitForWorksGone(dead, 100),
      (e: Error) =>
        e.message.startsWith('member cluster "ikoclone": the Karmada API did not answer for 1 s') &&
        e.message.endsWith("bring the Karmada API back, then run destroy again") &&
        !e.message.includes("t0ken"),
    );
  });

  it("create and update only record the inputs; diff sees every change, replaces only on another member", async () => {
    const p = new MemberWorksGoneProvider();
    const i = inputs(120);
    assert.deepStrictEqual(await p.create(i), { id: "ikoclone", outs: i });
    const more = { ...i, objects: [...i.objects, { kind: "IrisCluster", namespace: "default", name: "iris-a" }] };
    assert.deepStrictEqual(await p.diff("ikoclone", i, more), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepStrictEqual(await p.diff("ikoclone", i, i), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepStrictEqual(await p.diff("ikoclone", i, { ...i, cluster: "ikowork" }), {
      changes: true,
      replaces: ["cluster"],
      deleteBeforeReplace: false,
    });
    assert.deepStrictEqual(await p.update("ikoclone", i, more), { outs: more });
  });
});

describe("unit (mocks): the fleet stack orders each unjoin after its member's Works", () => {
  it("federated objects beside <member>-member-works-gone (this stack's objects, secret Karmada credentials), both before the member's Cluster", async () => {
    const { validateConfig, fleetStack } = await import("../../stacks");
    const kc = fakeKubeconfigFiles("iko-works-");
    const cfg = validateConfig(
      {
        program: "fleet",
        clusters: [
          { name: "ikohome", kubeconfigPath: kc("ikohome"), iko: false, join: { labels: { site: "home" } } },
          { name: "ikoclone", kubeconfigPath: kc("ikoclone"), iko: false, join: { labels: { site: "clone" } } },
        ],
        karmada: { mode: "existing", kubeconfigPath: kc("karmada") },
        iko: {
          chartPath: path.resolve(__dirname, "../fixtures/iko-chart/iris-operator"),
          crdManifestPath: path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml"),
        },
        federatedIrisClusters: [
          {
            name: "iris-a",
            image: "containers.intersystems.com/intersystems/iris-community:2025.1",
            placement: { clusterNames: ["ikohome", "ikoclone"] },
          },
        ],
        fleetSecrets: [{ name: "shhhh-secret", dataKey: "sData", clusterNames: ["ikoclone"] }],
        sData: { password: "p" },
      },
      ["iko-plus:sData"],
    );
    if (cfg.program !== "fleet") throw new Error("fleet");
    const n = registered.length;
    fleetStack(cfg, { secrets: {}, secretObjects: { sData: { apply: () => undefined } as never } });
    await new Promise((r) => setTimeout(r, 500));
    const mine = registered.slice(n);
    const find = (type: string, name: string) => {
      const r = mine.find((x) => x.type === type && x.name === name);
      assert.ok(r, `${name} registered: ${mine.map((x) => x.name).join(" ")}`);
      return r;
    };
    const deps = (r: Registered) => r.dependencies.map((d) => d.split("::").pop() as string);
    const WAIT = "pulumi-nodejs:dynamic/iko-plus-karmada:MemberWorksGone";
    const clone = find(WAIT, "ikoclone-member-works-gone");
    const home = find(WAIT, "ikohome-member-works-gone");
    for (const w of [clone, home])
      assert.deepStrictEqual(w.additionalSecretOutputs, ["karmada"], "the Karmada credentials are a secret output");
    assert.deepStrictEqual(clone.inputs.objects, [
      { kind: "IrisCluster", namespace: "default", name: "iris-a" },
      { kind: "Secret", namespace: "default", name: "shhhh-secret" },
    ]);
    assert.deepStrictEqual(home.inputs.objects, [{ kind: "IrisCluster", namespace: "default", name: "iris-a" }]);
    assert.deepStrictEqual(
      [clone.inputs.cluster, clone.inputs.timeoutSeconds, clone.inputs.readyTimeoutSeconds],
      ["ikoclone", 120, 1020],
    );
    const karmada = unwrapSecret(clone.inputs.karmada);
    assert.ok(karmada.secret, "the Karmada credentials are a secret input");
    assert.deepStrictEqual(karmada.value, {
      server: "https://127.0.0.1:6443",
      insecure: false,
      ca: "FAKE-CA-PEM",
      cert: "FAKE-CERT",
      key: "FAKE-KEY",
    });
    assert.deepStrictEqual(deps(clone), ["ikoclone-member-cluster"], "created after (so deleted before) the Cluster");
    // The objects follow the members' Clusters (deleted before them), not the waits: a wait's
    // delete runs beside theirs, and `up` does not wait for the dynamic provider to start.
    const template = deps(find("kubernetes:intersystems.com/v1alpha1:IrisCluster", "default-iris-a-template"));
    assert.ok(
      template.includes("ikoclone-member-cluster") && template.includes("ikohome-member-cluster"),
      `the template is deleted before both Clusters: ${template.join(" ")}`,
    );
    assert.ok(!template.some((d) => d.endsWith("-works-gone")), `and not after the waits: ${template.join(" ")}`);
    const fleetSecret = deps(find("kubernetes:core/v1:Secret", "default-shhhh-secret-secret"));
    assert.ok(fleetSecret.includes("ikoclone-member-cluster"), "the fleet Secret too");
    assert.ok(!fleetSecret.some((d) => d.endsWith("-works-gone")), "the fleet Secret not after the waits");
    assert.ok(!fleetSecret.includes("ikohome-member-cluster"), "and not for a member it is not placed on");
  });

  it("registers each member's wait after the template and the fleet Secret, even when their creates are slow (mocks answer them 300 ms late)", async () => {
    // The engine checks registrations one at a time and holds that queue while the first dynamic
    // resource's provider starts (0.5 s on the lab): registered before the objects, the wait held them.
    const { validateConfig, fleetStack } = await import("../../stacks");
    const kc = fakeKubeconfigFiles("iko-works-order-");
    const cfg = validateConfig(
      {
        program: "fleet",
        clusters: [{ name: "ikoclone", kubeconfigPath: kc("ikoclone"), iko: false, join: {} }],
        karmada: { mode: "existing", kubeconfigPath: kc("karmada") },
        iko: {
          chartPath: path.resolve(__dirname, "../fixtures/iko-chart/iris-operator"),
          crdManifestPath: path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml"),
        },
        federatedIrisClusters: [
          {
            name: "iris-o",
            image: "containers.intersystems.com/intersystems/iris-community:2025.1",
            placement: { clusterNames: ["ikoclone"] },
          },
        ],
        fleetSecrets: [{ name: "order-secret", dataKey: "sData", clusterNames: ["ikoclone"] }],
        sData: { password: "p" },
      },
      ["iko-plus:sData"],
    );
    if (cfg.program !== "fleet") throw new Error("fleet");
    const n = registered.length;
    for (const slow of ["default-iris-o-policy", "default-iris-o-template", "default-order-secret-secret"])
      registrationDelays.set(slow, 300);
    try {
      fleetStack(cfg, { secrets: {}, secretObjects: { sData: { apply: () => undefined } as never } });
      const names = () => registered.slice(n).map((r) => r.name);
      for (let i = 0; i < 60 && !names().includes("ikoclone-member-works-gone"); i++)
        await new Promise((r) => setTimeout(r, 50));
      const order = names();
      const at = (name: string) => order.indexOf(name);
      assert.ok(at("ikoclone-member-works-gone") > 0, `the wait is registered: ${order.join(" ")}`);
      for (const object of ["default-iris-o-template", "default-order-secret-secret"])
        assert.ok(
          at(object) >= 0 && at(object) < at("ikoclone-member-works-gone"),
          `${object} first: ${order.join(" ")}`,
        );
      const wait = registered.slice(n).find((r) => r.name === "ikoclone-member-works-gone") as Registered;
      assert.deepStrictEqual(
        wait.dependencies.map((d) => d.split("::").pop()),
        ["ikoclone-member-cluster"],
        "and depends on the Cluster alone (destroy order unchanged)",
      );
    } finally {
      registrationDelays.clear();
    }
  });

  it("KarmadaMember: the wait is not registered before waitRegistersAfter settles, and depends on the Cluster alone", async () => {
    const { KarmadaMember } = await import("../../components/karmada");
    const { ExistingCluster } = await import("../../components/cluster");
    const { KarmadaControlPlane } = await import("../../components/karmada");
    const kc = fakeKubeconfigFiles("iko-works-after-");
    const karmada = new KarmadaControlPlane("after-k", { existing: { kubeconfigPath: kc("karmada") } });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const n = registered.length;
    new KarmadaMember("after-m", {
      karmada,
      member: new ExistingCluster("after-member", { kubeconfigPath: kc("member") }),
      propagated: [{ kind: "IrisCluster", namespace: "default", name: "x" }],
      waitRegistersAfter: gate,
    });
    const names = () => registered.slice(n).map((r) => r.name);
    for (let i = 0; i < 40 && !names().includes("after-m-cluster"); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(names().includes("after-m-cluster"), `the Cluster is registered: ${names().join(" ")}`);
    assert.ok(!names().includes("after-m-works-gone"), "the wait waits for the gate");
    release();
    for (let i = 0; i < 40 && !names().includes("after-m-works-gone"); i++) await new Promise((r) => setTimeout(r, 50));
    const wait = registered.slice(n).find((r) => r.name === "after-m-works-gone");
    assert.ok(wait, `then it is registered: ${names().join(" ")}`);
    assert.deepStrictEqual(
      wait.dependencies.map((d) => d.split("::").pop()),
      ["after-m-cluster"],
    );
  });
});
