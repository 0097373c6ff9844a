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
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PulumiCli, REPO } from "../lab/pulumi-cli";
import { LabStack } from "../lab/stacks";
import type { StatusReport } from "../../scripts/status/report";
import {
  containerCreated,
  containersNamed,
  docker,
  kindWfhConfig,
  kubeDirListing,
  mirrorEndpoint,
  mirrorContent,
  NEXT_IKO_STANDIN_IMAGE,
  nextIkoStandinChart,
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
  let nextChartDir = "";
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
    if (nextChartDir) fs.rmSync(nextChartDir, { recursive: true, force: true });
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

  it("npm run status: both clusters Ready with their CNI, the operator on home reconciling work, the IrisCluster Running; exit 0, no credential printed", async () => {
    const res = sh("bash", [path.join(REPO, "scripts", "pulumi.sh"), "status", "--json"], {
      env: { ...cli.env, STACK },
    });
    assert.strictEqual(res.code, 0, `${res.stdout.slice(-3000)}\n${res.stderr.slice(-2000)}`);
    const report = JSON.parse(res.stdout) as StatusReport & { healthy: boolean };
    assert.strictEqual(report.healthy, true);
    assert.deepStrictEqual(
      report.clusters.map((c) => [
        c.name,
        c.nodes.length,
        c.nodes.every((n) => n.ready),
        c.cni?.name,
        c.cni?.ready === c.cni?.desired,
      ]),
      [
        ["home", 2, true, "kindnet", true],
        ["work", 2, true, "kindnet", true],
      ],
    );
    assert.deepStrictEqual(
      report.clusters[0].operators.map((o) => [o.name, o.ready]),
      [["iko-iris-operator-amd", 1]],
    );
    assert.deepStrictEqual(report.operator?.reconciles, "work");
    assert.strictEqual(
      report.operator?.server,
      `https://${WORK}-control-plane:6443`,
      "the peer endpoint the operator uses",
    );
    assert.deepStrictEqual(
      report.clusters[1].irisClusters?.map((i) => [i.name, i.status?.phase]),
      [[IRIS, "Running"]],
    );
    const token = (
      YAML.parse(await stack.output("operatorTargetKubeconfig")) as { users: { user: { token: string } }[] }
    ).users[0].user.token;
    assert.ok(!res.stdout.includes(token) && !res.stderr.includes(token), "no credential in the view");
  });

  it("a second up changes nothing", async () => {
    await stack.preview(["--expect-no-changes"]);
    const res = await stack.up();
    assert.doesNotMatch(res.stdout, /\b(created|updated|replaced|deleted)\b/, res.stdout);
  });

  it("an IrisCluster whose image the mirror lacks: up fails within about a minute naming the pod, the image and the mirror, not after a timeout; the image fixed, up names the stuck pod to delete, then converges", async () => {
    const missing = IRIS_IMAGE.replace(/:[^:/]+$/, ":no-such-tag");
    stack.edit((c) => {
      (c["iko-plus:irisClusters"] as Record<string, unknown>[]).push({
        name: "iris-missing",
        image: missing,
        serviceType: "ClusterIP",
        readyTimeoutSeconds: 600,
      });
    });
    const t0 = Date.now();
    const res = await cli.run(["up", "--yes", "--skip-preview", "--stack", STACK]);
    const took = (Date.now() - t0) / 1000;
    assert.notStrictEqual(res.code, 0, "up fails");
    assert.ok(took < 180, `up failed after ${took.toFixed(0)} s (the wait's timeout is 600 s)`);
    const out = res.stdout + res.stderr;
    assert.match(
      out,
      /IrisCluster default\/iris-missing on ikpk-work cannot start: pod iris-missing-data-0 \(container \S+\) cannot pull /,
    );
    assert.ok(out.includes(missing), `the message names the image ${missing}`);
    assert.ok(out.includes(`pulls through the registry mirror ${mirrorEndpoint()}`), "and the mirror");
    console.log(`      up failed ${took.toFixed(0)} s after it started`);
    // The image fixed in the config: the pod that never became Ready keeps the bad image (a
    // StatefulSet does not replace it), and up says to delete it; deleted, up converges.
    stack.edit((c) => {
      const missingEntry = (c["iko-plus:irisClusters"] as { name: string; image: string }[]).find(
        (i) => i.name === "iris-missing",
      );
      if (missingEntry) missingEntry.image = IRIS_IMAGE;
    });
    const fixed = await cli.run(["up", "--yes", "--skip-preview", "--stack", STACK]);
    if (fixed.code !== 0) {
      assert.match(
        fixed.stdout + fixed.stderr,
        /pod iris-missing-data-0 still has the image \S+, which its spec no longer names .*delete it \(kubectl -n default delete pod iris-missing-data-0\)/,
      );
      console.log("      after the fix: up named the stuck pod and the command; deleting it");
      await work.core.deleteNamespacedPod({ name: "iris-missing-data-0", namespace: "default" });
      await stack.up();
    } else console.log("      after the fix: the operator replaced the pod itself; up converged");
    const fixedPod = await work.core.readNamespacedPod({ name: "iris-missing-data-0", namespace: "default" });
    assert.strictEqual(fixedPod.spec?.containers[0].image, IRIS_IMAGE, "the pod runs the fixed image");
    stack.edit((c) => {
      c["iko-plus:irisClusters"] = (c["iko-plus:irisClusters"] as { name: string }[]).filter(
        (i) => i.name !== "iris-missing",
      );
    });
    await stack.up();
    await stack.preview(["--expect-no-changes"]);
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

  it("IKO upgraded at home (the stand-in chart 3.8.42 -> 3.8.43 with a renamed values key, the operator image 3.8.42.100 -> 3.8.43.100): the preview updates only the operator's release; it rolls once, keeps --kubeconfig and the read-only mount, reconciles; nothing at work is recreated", async () => {
    const workUids = async () => {
      const crd = await work.crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" });
      const ic = (await work.custom.getNamespacedCustomObject({
        group: "intersystems.com",
        version: "v1alpha1",
        namespace: "default",
        plural: "irisclusters",
        name: IRIS,
      })) as { metadata: { uid: string } };
      const sts = await work.apps.readNamespacedStatefulSet({ name: `${IRIS}-data`, namespace: "default" });
      const pod = await work.core.readNamespacedPod({ name: `${IRIS}-data-0`, namespace: "default" });
      const sas = (await work.core.listServiceAccountForAllNamespaces()).items
        .filter((a) => a.metadata?.labels?.["app.kubernetes.io/managed-by"] === "iko-plus")
        .map((a) => `${a.metadata?.namespace}/${a.metadata?.name} ${a.metadata?.uid}`);
      return { crd: crd.metadata?.uid, ic: ic.metadata.uid, sts: sts.metadata?.uid, pod: pod.metadata?.uid, sas };
    };
    const replicaSets = async () =>
      (await home.apps.listNamespacedReplicaSet({ namespace: "iko" })).items.map((r) => r.metadata?.name).sort();
    const before = { work: await workUids(), replicaSets: await replicaSets() };
    // The next chart stays until the file ends: the later steps' runs read the config that names it.
    nextChartDir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-next-iko-"));
    const chartPath = nextIkoStandinChart(nextChartDir);
    stack.edit((c) => {
      const iko = c["iko-plus:iko"] as Record<string, unknown>;
      iko.chartPath = chartPath;
      iko.image = NEXT_IKO_STANDIN_IMAGE;
      iko.values = { operator: { threads: 3 } };
    });
    const preview = await stack.preview(["--json"]);
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps;
    const changed = steps.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.urn.split("::").pop()}`);
    assert.deepStrictEqual(changed, ["update iko-iko"], "the preview updates the operator's release, nothing else");
    const start = Date.now();
    await stack.up();
    console.log(`      up (IKO 3.8.42 -> 3.8.43 at home): ${((Date.now() - start) / 1000).toFixed(0)} s`);
    const after = await replicaSets();
    assert.deepStrictEqual(
      after.filter((r) => !before.replicaSets.includes(r)).length,
      1,
      `the operator rolled once: ReplicaSets ${JSON.stringify(before.replicaSets)} -> ${JSON.stringify(after)}`,
    );
    const op = await waitFor(
      "one operator pod of 3.8.43.100, Ready",
      async () => {
        const pods = await operatorPods(home);
        return pods.length === 1 &&
          pods[0].spec?.containers[0].image === NEXT_IKO_STANDIN_IMAGE &&
          pods[0].status?.conditions?.some((x) => x.type === "Ready" && x.status === "True")
          ? pods[0]
          : undefined;
      },
      120_000,
      1000,
    );
    const container = op.spec?.containers.find((c) => c.name === "operator");
    const flag = container?.args?.find((a) => a.startsWith("--kubeconfig="));
    assert.ok(flag, "the upgraded operator runs with --kubeconfig");
    assert.ok(
      container?.volumeMounts?.some((m) => m.readOnly && flag.slice("--kubeconfig=".length).startsWith(m.mountPath)),
      "the kubeconfig is still mounted read-only",
    );
    assert.strictEqual(
      container?.env?.find((e) => e.name === "ISC_NUM_THREADS")?.value,
      "3",
      "the renamed values key reaches the operator",
    );
    await reconciled(work, IRIS);
    assert.deepStrictEqual(await workUids(), before.work, "nothing at work recreated");
    // The upgraded operator reconciles: work's Service of the IrisCluster deleted, it makes it again.
    await work.core.deleteNamespacedService({ name: IRIS, namespace: "default" });
    const logs = await waitFor(
      "the upgraded operator recreates the IrisCluster's Service on work",
      async () => {
        const text = await home.core.readNamespacedPodLog({
          name: op.metadata?.name as string,
          namespace: "iko",
          container: "operator",
        });
        return text.includes(`created service default/${IRIS}`) ? text : undefined;
      },
      60_000,
      1000,
    );
    assert.match(
      logs,
      new RegExp(`STAND-IN for IKO 3\\.8\\.43\\.100 starting: target https://${WORK}-control-plane:6443`),
    );
    assert.ok(await work.core.readNamespacedService({ name: IRIS, namespace: "default" }));
    await stack.preview(["--expect-no-changes"]);
  });

  it("the node containers of work restarted (`docker restart`): the same cluster to the stack, up changes nothing", async () => {
    const uid = (await work.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    const nodes = containersNamed([`${WORK}-`]);
    assert.strictEqual(docker("restart", ...nodes).code, 0);
    await waitFor(
      "work's API answers again",
      () =>
        work.core.readNamespace({ name: "kube-system" }).then(
          () => true,
          () => false,
        ),
      180_000,
      2000,
    );
    assert.strictEqual((await work.core.readNamespace({ name: "kube-system" })).metadata?.uid, uid);
    await stack.preview(["--expect-no-changes"]);
    const res = await stack.up();
    assert.doesNotMatch(res.stdout, /\b(created|updated|replaced|deleted)\b/, res.stdout);
    await reconciled(work, IRIS);
  });

  it("work's control plane paused: up fails within a minute naming work, changes nothing; unpaused, up converges with no change", async () => {
    const before = await stack.exportState();
    assert.strictEqual(docker("pause", `${WORK}-control-plane`).code, 0);
    let res;
    const started = Date.now();
    try {
      res = await cli.run(["up", "--yes", "--skip-preview", "--stack", STACK]);
    } finally {
      assert.strictEqual(docker("unpause", `${WORK}-control-plane`).code, 0);
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`      up with work paused failed after ${seconds.toFixed(0)} s`);
    assert.notStrictEqual(res.code, 0, "up fails");
    assert.ok(seconds < 60, `failed within a minute (${seconds.toFixed(0)} s)`);
    const text = res.stdout + res.stderr;
    assert.match(
      text,
      new RegExp(`work \\(kind cluster "${WORK}"\\): the API server at https://127\\.0\\.0\\.1:\\d+ did not answer`),
    );
    assert.match(text, /docker unpause/);
    assert.doesNotMatch(text, /\b\d+ (replaced|deleted)\b/, "nothing replaced or deleted");
    const ids = (state: string) =>
      (JSON.parse(state) as { deployment: { resources: { urn: string; id?: string }[] } }).deployment.resources
        .map((r) => `${r.urn} ${r.id ?? ""}`)
        .sort();
    assert.deepStrictEqual(ids(await stack.exportState()), ids(before), "the state holds the same resources");
    await waitFor(
      "work's API answers again",
      () =>
        work.core.readNamespace({ name: "kube-system" }).then(
          () => true,
          () => false,
        ),
      120_000,
      2000,
    );
    const again = await stack.up();
    assert.doesNotMatch(again.stdout, /\b(created|replaced|deleted)\b/, again.stdout);
    await reconciled(work, IRIS);
  });

  it("work protected (work.protect: true): the same replacing change (workers 1 -> 2) fails preview and up, naming work's kind cluster as protected, and touches nothing; protection off again, up changes nothing", async () => {
    const resources = (state: string) =>
      (JSON.parse(state) as { deployment: { resources: { urn: string; id?: string }[] } }).deployment.resources
        .map((r) => `${r.urn} ${r.id ?? ""}`)
        .sort();
    stack.edit((c) => {
      (c["iko-plus:work"] as Record<string, unknown>).protect = true;
    });
    const on = await stack.up();
    assert.doesNotMatch(on.stdout, /\b(created|updated|replaced|deleted)\b/, on.stdout);
    const before = await stack.exportState();
    const uid = (await work.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    stack.edit((c) => {
      (c["iko-plus:work"] as Record<string, unknown>).workers = 2;
    });
    const refused = new RegExp(
      `unable to replace resource "urn:[^"]*::${WORK}-kind"\\s+as it is currently marked for protection`,
    );
    const preview = await cli.run(["preview", "--stack", STACK]);
    assert.notStrictEqual(preview.code, 0, "the preview fails");
    assert.match(preview.stdout + preview.stderr, refused);
    const up = await cli.run(["up", "--yes", "--skip-preview", "--stack", STACK]);
    assert.notStrictEqual(up.code, 0, "up fails");
    assert.match(up.stdout + up.stderr, refused);
    assert.deepStrictEqual(
      resources(await stack.exportState()),
      resources(before),
      "the state holds the same resources",
    );
    assert.strictEqual((await work.core.readNamespace({ name: "kube-system" })).metadata?.uid, uid, "the same work");
    assert.strictEqual((await work.core.listNode()).items.length, 2, "one control plane, one worker: not replaced");
    stack.edit((c) => {
      const w = c["iko-plus:work"] as Record<string, unknown>;
      w.workers = 1;
      w.protect = false;
    });
    const off = await stack.up();
    assert.doesNotMatch(off.stdout, /\b(created|updated|replaced|deleted)\b/, off.stdout);
  });

  it("work replaced by a config change (workers 1 -> 2): the preview replaces everything on work; after up the IrisCluster runs on the new work, reconciled by home's operator through a newly minted identity", async () => {
    const oldUid = (await work.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    const oldToken = (
      YAML.parse(await stack.output("operatorTargetKubeconfig")) as { users: { user: { token: string } }[] }
    ).users[0].user.token;
    stack.edit((c) => {
      (c["iko-plus:work"] as Record<string, unknown>).workers = 2;
    });
    const preview = await stack.preview(["--json"]);
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps;
    const replaced = steps
      .filter((x) => x.op === "replace" || x.op === "create-replacement")
      .map((x) => x.urn.split("::").pop());
    for (const name of [
      `${WORK}-kind`,
      `${WORK}-k8s`,
      "iriscluster-default-iris-at-work",
      "iko-identity-sa",
      "iko-identity-token",
      "iko-crd-crd",
    ])
      assert.ok(replaced.includes(name), `the preview replaces ${name}: ${JSON.stringify(replaced)}`);
    // Home stays: its cluster, its provider and the operator's release are not replaced.
    for (const name of [`${HOME}-kind`, `${HOME}-k8s`, "iko"])
      assert.ok(!replaced.includes(name), `the preview keeps ${name}: ${JSON.stringify(replaced)}`);
    await stack.up();
    work = clientsFromText(await stack.output("workKubeconfig"));
    assert.notStrictEqual(
      (await work.core.readNamespace({ name: "kube-system" })).metadata?.uid,
      oldUid,
      "a new work cluster",
    );
    assert.strictEqual((await work.core.listNode()).items.length, 3, "one control plane, two workers");
    // Everything the stack owns is on the new cluster (read at once: nothing is recreated later).
    assert.ok(
      await maybe(() => work.crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" })),
      "the IrisCluster CRD is on the new work",
    );
    assert.ok(
      await maybe(() =>
        work.custom.getNamespacedCustomObject({
          group: "intersystems.com",
          version: "v1alpha1",
          namespace: "default",
          plural: "irisclusters",
          name: IRIS,
        }),
      ),
      "the IrisCluster is on the new work",
    );
    const newToken = (
      YAML.parse(await stack.output("operatorTargetKubeconfig")) as { users: { user: { token: string } }[] }
    ).users[0].user.token;
    assert.notStrictEqual(newToken, oldToken, "a token minted on the new cluster");
    await reconciled(work, IRIS);
    await stack.preview(["--expect-no-changes"]);
  });

  it("work deleted out of band (`kind delete cluster`): `npm run preview` says so, `npm run up` recreates it and everything on it, with no variable typed", async () => {
    const oldSystemUid = (await work.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    assert.strictEqual(kind("delete", "cluster", "--name", WORK).code, 0);
    const npm = (cmd: string, ...extra: string[]) =>
      sh("bash", [path.join(REPO, "scripts", "pulumi.sh"), cmd, ...extra], { env: { ...cli.env, STACK } });
    // The preview cannot plan anything on a cluster that is gone: it fails naming it, after the report.
    const preview = npm("preview");
    assert.notStrictEqual(preview.code, 0);
    assert.match(preview.stderr, new RegExp(`kind cluster "${WORK}" no longer exists .*\`npm run up\` recreates it`));
    assert.match(
      preview.stdout + preview.stderr,
      new RegExp(`work \\(kind cluster "${WORK}"\\): the API server at \\S+ did not answer`),
    );
    const up = npm("up", "--yes", "--skip-preview");
    assert.strictEqual(up.code, 0, `${up.stdout}\n${up.stderr}`.split("\n").slice(-40).join("\n"));
    assert.match(
      up.stderr,
      new RegExp(`kind cluster "${WORK}" no longer exists \\(deleted outside the stack\\): dropping it`),
    );
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
