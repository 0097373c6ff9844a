/**
 * KarmadaApiReady: the waits after the Karmada chart's install, judged through the Karmada API:
 * until its apiserver answers (CRDs may go in), then until it serves the groups joins and policies
 * need, its controllers hold their Leases and its webhook admits a policy.
 */
import * as assert from "assert";
import * as https from "https";
import {
  ADMISSION_PROBE,
  KARMADA_API_GROUPS,
  KarmadaApiReadyProvider,
  apiReadyChecks,
  apiReadyTimeoutMessage,
  apiServiceName,
  apiServiceProblem,
  leaseStatus,
  missingGroups,
  releaseRevision,
  rolloutStatus,
  waitForKarmadaApi,
} from "../../components/karmada";
import { generateFleetCa } from "../../components/tls/ca";

describe("KarmadaApiReady (the wait for the Karmada API's groups)", () => {
  it("a discovery check answered by another server (a bad status) is named as such, with what to check", () => {
    assert.strictEqual(
      apiReadyTimeoutMessage("https://127.0.0.1:32443", 300, ["cluster.karmada.io/v1alpha1"], {
        "cluster.karmada.io/v1alpha1":
          "HTTP 503; APIService v1alpha1.cluster.karmada.io: FailedDiscoveryCheck: failing or missing response from https://karmada-aggregated-apiserver.karmada-host.svc.cluster.local:443/apis/cluster.karmada.io/v1alpha1: bad status from https://karmada-aggregated-apiserver.karmada-host.svc.cluster.local:443/apis/cluster.karmada.io/v1alpha1: 404",
      }),
      "the Karmada API at https://127.0.0.1:32443 was not ready within 300 s of the chart's install or upgrade: cluster.karmada.io/v1alpha1 (HTTP 503; APIService v1alpha1.cluster.karmada.io: FailedDiscoveryCheck: failing or missing response from https://karmada-aggregated-apiserver.karmada-host.svc.cluster.local:443/apis/cluster.karmada.io/v1alpha1: bad status from https://karmada-aggregated-apiserver.karmada-host.svc.cluster.local:443/apis/cluster.karmada.io/v1alpha1: 404); " +
        "a server other than karmada-aggregated-apiserver answered its discovery check (a proxy or host on the network answering for that address, or a Service that is not headless as KarmadaControlPlane makes it); check `kubectl -n karmada-host get svc karmada-aggregated-apiserver` shows CLUSTER-IP None and that its pod is Ready, then run up again",
    );
  });
  it("waits for the aggregated cluster API and the CRD groups", () => {
    assert.deepStrictEqual(KARMADA_API_GROUPS, [
      "cluster.karmada.io/v1alpha1",
      "policy.karmada.io/v1alpha1",
      "work.karmada.io/v1alpha2",
      "config.karmada.io/v1alpha1",
    ]);
  });

  it("counts a group as served only on HTTP 200", () => {
    assert.deepStrictEqual(
      missingGroups(["a/v1", "b/v1", "c/v1", "d/v1"], { "a/v1": 200, "b/v1": 503, "c/v1": "connect ECONNREFUSED" }),
      ["b/v1", "c/v1", "d/v1"],
    );
    assert.deepStrictEqual(missingGroups(["a/v1"], { "a/v1": 200 }), []);
  });

  it("fails with one message naming the server, each missing check's answer and the fix", () => {
    assert.strictEqual(
      apiReadyTimeoutMessage(
        "https://127.0.0.1:32443",
        300,
        [
          "cluster.karmada.io/v1alpha1",
          "work.karmada.io/v1alpha2",
          "x/v1",
          "lease kube-system/kube-controller-manager",
        ],
        {
          "cluster.karmada.io/v1alpha1": 503,
          "work.karmada.io/v1alpha2": "https://127.0.0.1:32443: connect ECONNREFUSED",
          "lease kube-system/kube-controller-manager": "no holder yet",
        },
      ),
      "the Karmada API at https://127.0.0.1:32443 was not ready within 300 s of the chart's install or upgrade: cluster.karmada.io/v1alpha1 (HTTP 503), work.karmada.io/v1alpha2 (https://127.0.0.1:32443: connect ECONNREFUSED), x/v1 (no answer), lease kube-system/kube-controller-manager (no holder yet); " +
        "check the chart's karmada-static-resource Job, karmada-aggregated-apiserver, the controllers and karmada-webhook on the host (kubectl -n karmada-host get jobs,pods), then run up again",
    );
  });

  it("checks the groups, then each Lease, then admission, in that order and only those asked for", () => {
    assert.deepStrictEqual(apiReadyChecks({ groups: ["a/v1"] }), ["a/v1"]);
    assert.deepStrictEqual(apiReadyChecks({ groups: ["a/v1"], leases: ["ns/one", "ns/two"], admission: true }), [
      "a/v1",
      "lease ns/one",
      "lease ns/two",
      "admission",
    ]);
    assert.deepStrictEqual(apiReadyChecks({ groups: [], admission: false }), []);
  });

  it("names the APIService that serves a group/version", () => {
    assert.strictEqual(apiServiceName("cluster.karmada.io/v1alpha1"), "v1alpha1.cluster.karmada.io");
    assert.strictEqual(apiServiceName("search.karmada.io/v1alpha1"), "v1alpha1.search.karmada.io");
  });

  it("says why an APIService is not Available, from its Available condition only", () => {
    const status = (conditions: object[]) => ({ status: { conditions } });
    assert.strictEqual(
      apiServiceProblem(
        status([
          { type: "Other", status: "False", reason: "Ignored" },
          {
            type: "Available",
            status: "False",
            reason: "FailedDiscoveryCheck",
            message: "failing or missing response from https://10.96.1.2:443/apis/cluster.karmada.io/v1alpha1: 503",
          },
        ]),
      ),
      "FailedDiscoveryCheck: failing or missing response from https://10.96.1.2:443/apis/cluster.karmada.io/v1alpha1: 503",
    );
    assert.strictEqual(
      apiServiceProblem(status([{ type: "Available", status: "False", reason: "ServiceNotFound" }])),
      "ServiceNotFound",
    );
    assert.strictEqual(apiServiceProblem(status([{ type: "Available", status: "Unknown" }])), "Available Unknown");
    assert.strictEqual(apiServiceProblem(status([{ type: "Available", status: "True", reason: "Passed" }])), undefined);
    assert.strictEqual(apiServiceProblem(status([])), undefined);
    assert.strictEqual(apiServiceProblem({}), undefined);
    assert.strictEqual(apiServiceProblem(undefined), undefined);
  });

  it("counts a Lease as held only when it names a holder", () => {
    assert.strictEqual(leaseStatus({ spec: { holderIdentity: "karmada-controller-manager-7f9_1a2b" } }), 200);
    assert.strictEqual(leaseStatus({ spec: { holderIdentity: "" } }), "no holder yet");
    assert.strictEqual(leaseStatus({ spec: {} }), "no holder yet");
    assert.strictEqual(leaseStatus(undefined), "no holder yet");
  });

  it("waitForKarmadaApi gives up after its timeout against an API that does not answer, without credentials in the message", async () => {
    const karmada = { server: "https://127.0.0.1:1", insecure: false, token: "secret-token-value" };
    await assert.rejects(
      waitForKarmadaApi({ karmada, groups: ["cluster.karmada.io/v1alpha1"], timeoutSeconds: 0 }, 10),
      (e: Error) =>
        /was not ready within 0 s of the chart.s install or upgrade: cluster\.karmada\.io\/v1alpha1 \(https:\/\/127\.0\.0\.1:1: connect ECONNREFUSED/.test(
          e.message,
        ) && !e.message.includes("secret-token-value"),
    );
  });

  it("a rollout is done when every Deployment and StatefulSet has observed its spec, updated and made available every replica", () => {
    const dep = (name: string, st: Record<string, unknown>, generation = 2, replicas = 1) => ({
      metadata: { name, generation },
      spec: { replicas },
      status: st,
    });
    const done = { observedGeneration: 2, replicas: 1, updatedReplicas: 1, availableReplicas: 1 };
    const sts = (st: Record<string, unknown>) => ({
      items: [{ metadata: { name: "etcd", generation: 3 }, spec: { replicas: 1 }, status: st }],
    });
    const stsDone = {
      observedGeneration: 3,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      currentRevision: "e-2",
      updateRevision: "e-2",
    };
    assert.strictEqual(rolloutStatus({ items: [dep("a", done)] }, sts(stsDone)), 200);
    assert.strictEqual(rolloutStatus({ items: [] }, { items: [] }), 200);
    for (const [st, why] of [
      [{ ...done, observedGeneration: 1 }, "deployment a: its new spec not yet observed"],
      [{ ...done, updatedReplicas: 0 }, "deployment a: 0 of 1 replicas updated"],
      [{ ...done, availableReplicas: 0 }, "deployment a: 0 of 1 replicas available, 1 running"],
      [{ ...done, replicas: 2 }, "deployment a: 1 of 1 replicas available, 2 running"],
    ] as const)
      assert.strictEqual(rolloutStatus({ items: [dep("a", st)] }, sts(stsDone)), why);
    assert.strictEqual(
      rolloutStatus({ items: [dep("a", done)] }, sts({ ...stsDone, currentRevision: "e-1" })),
      "statefulset etcd: rolling to e-2",
    );
    assert.strictEqual(
      rolloutStatus({ items: [dep("a", done)] }, sts({ ...stsDone, readyReplicas: 0 })),
      "statefulset etcd: 0 of 1 replicas available, 1 running",
    );
  });

  it("checks the rollout first when asked; a release's revision changes with its chart or values only", () => {
    assert.deepStrictEqual(
      apiReadyChecks({
        groups: ["a/v1"],
        rollout: { host: { server: "https://h", insecure: true }, namespace: "karmada-host" },
      }),
      ["rollout", "a/v1"],
    );
    const chart = { chart: "/charts/karmada-v1.16.0" };
    const values = { karmadaImageVersion: "v1.16.0" };
    assert.match(releaseRevision(chart, values), /^[0-9a-f]{16}$/);
    assert.strictEqual(releaseRevision(chart, values), releaseRevision({ ...chart }, { ...values }));
    assert.notStrictEqual(
      releaseRevision(chart, values),
      releaseRevision({ chart: "/charts/karmada-v1.18.2" }, values),
    );
    assert.notStrictEqual(releaseRevision(chart, values), releaseRevision(chart, { karmadaImageVersion: "v1.18.2" }));
  });

  it("the provider waits again only when its inputs change", async () => {
    const p = new KarmadaApiReadyProvider();
    const a = { karmada: { server: "https://127.0.0.1:1", insecure: false }, groups: ["a/v1"], timeoutSeconds: 1 };
    assert.deepStrictEqual(await p.diff("karmada-api", a, { ...a }), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.strictEqual(
      (await p.diff("karmada-api", a, { ...a, karmada: { server: "https://127.0.0.1:2", insecure: false } })).changes,
      true,
    );
    // An upgrade (a new chart or values: a new revision) waits again.
    assert.strictEqual((await p.diff("karmada-api", { ...a, revision: "r1" }, { ...a, revision: "r2" })).changes, true);
  });
});

describe("unit: KarmadaApiReady against a fake Karmada API (HTTPS)", function () {
  this.timeout(60_000);
  let server: https.Server;
  let port = 0;
  const requests: { method: string; url: string; body: string }[] = [];
  /** Per path: the answers in turn (the last one repeats); a number is a bare status. */
  let answers: Record<string, (number | object)[]> = {};

  before(async () => {
    const ca = generateFleetCa({ keyBits: 2048, commonName: "fake karmada" });
    server = https.createServer({ cert: ca.certPem, key: ca.keyPem }, (req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString("utf8")));
      req.on("end", () => {
        requests.push({ method: req.method ?? "", url: req.url ?? "", body });
        const queue = answers[req.url ?? ""] ?? [404];
        const next = queue.length > 1 ? queue.shift() : queue[0];
        if (typeof next === "number") res.writeHead(next).end("{}");
        else
          res
            .writeHead(req.method === "POST" ? 201 : 200, { "Content-Type": "application/json" })
            .end(JSON.stringify(next));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.address() as { port: number }).port;
  });
  after(() => {
    server.close();
  });

  const karmada = () => ({ server: `https://127.0.0.1:${port}`, insecure: true, token: "t0ken" });
  const lease = "/apis/coordination.k8s.io/v1/namespaces/karmada-system/leases/karmada-scheduler";
  const mutating = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/mutating-config";
  const validating = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/validating-config";
  const dryRun = "/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies?dryRun=All";

  it("returns once the group answers, the Lease has a holder and a dry-run policy is admitted; each passed check is not asked again", async () => {
    requests.length = 0;
    answers = {
      "/apis/a/v1": [503, {}],
      [lease]: [{ spec: {} }, { spec: { holderIdentity: "sched-1" } }],
      [mutating]: [404, {}],
      [validating]: [{}],
      [dryRun]: [500, {}],
    };
    await waitForKarmadaApi(
      {
        karmada: karmada(),
        groups: ["a/v1"],
        leases: ["karmada-system/karmada-scheduler"],
        admission: true,
        timeoutSeconds: 30,
      },
      10,
    );
    assert.deepStrictEqual(
      requests.map((r) => `${r.method} ${r.url}`),
      [
        "GET /apis/a/v1",
        "GET /apis/apiregistration.k8s.io/v1/apiservices/v1.a",
        `GET ${lease}`,
        `GET ${mutating}`,
        "GET /apis/a/v1",
        `GET ${lease}`,
        `GET ${mutating}`,
        `GET ${validating}`,
        `POST ${dryRun}`,
        `GET ${mutating}`,
        `GET ${validating}`,
        `POST ${dryRun}`,
      ],
    );
    const posted = requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.body) as unknown);
    assert.deepStrictEqual(
      posted,
      [ADMISSION_PROBE, ADMISSION_PROBE],
      "the probe policy, as a dry run (nothing stored)",
    );
  });

  it("with a rollout, waits first until the host's Deployments and StatefulSets in the namespace have rolled out (asked of the host)", async () => {
    requests.length = 0;
    const deps = "/apis/apps/v1/namespaces/karmada-host/deployments";
    const stss = "/apis/apps/v1/namespaces/karmada-host/statefulsets";
    const rolling = {
      items: [
        {
          metadata: { name: "cm", generation: 2 },
          spec: { replicas: 1 },
          status: { observedGeneration: 2, replicas: 2, updatedReplicas: 1, availableReplicas: 1 },
        },
      ],
    };
    const rolled = {
      items: [
        {
          metadata: { name: "cm", generation: 2 },
          spec: { replicas: 1 },
          status: { observedGeneration: 2, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
        },
      ],
    };
    answers = { [deps]: [rolling, rolled], [stss]: [{ items: [] }], "/apis/a/v1": [{}] };
    await waitForKarmadaApi(
      {
        karmada: karmada(),
        groups: ["a/v1"],
        rollout: { host: karmada(), namespace: "karmada-host" },
        timeoutSeconds: 30,
      },
      10,
    );
    assert.deepStrictEqual(
      requests.map((r) => `${r.method} ${r.url}`),
      [`GET ${deps}`, `GET ${stss}`, "GET /apis/a/v1", `GET ${deps}`, `GET ${stss}`],
    );
  });

  it("reports why the APIService of a group that answers 503 is not Available, and a bare status when none serves it", async () => {
    answers = {
      "/apis/cluster.karmada.io/v1alpha1": [503],
      "/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.cluster.karmada.io": [
        {
          status: {
            conditions: [
              {
                type: "Available",
                status: "False",
                reason: "FailedDiscoveryCheck",
                message: "dial tcp: lookup karmada-aggregated-apiserver.karmada-host.svc.cluster.local: no such host",
              },
            ],
          },
        },
      ],
      "/apis/b.io/v1": [503],
    };
    await assert.rejects(
      waitForKarmadaApi(
        { karmada: karmada(), groups: ["cluster.karmada.io/v1alpha1", "b.io/v1"], timeoutSeconds: 0 },
        10,
      ),
      (e: Error) =>
        e.message ===
        apiReadyTimeoutMessage(karmada().server, 0, ["cluster.karmada.io/v1alpha1", "b.io/v1"], {
          "cluster.karmada.io/v1alpha1":
            "HTTP 503; APIService v1alpha1.cluster.karmada.io: FailedDiscoveryCheck: dial tcp: lookup karmada-aggregated-apiserver.karmada-host.svc.cluster.local: no such host",
          "b.io/v1": 503,
        }),
    );
  });

  it("gives up with the one message naming what each check last answered", async () => {
    answers = { "/apis/a/v1": [{}], [lease]: [{ spec: {} }], [mutating]: [404] };
    await assert.rejects(
      waitForKarmadaApi(
        {
          karmada: karmada(),
          groups: ["a/v1"],
          leases: ["karmada-system/karmada-scheduler"],
          admission: true,
          timeoutSeconds: 0,
        },
        10,
      ),
      (e: Error) =>
        e.message ===
        apiReadyTimeoutMessage(karmada().server, 0, ["lease karmada-system/karmada-scheduler", "admission"], {
          "lease karmada-system/karmada-scheduler": "no holder yet",
          admission: "no mutating webhook configuration mutating-config yet",
        }),
    );
  });
});
