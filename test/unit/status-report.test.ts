/**
 * Unit (pure): the status view's verdict and its text (scripts/status/report.ts), on a fleet
 * report with one of everything, healthy and not.
 */
import * as assert from "assert";
import { StatusReport, describeIris, irisHealthy, problems, renderJson, renderText } from "../../scripts/status/report";

const running = { phase: "Running", conditions: [{ type: "Ready", status: "True" }] };

function fleet(): StatusReport {
  return {
    stack: "fleet",
    program: "fleet",
    clusters: [
      {
        name: "ikofett",
        server: "https://127.0.0.1:40001",
        reachable: true,
        nodes: [{ name: "ikofett-control-plane", ready: true }],
        cni: { namespace: "kube-system", name: "cilium", ready: 1, desired: 1 },
        operators: [{ namespace: "iko", name: "iko-iris-operator-amd", ready: 1, desired: 1 }],
        irisClusters: [],
      },
      {
        name: "ikoclone",
        server: "https://127.0.0.1:40002",
        reachable: true,
        nodes: [
          { name: "ikoclone-control-plane", ready: true },
          { name: "ikoclone-worker", ready: true },
        ],
        cni: { namespace: "kube-system", name: "cilium", ready: 2, desired: 2 },
        operators: [{ namespace: "iko", name: "iko-iris-operator-amd", ready: 1, desired: 1 }],
        irisClusters: [{ namespace: "default", name: "federated-iris", status: running }],
      },
    ],
    karmada: {
      server: "https://127.0.0.1:32443",
      reachable: true,
      members: [
        { name: "ikoclone", syncMode: "Push", ready: "True", propagated: ["IrisCluster default/federated-iris"] },
      ],
      federated: [
        {
          namespace: "default",
          name: "federated-iris",
          policy: "iriscluster-propagate",
          status: { phase: "Running", members: [{ clusterName: "ikoclone", phase: "Running" }] },
          scheduledTo: ["ikoclone"],
          perMember: [{ clusterName: "ikoclone", applied: true, health: "Healthy" }],
        },
      ],
    },
  };
}

describe("status view: verdict and text (scripts/status/report.ts)", () => {
  it("an IrisCluster is healthy as Karmada's health interpreter judges it", () => {
    const cases: [Parameters<typeof irisHealthy>[0], boolean][] = [
      [undefined, false],
      [{}, false],
      [{ phase: "Running" }, true],
      [{ phase: "running" }, true],
      [{ phase: "Pending" }, false],
      [{ phase: "Running", conditions: [{ type: "Ready", status: "False" }] }, false],
      [{ phase: "Creating", conditions: [{ type: "Ready", status: "True" }] }, true],
      [{ phase: "Failed", conditions: [{ type: "Ready", status: "True" }] }, false],
      [{ phase: "Running", conditions: [{ type: "Ready", status: "Unknown" }] }, false],
      [{ conditions: [{ type: "Other", status: "False" }] }, false],
    ];
    for (const [s, want] of cases) assert.strictEqual(irisHealthy(s), want, JSON.stringify(s));
    assert.strictEqual(describeIris(undefined), "no status yet (no operator has reconciled it)");
    assert.strictEqual(
      describeIris({ phase: "Failed", conditions: [{ type: "Ready", status: "False", reason: "ImagePullBackOff" }] }),
      "Failed, Ready=False (ImagePullBackOff)",
    );
  });

  it("a healthy fleet: no problem, and the text view, exactly", () => {
    const r = fleet();
    assert.deepStrictEqual(problems(r), []);
    assert.strictEqual(
      renderText(r),
      [
        "stack fleet (program fleet)",
        "",
        "cluster ikofett  https://127.0.0.1:40001  reachable",
        "  nodes     1/1 Ready: ikofett-control-plane",
        "  cni       kube-system/cilium 1/1 ready",
        "  operator  iko/iko-iris-operator-amd 1/1 ready",
        "",
        "cluster ikoclone  https://127.0.0.1:40002  reachable",
        "  nodes     2/2 Ready: ikoclone-control-plane, ikoclone-worker",
        "  cni       kube-system/cilium 2/2 ready",
        "  operator  iko/iko-iris-operator-amd 1/1 ready",
        "  iris      default/federated-iris: Running",
        "",
        "karmada  https://127.0.0.1:32443  reachable",
        "  member    ikoclone: Push mode, Ready=True, 1 propagated",
        "              IrisCluster default/federated-iris",
        "  federated default/federated-iris (policy iriscluster-propagate): Running; scheduled to ikoclone",
        "              ikoclone: Running",
        "",
        "healthy",
        "",
      ].join("\n"),
    );
    const json = JSON.parse(renderJson(r));
    assert.strictEqual(json.healthy, true);
    assert.deepStrictEqual(json.problems, []);
  });

  it("every unhealthy part is one problem line, in order", () => {
    const r = fleet();
    r.clusters[0].reachable = false;
    r.clusters[0].error = "connect ECONNREFUSED 127.0.0.1:40001";
    r.clusters[1].nodes[1].ready = false;
    r.clusters[1].cni = { namespace: "kube-system", name: "cilium", ready: 1, desired: 2 };
    r.clusters[1].operators[0].ready = 0;
    r.clusters[1].irisClusters = [{ namespace: "default", name: "federated-iris" }];
    if (!r.karmada) throw new Error("fixture");
    r.karmada.members[0].ready = "False";
    r.karmada.federated[0].status = { phase: "Pending" };
    r.karmada.federated[0].perMember = [{ clusterName: "ikoclone", applied: true, health: "Unhealthy" }];
    assert.deepStrictEqual(problems(r), [
      "cluster ikofett: not reachable at https://127.0.0.1:40001 (connect ECONNREFUSED 127.0.0.1:40001)",
      "cluster ikoclone: nodes not Ready: ikoclone-worker",
      "cluster ikoclone: CNI kube-system/cilium 1/2 ready",
      "cluster ikoclone: operator iko/iko-iris-operator-amd 0/1 ready",
      "cluster ikoclone: IrisCluster default/federated-iris: no status yet (no operator has reconciled it)",
      "member ikoclone: Ready=False",
      "federated IrisCluster default/federated-iris: Pending",
      "federated IrisCluster default/federated-iris on ikoclone: health Unhealthy",
    ]);
    const text = renderText(r);
    assert.match(text, /^cluster ikofett {2}https:\/\/127\.0\.0\.1:40001 {2}NOT REACHABLE: connect ECONNREFUSED/m);
    assert.match(text, /\nUNHEALTHY \(8\):\n {2}- cluster ikofett: not reachable/);
    assert.strictEqual(JSON.parse(renderJson(r)).healthy, false);
  });

  it("wfh: an operator the outputs name but the cluster does not run is a problem", () => {
    const r: StatusReport = {
      stack: "dev",
      program: "wfh",
      clusters: [
        { name: "home", server: "https://h", reachable: true, nodes: [{ name: "n", ready: true }], operators: [] },
      ],
      operator: {
        cluster: "home",
        namespace: "iko",
        deployment: "iko-iris-operator-amd",
        reconciles: "work",
        server: "https://w",
      },
    };
    assert.deepStrictEqual(problems(r), ["cluster home: operator iko/iko-iris-operator-amd not found"]);
    assert.match(renderText(r), /^ {2}iris {6}the IrisCluster CRD is not installed$/m);
  });
});
