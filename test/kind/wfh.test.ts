/**
 * The first article for real: `pulumi up` of the wfh stack on two real kind clusters made by
 * KindCluster (the real dynamic provider and the real kind CLI), kind's default CNI (the kindnet
 * stand-in of the tier's node image; real Cilium is a later step), every image pulled through
 * the tier's registry mirror, and the IKO stand-in operator really running on home and
 * reconciling an IrisCluster on work through the mounted kubeconfig of its minted identity.
 */
import * as assert from "assert";
import * as YAML from "yaml";
import * as k8s from "@kubernetes/client-node";
import { Clients, clientsFromText, maybe, waitFor } from "../lab/kube";
import { PulumiCli, REPO } from "../lab/pulumi-cli";
import { LabStack } from "../lab/stacks";
import {
  containerCreated,
  containersNamed,
  docker,
  kindWfhConfig,
  kubeDirListing,
  mirrorContent,
  sh,
  standinImages,
  tierEnv,
  untrackedFiles,
  kindPulumiCli,
} from "./tier";

const HOME = "ikpk-home";
const WORK = "ikpk-work";
const STACK = "kindtest-wfh";
const IRIS = "iris-at-work";
const env = tierEnv();
const { iko: IKO_IMAGE, iris: IRIS_IMAGE } = standinImages(env);

interface IrisStatus {
  phase?: string;
  conditions?: { type: string; status: string }[];
}

async function irisStatus(c: Clients, name: string): Promise<IrisStatus | undefined> {
  const obj = (await maybe(() =>
    c.custom.getNamespacedCustomObject({
      group: "intersystems.com",
      version: "v1alpha1",
      namespace: "default",
      plural: "irisclusters",
      name,
    }),
  )) as { status?: IrisStatus } | undefined;
  return obj?.status;
}

/** Waits until the stand-in operator reports the IrisCluster Running and Ready. */
async function reconciled(c: Clients, name: string): Promise<IrisStatus> {
  return waitFor(
    `IrisCluster ${name} Running and Ready on work`,
    async () => {
      const s = await irisStatus(c, name);
      return s?.phase === "Running" && s.conditions?.some((x) => x.type === "Ready" && x.status === "True")
        ? s
        : undefined;
    },
    300_000,
    2000,
  );
}

async function operatorPods(home: Clients): Promise<k8s.V1Pod[]> {
  const pods = await home.core.listNamespacedPod({ namespace: "iko", labelSelector: "app=iris-operator-amd" });
  return pods.items.filter((p) => !p.metadata?.deletionTimestamp);
}

describe("kind tier: wfh on real kind clusters (default CNI, no Cilium), the IKO stand-in operator on home", function () {
  let cli: PulumiCli;
  let stack: LabStack;
  let home: Clients;
  let work: Clients;
  let baseline: { files: string[]; kube: string[]; mirror: string[] };
  const kind = (...args: string[]) => sh(env.KIND_BIN, args);

  before(async () => {
    cli = kindPulumiCli(env);
    // Leftovers of an earlier, interrupted run of this tier (its own names only).
    for (const name of [HOME, WORK]) kind("delete", "cluster", "--name", name);
    const ignoredCache = (f: string) => f.startsWith(".iko-plus/");
    baseline = {
      files: untrackedFiles(REPO).filter((f) => !ignoredCache(f)),
      kube: kubeDirListing(),
      mirror: await mirrorContent(),
    };
    stack = new LabStack(cli, STACK, "Pulumi.dev.yaml", kindWfhConfig(HOME, WORK, IRIS, env));
    await stack.init();
  });

  after(async () => {
    if (stack) {
      await cli.run(["destroy", "--yes", "--skip-preview", "--stack", STACK]);
      await stack.remove();
    }
    for (const name of [HOME, WORK]) kind("delete", "cluster", "--name", name);
    cli?.dispose();
  });

  it("up creates both kind clusters at the same time, every node Ready, and prints no undefined-output warning", async () => {
    const res = await stack.up();
    assert.doesNotMatch(res.stdout + res.stderr, /will not show as a stack output/);
    home = clientsFromText(await stack.output("homeKubeconfig"));
    work = clientsFromText(await stack.output("workKubeconfig"));
    // Each cluster's create runs from its first node container to its last node turning Ready.
    const span = async (c: Clients) => {
      const nodes = (await c.core.listNode()).items;
      const readyAt = nodes.map((n) =>
        Date.parse(String(n.status?.conditions?.find((x) => x.type === "Ready")?.lastTransitionTime)),
      );
      return {
        start: Math.min(...nodes.map((n) => containerCreated(n.metadata?.name as string))),
        end: Math.max(...readyAt),
      };
    };
    const h = await span(home);
    const w = await span(work);
    const iso = (t: number) => new Date(t).toISOString().slice(11, 19);
    console.log(
      `      ${HOME}: ${iso(h.start)} to ${iso(h.end)} (${((h.end - h.start) / 1000).toFixed(0)} s); ${WORK}: ${iso(w.start)} to ${iso(w.end)} (${((w.end - w.start) / 1000).toFixed(0)} s)`,
    );
    // One after the other, the second would start after the first was Ready.
    assert.ok(
      Math.max(h.start, w.start) < Math.min(h.end, w.end),
      "the clusters were created one after the other, not at the same time",
    );
    assert.ok(
      Math.abs(h.start - w.start) < 10_000,
      `the creates started ${(Math.abs(h.start - w.start) / 1000).toFixed(1)} s apart`,
    );
    for (const [name, c] of [
      [HOME, home],
      [WORK, work],
    ] as const) {
      const nodes = (await c.core.listNode()).items;
      assert.deepStrictEqual(nodes.map((n) => n.metadata?.name).sort(), [`${name}-control-plane`, `${name}-worker`]);
      for (const n of nodes)
        assert.strictEqual(
          n.status?.conditions?.find((x) => x.type === "Ready")?.status,
          "True",
          `${n.metadata?.name} Ready`,
        );
    }
  });

  it("an IrisCluster at work is reconciled by the operator pod on home (real pods, image pulled through the mirror, PVC bound)", async () => {
    await reconciled(work, IRIS);
    const sts = await work.apps.readNamespacedStatefulSet({ name: `${IRIS}-data`, namespace: "default" });
    assert.strictEqual(sts.status?.readyReplicas, 1);
    const pod = await work.core.readNamespacedPod({ name: `${IRIS}-data-0`, namespace: "default" });
    assert.strictEqual(pod.status?.phase, "Running");
    assert.strictEqual(pod.spec?.containers[0].image, IRIS_IMAGE);
    const pvc = await work.core.readNamespacedPersistentVolumeClaim({
      name: `iris-data-${IRIS}-data-0`,
      namespace: "default",
    });
    assert.strictEqual(pvc.status?.phase, "Bound");
    assert.ok(await work.core.readNamespacedService({ name: IRIS, namespace: "default" }));
    // No operator runs on work: whatever reconciled the IrisCluster came from home.
    const workDeployments = (await work.apps.listDeploymentForAllNamespaces()).items.map(
      (d) => `${d.metadata?.namespace}/${d.metadata?.name}`,
    );
    assert.ok(
      !workDeployments.some((d) => d.includes("iris-operator")),
      `no operator on work: ${workDeployments.join(", ")}`,
    );
    const [op] = await operatorPods(home);
    assert.strictEqual(op.status?.phase, "Running");
    const container = op.spec?.containers.find((c) => c.name === "operator");
    assert.strictEqual(container?.image, IKO_IMAGE);
    const flag = container?.args?.find((a) => a.startsWith("--kubeconfig="));
    assert.ok(flag, "the operator runs with --kubeconfig");
    assert.ok(
      container?.volumeMounts?.some((m) => m.readOnly && flag.slice("--kubeconfig=".length).startsWith(m.mountPath)),
      "the kubeconfig is mounted read-only",
    );
    const logs = await home.core.readNamespacedPodLog({
      name: op.metadata?.name as string,
      namespace: "iko",
      container: "operator",
    });
    assert.match(logs, new RegExp(`${IRIS}`), "the operator on home logged its work on the IrisCluster");
    assert.match(logs, new RegExp(`https://${WORK}-control-plane:6443`), "the operator targets work's peer endpoint");
  });

  it("a second up changes nothing", async () => {
    await stack.preview(["--expect-no-changes"]);
    const res = await stack.up();
    assert.doesNotMatch(res.stdout, /\b(created|updated|replaced|deleted)\b/, res.stdout);
  });

  it("raising iko.credentialGeneration rolls the operator: a new pod with the new token reconciles, the old token is refused", async () => {
    const oldKubeconfig = YAML.parse(await stack.output("operatorTargetKubeconfig")) as {
      users: { user: { token: string } }[];
    };
    const oldToken = oldKubeconfig.users[0].user.token;
    const [oldPod] = await operatorPods(home);
    stack.edit((c) => {
      (c["iko-plus:iko"] as Record<string, unknown>).credentialGeneration = 2;
    });
    await stack.up();
    const newToken = (YAML.parse(await stack.output("operatorTargetKubeconfig")) as typeof oldKubeconfig).users[0].user
      .token;
    assert.notStrictEqual(newToken, oldToken);
    const newPod = await waitFor(
      "one new operator pod Running",
      async () => {
        const pods = await operatorPods(home);
        return pods.length === 1 &&
          pods[0].metadata?.name !== oldPod.metadata?.name &&
          pods[0].status?.phase === "Running"
          ? pods[0]
          : undefined;
      },
      180_000,
      2000,
    );
    assert.notStrictEqual(
      newPod.metadata?.labels?.["pod-template-hash"],
      oldPod.metadata?.labels?.["pod-template-hash"],
    );
    // The new pod reconciles a new IrisCluster.
    const extra = "iris-after-rotation";
    await work.custom.createNamespacedCustomObject({
      group: "intersystems.com",
      version: "v1alpha1",
      namespace: "default",
      plural: "irisclusters",
      body: {
        apiVersion: "intersystems.com/v1alpha1",
        kind: "IrisCluster",
        metadata: { name: extra },
        spec: { topology: { data: { image: IRIS_IMAGE } } },
      },
    });
    await reconciled(work, extra);
    await work.custom.deleteNamespacedCustomObject({
      group: "intersystems.com",
      version: "v1alpha1",
      namespace: "default",
      plural: "irisclusters",
      name: extra,
    });
    // The old token, at work's host endpoint, is refused.
    const admin = YAML.parse(await stack.output("workKubeconfig")) as {
      clusters: { cluster: { server: string; "certificate-authority-data": string } }[];
    };
    const withOld = new k8s.KubeConfig();
    withOld.loadFromOptions({
      clusters: [
        {
          name: "work",
          server: admin.clusters[0].cluster.server,
          caData: admin.clusters[0].cluster["certificate-authority-data"],
        },
      ],
      users: [{ name: "old", token: oldToken }],
      contexts: [{ name: "old", cluster: "work", user: "old" }],
      currentContext: "old",
    });
    await assert.rejects(
      withOld
        .makeApiClient(k8s.CustomObjectsApi)
        .listClusterCustomObject({ group: "intersystems.com", version: "v1alpha1", plural: "irisclusters" }),
      (err: { code?: number }) => err.code === 401,
    );
  });

  it("refresh after `kind delete cluster` of work shows it gone (PULUMI_K8S_DELETE_UNREACHABLE=true); the next up recreates it and converges", async () => {
    const oldSystemUid = (await work.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    assert.strictEqual(kind("delete", "cluster", "--name", WORK).code, 0);
    // A plain refresh already sees the cluster gone (KindCluster's read), but fails on every
    // resource inside it; with PULUMI_K8S_DELETE_UNREACHABLE those leave the state too.
    const plain = await cli.run(["refresh", "--yes", "--skip-preview", "--stack", STACK]);
    assert.notStrictEqual(plain.code, 0, "a plain refresh fails on the resources of a deleted cluster");
    assert.match(plain.stdout + plain.stderr, /unreachable/i);
    assert.ok(!(await stack.exportState()).includes(`::${WORK}-kind"`), "refresh shows the deleted kind cluster gone");
    cli.env.PULUMI_K8S_DELETE_UNREACHABLE = "true";
    try {
      const res = await cli.ok(["refresh", "--yes", "--skip-preview", "--stack", STACK]);
      assert.match(
        res.stdout,
        /kubernetes:intersystems\.com\/v1alpha1:IrisCluster iriscluster-default-iris-at-work deleted/,
      );
    } finally {
      delete cli.env.PULUMI_K8S_DELETE_UNREACHABLE;
    }
    const state = await stack.exportState();
    assert.ok(
      !state.includes("iriscluster-default-iris-at-work"),
      "the deleted cluster's resources are gone from the state",
    );
    await stack.up();
    work = clientsFromText(await stack.output("workKubeconfig"));
    assert.notStrictEqual(
      (await work.core.readNamespace({ name: "kube-system" })).metadata?.uid,
      oldSystemUid,
      "a new work cluster",
    );
    await reconciled(work, IRIS);
    await stack.preview(["--expect-no-changes"]);
  });

  it("destroy leaves no kind container, nothing new on the mirror, no file in the working tree (outside the .iko-plus/ cache) or in ~/.kube", async () => {
    await stack.destroy();
    assert.deepStrictEqual(containersNamed([`${HOME}-`, `${WORK}-`]), []);
    assert.deepStrictEqual(
      kind("get", "clusters")
        .stdout.split("\n")
        .filter((n) => n === HOME || n === WORK),
      [],
    );
    assert.deepStrictEqual(await mirrorContent(), baseline.mirror);
    await stack.remove();
    assert.deepStrictEqual(
      untrackedFiles(REPO).filter((f) => !f.startsWith(".iko-plus/")),
      baseline.files,
    );
    assert.deepStrictEqual(kubeDirListing(), baseline.kube);
    assert.strictEqual(docker("ps", "-a", "--filter", `label=io.x-k8s.kind.cluster=${WORK}`, "-q").stdout.trim(), "");
  });
});
