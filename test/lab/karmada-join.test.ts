/**
 * Karmada against the running lab: `karmadactl join` of one member in Push mode, a Deployment +
 * PropagationPolicy applied to Karmada reaching the member (Ready thanks to kwok), its status
 * aggregated back onto the Karmada template, then clean-up (`karmadactl unjoin`) so later tests
 * start from an unjoined fleet.
 *
 * Needs `npm run lab:up` (with Karmada). Member: IKO_LAB_JOIN_MEMBER (default ikoclone, else the
 * lab's last member).
 */
import * as assert from "assert";
import { execFile } from "child_process";
import * as fs from "fs";
import { promisify } from "util";
import * as k8s from "@kubernetes/client-node";
import { binary } from "../../testbed/lab/src/config";
import { KarmadaInfo, LabState, MemberInfo, readLabState } from "../../testbed/lab/src/state";
import { Clients, clientsFromText, maybe, waitFor } from "./kube";

const execFileP = promisify(execFile);

const NS = "default";
const NAME = "lab-join-probe";
const POLICY = "lab-join-probe";
const REPLICAS = 2;
const CLUSTERS = { group: "cluster.karmada.io", version: "v1alpha1", plural: "clusters" };
const POLICIES = { group: "policy.karmada.io", version: "v1alpha1", plural: "propagationpolicies" };

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
interface KarmadaCluster {
  spec?: { syncMode?: string; apiEndpoint?: string };
  status?: { conditions?: Condition[] };
}

function conditionTrue(conds: Condition[] | undefined, type: string): boolean {
  return Boolean(conds?.some((c) => c.type === type && c.status === "True"));
}

function deployment(): k8s.V1Deployment {
  const labels = { app: NAME };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: NAME, namespace: NS, labels },
    spec: {
      replicas: REPLICAS,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        // Never pulled: kwok marks pods Running/Ready without a container runtime.
        spec: { containers: [{ name: "pause", image: "registry.k8s.io/pause:3.10" }] },
      },
    },
  };
}

function policy(member: string): Record<string, unknown> {
  return {
    apiVersion: "policy.karmada.io/v1alpha1",
    kind: "PropagationPolicy",
    metadata: { name: POLICY, namespace: NS },
    spec: {
      resourceSelectors: [{ apiVersion: "apps/v1", kind: "Deployment", name: NAME }],
      placement: { clusterAffinity: { clusterNames: [member] } },
    },
  };
}

describe("lab: Karmada join and propagation (karmadactl, Push mode)", function () {
  this.timeout(10 * 60_000);
  let lab: LabState;
  let karmadaInfo: KarmadaInfo;
  let member: MemberInfo;
  let karmada: Clients;
  let cluster: Clients;

  async function karmadactl(args: string[]): Promise<string> {
    try {
      const r = await execFileP(binary(lab.binDir, "karmadactl"), args, { timeout: 180_000, maxBuffer: 8 << 20 });
      return r.stdout;
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      const out = `${err.stdout ?? ""}\n${err.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
      throw new Error(`karmadactl ${args[0]} ${args[1] ?? ""} failed: ${err.message.split("\n")[0]}\n${out}`);
    }
  }

  let joined = false;
  let propagated = false;

  /** What Karmada knows about the probe: the ResourceBinding's target clusters and conditions. */
  async function diagnose(): Promise<string> {
    const rb = await maybe(
      () =>
        karmada.custom.getNamespacedCustomObject({
          group: "work.karmada.io",
          version: "v1alpha2",
          plural: "resourcebindings",
          namespace: NS,
          name: `${NAME}-deployment`,
        }) as Promise<{ spec?: { clusters?: { name: string }[] }; status?: { conditions?: Condition[] } }>,
    ).catch((e: Error) => e);
    if (rb instanceof Error) return `ResourceBinding unreadable: ${rb.message.split("\n")[0]}`;
    if (!rb) return "no ResourceBinding (karmada-controller-manager's detector did not claim the Deployment)";
    const conds = (rb.status?.conditions ?? []).map(
      (c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason}: ${c.message ?? ""})` : ""}`,
    );
    const targets = (rb.spec?.clusters ?? []).map((c) => c.name);
    const hint = targets.length ? "" : " (never scheduled: is karmada-scheduler running?)";
    return `ResourceBinding clusters=[${targets.join(",")}]${hint} conditions: ${conds.join("; ") || "none"}`;
  }

  /** Appends diagnose() to a failed wait's message. */
  async function explained<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      throw new Error(`${(e as Error).message}\n  ${await diagnose()}`);
    }
  }

  const joinedCluster = (): Promise<KarmadaCluster | undefined> =>
    maybe(() => karmada.custom.getClusterCustomObject({ ...CLUSTERS, name: member.name }) as Promise<KarmadaCluster>);

  /** Deletes the probe objects and unjoins the member; tolerant of whatever is already gone. */
  async function cleanUp(): Promise<void> {
    await maybe(() => karmada.custom.deleteNamespacedCustomObject({ ...POLICIES, namespace: NS, name: POLICY }));
    await maybe(() => karmada.apps.deleteNamespacedDeployment({ name: NAME, namespace: NS }));
    if (await joinedCluster()) {
      // Deleting a Ready Cluster also removes what Karmada propagated to it.
      await karmadactl([
        "unjoin",
        member.name,
        "--kubeconfig",
        karmadaInfo.kubeconfigPath,
        "--karmada-context",
        karmadaInfo.context,
        "--cluster-kubeconfig",
        member.kubeconfigPath,
        "--cluster-context",
        member.context,
        "--wait",
        "2m",
      ]);
      await waitFor(`Cluster ${member.name} gone from Karmada`, async () => !(await joinedCluster()), 120_000);
    }
    await maybe(() => cluster.apps.deleteNamespacedDeployment({ name: NAME, namespace: NS }));
  }

  before(async () => {
    lab = readLabState();
    if (!lab.karmada) throw new Error("the lab runs without Karmada (IKO_LAB_KARMADA=0): restart it with Karmada");
    karmadaInfo = lab.karmada;
    const wanted = process.env.IKO_LAB_JOIN_MEMBER ?? "ikoclone";
    const m = lab.members.find((x) => x.name === wanted) ?? lab.members[lab.members.length - 1];
    if (!m) throw new Error("the lab has no member clusters");
    member = m;
    karmada = clientsFromText(fs.readFileSync(karmadaInfo.kubeconfigPath, "utf8"));
    cluster = clientsFromText(fs.readFileSync(member.kubeconfigPath, "utf8"));
    await cleanUp(); // leftovers of an interrupted earlier run
  });

  after(async () => {
    if (karmada && cluster) await cleanUp();
  });

  it("joins the member with karmadactl; its Cluster becomes Ready in Push mode", async () => {
    await karmadactl([
      "join",
      member.name,
      "--kubeconfig",
      karmadaInfo.kubeconfigPath,
      "--karmada-context",
      karmadaInfo.context,
      "--cluster-kubeconfig",
      member.kubeconfigPath,
      "--cluster-context",
      member.context,
    ]);
    const c = await waitFor(
      `Cluster ${member.name} Ready`,
      async () => {
        const got = await joinedCluster();
        return got && conditionTrue(got.status?.conditions, "Ready") ? got : undefined;
      },
      120_000,
    );
    joined = true;
    assert.strictEqual(c.spec?.syncMode, "Push");
    assert.strictEqual(c.spec?.apiEndpoint, member.server);
    // join's credentials: an SA on the member whose token Secret its kube-controller-manager filled,
    // copied into Karmada as Secret karmada-cluster/<name> {token, caBundle} (only key names are compared).
    await cluster.core.readNamespacedServiceAccount({ name: `karmada-${member.name}`, namespace: "karmada-cluster" });
    const secret = await karmada.core.readNamespacedSecret({ name: member.name, namespace: "karmada-cluster" });
    assert.deepStrictEqual(Object.keys(secret.data ?? {}).sort(), ["caBundle", "token"]);
  });

  it("propagates a Deployment via a PropagationPolicy; kwok makes it Ready on the member", async () => {
    assert.ok(joined, "the member is not joined (previous test failed)");
    await karmada.apps.createNamespacedDeployment({ namespace: NS, body: deployment() });
    await karmada.custom.createNamespacedCustomObject({ ...POLICIES, namespace: NS, body: policy(member.name) });
    const d = await explained(
      waitFor(
        `Deployment ${NAME} with ${REPLICAS} ready replicas on ${member.name}`,
        async () => {
          const got = await maybe(() => cluster.apps.readNamespacedDeployment({ name: NAME, namespace: NS }));
          return got && got.status?.readyReplicas === REPLICAS ? got : undefined;
        },
        180_000,
      ),
    );
    assert.strictEqual(d.spec?.replicas, REPLICAS);
    const managed = Object.keys(d.metadata?.labels ?? {}).concat(Object.keys(d.metadata?.annotations ?? {}));
    assert.ok(
      managed.some((k) => k.includes("karmada.io")),
      `the member's Deployment carries no Karmada label/annotation: ${managed.join(", ")}`,
    );
    const pods = await cluster.core.listNamespacedPod({ namespace: NS, labelSelector: `app=${NAME}` });
    assert.strictEqual(pods.items.filter((p) => p.status?.phase === "Running").length, REPLICAS);
    assert.ok(
      pods.items.every((p) => member.nodes.includes(p.spec?.nodeName ?? "")),
      "pods run on the member's kwok nodes",
    );
    propagated = true;
  });

  it("aggregates the member's status onto the Karmada template (readyReplicas)", async () => {
    assert.ok(propagated, "nothing was propagated (previous test failed)");
    const t = await explained(
      waitFor(
        `readyReplicas=${REPLICAS} on the Karmada template`,
        async () => {
          const got = await karmada.apps.readNamespacedDeployment({ name: NAME, namespace: NS });
          return got.status?.readyReplicas === REPLICAS ? got : undefined;
        },
        120_000,
      ),
    );
    assert.strictEqual(t.status?.replicas, REPLICAS);
    const binding = (await karmada.custom.getNamespacedCustomObject({
      group: "work.karmada.io",
      version: "v1alpha2",
      plural: "resourcebindings",
      namespace: NS,
      name: `${NAME}-deployment`,
    })) as { spec?: { clusters?: { name: string; replicas?: number }[] } };
    assert.deepStrictEqual(
      binding.spec?.clusters?.map((c) => c.name),
      [member.name],
    );
  });

  it("removes the Deployment from the member when the template and policy are deleted", async () => {
    assert.ok(propagated, "nothing was propagated (previous test failed)");
    await karmada.custom.deleteNamespacedCustomObject({ ...POLICIES, namespace: NS, name: POLICY });
    await karmada.apps.deleteNamespacedDeployment({ name: NAME, namespace: NS });
    await waitFor(
      `Deployment ${NAME} gone from ${member.name}`,
      async () => !(await maybe(() => cluster.apps.readNamespacedDeployment({ name: NAME, namespace: NS }))),
      120_000,
    );
  });

  it("unjoins the member with karmadactl", async () => {
    await karmadactl([
      "unjoin",
      member.name,
      "--kubeconfig",
      karmadaInfo.kubeconfigPath,
      "--karmada-context",
      karmadaInfo.context,
      "--cluster-kubeconfig",
      member.kubeconfigPath,
      "--cluster-context",
      member.context,
      "--wait",
      "2m",
    ]);
    await waitFor(`Cluster ${member.name} gone from Karmada`, async () => !(await joinedCluster()), 120_000);
    await waitFor(
      "namespace karmada-cluster gone from the member",
      async () => !(await maybe(() => cluster.core.readNamespace({ name: "karmada-cluster" }))),
      120_000,
    );
  });
});
