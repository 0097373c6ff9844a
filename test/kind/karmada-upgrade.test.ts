/**
 * kind tier: Karmada upgraded on a running fleet by a config change and `pulumi up`. The fleet
 * stack on three one-node kind clusters: `kup-host` runs Karmada from the real chart at the
 * version the tier upgrades from (KARMADA_UPGRADE_SOURCES, v1.16.0, its images built from that
 * version's Go module), `kup-push` is joined in Push mode and `kup-pull` in Pull mode (its agent
 * at Karmada's version), a federated IrisCluster runs on both. Then the chart and its version move
 * to the default (v1.18.2): the preview only updates; after `up` each member's IrisCluster has the
 * same UID and its pod was not restarted, both Clusters are Ready, the Pull member's agent runs
 * the new version, and an IrisCluster federated after the upgrade is reconciled on both. How long
 * each Cluster was not Ready during the upgrade is measured and printed.
 */
import * as assert from "assert";
import { KARMADA_CHART_VERSION } from "../../components/karmada/values";
import { Clients, clientsFromText, maybe, waitFor } from "../lab/kube";
import { PulumiCli } from "../lab/pulumi-cli";
import { LabStack } from "../lab/stacks";
import { stopAfterFirstFailure } from "../steps";
import {
  KARMADA_HOST_NAMESPACE,
  containersNamed,
  karmadaTierEnv,
  kindFleetConfig,
  kindPulumiCli,
  printKarmadaDiagnostics,
  sh,
  tierEnv,
} from "./tier";

const HOST = "kup-host";
const PUSH = "kup-push";
const PULL = "kup-pull";
const STACK = "kindtest-karmada-upgrade";
const PORT = 32302;
const env = tierEnv();
const kenv = karmadaTierEnv();
/** The version the fleet starts at, and the chart of it (testbed/kind-tier/karmada-images.sh builds both). */
const FROM = (kenv.KARMADA_UPGRADE_SOURCES ?? "").split(" ")[0];
const FROM_CHART = kenv[`KARMADA_CHART_PATH_${FROM.toUpperCase().replace(/\./g, "_")}`];
const TO = kenv.KARMADA_VERSION;
const LICENSE = "IRIS-LICENSE-KEY-upgrade-0123456789abcdef";
const MEMBERS = [PUSH, PULL] as const;

type Cond = { type: string; status: string };
type Obj = Record<string, unknown> & {
  metadata?: { name?: string; uid?: string };
  status?: { conditions?: Cond[]; phase?: string };
};
const ready = (o: Obj | undefined) => o?.status?.conditions?.find((c) => c.type === "Ready")?.status === "True";
const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const iris = (name: string) => ({
  group: "intersystems.com",
  version: "v1alpha1",
  plural: "irisclusters",
  namespace: "default",
  name,
});
const clusterObj = (name: string) => ({ group: "cluster.karmada.io", version: "v1alpha1", plural: "clusters", name });

/** The fleet at Karmada `version` (its chart), with the federated IrisClusters named. */
function config(version: string, chartPath: string, irisNames: string[]): Record<string, unknown> {
  const base = kindFleetConfig(HOST, PUSH, kenv, env) as Record<string, unknown>;
  const [host, push] = base["iko-plus:clusters"] as Record<string, unknown>[];
  const baseKarmada = base["iko-plus:karmada"] as { images: Record<string, string> } & Record<string, unknown>;
  const template = (base["iko-plus:federatedIrisClusters"] as Record<string, unknown>[])[0];
  return {
    ...base,
    "iko-plus:clusters": [
      { ...host, iko: false, extraPortMappings: [{ containerPort: PORT, hostPort: PORT }] },
      { ...push, join: { provider: "kind", labels: { role: "member" } } },
      { ...push, name: PULL, join: { provider: "kind", labels: { role: "member" }, syncMode: "Pull" } },
    ],
    // Karmada's own images and the agent's follow chartVersion (docker.io/karmada/*:<version>,
    // as the tier builds them); the shared ones are the tier's.
    "iko-plus:karmada": {
      ...baseKarmada,
      endpoint: `https://127.0.0.1:${PORT}`,
      nodePort: PORT,
      chartPath,
      chartVersion: version,
      images: {
        apiServer: baseKarmada.images.apiServer,
        kubeControllerManager: baseKarmada.images.kubeControllerManager,
        etcd: baseKarmada.images.etcd,
        cfssl: baseKarmada.images.cfssl,
        kubectl: baseKarmada.images.kubectl,
      },
    },
    "iko-plus:federatedIrisClusters": irisNames.map((name) => ({
      ...template,
      name,
      policyName: `${name}-propagate`,
      licenseKeyConfig: "irisLicenseKey",
      placement: { labels: { role: "member" } },
    })),
    "iko-plus:fleetSecrets": [],
  };
}

describe(`kind tier: Karmada upgraded ${FROM} -> ${TO} by config and up, a Push and a Pull member joined, an IrisCluster running on each`, function () {
  stopAfterFirstFailure(this);
  let cli: PulumiCli;
  let stack: LabStack;
  let karmada: Clients;
  const members: Record<string, Clients> = {};
  const baseline: Record<string, { iris: string; pod: string; restarts: number }> = {};
  const kind = (...args: string[]) => sh(env.KIND_BIN, args);
  const setConfig = (version: string, chartPath: string, irisNames: string[]) =>
    stack.edit((c) => {
      for (const k of Object.keys(config(version, chartPath, irisNames))) delete c[k];
      Object.assign(c, config(version, chartPath, irisNames));
    });
  const runningOn = (member: string, name: string) =>
    waitFor(
      `${name} Running and Ready on ${member}`,
      async () => {
        const o = (await maybe(() => members[member].custom.getNamespacedCustomObject(iris(name)))) as Obj | undefined;
        return o?.status?.phase === "Running" && ready(o) ? o : undefined;
      },
      420_000,
      3000,
    );
  const dataPod = (member: string, name: string) =>
    members[member].core.readNamespacedPod({ name: `${name}-data-0`, namespace: "default" });

  before(async () => {
    assert.ok(
      FROM && FROM_CHART,
      "karmada-images.env names the upgrade source and its chart (bash testbed/kind-tier/karmada-images.sh build)",
    );
    assert.strictEqual(TO, KARMADA_CHART_VERSION, "the tier's default Karmada is the product's");
    cli = kindPulumiCli(env);
    for (const name of [HOST, ...MEMBERS]) kind("delete", "cluster", "--name", name);
    stack = new LabStack(cli, STACK, "Pulumi.fleet.yaml", config(FROM, FROM_CHART, ["before-upgrade"]));
    await stack.init();
    await cli.ok(["config", "set", "--secret", "--stack", STACK, "irisLicenseKey", LICENSE]);
  });

  afterEach(function () {
    if (this.currentTest?.state === "failed") printKarmadaDiagnostics(HOST, PORT);
  });

  after(async () => {
    if (stack) {
      await cli.run(["destroy", "--yes", "--skip-preview", "--continue-on-error", "--stack", STACK]);
      await stack.remove();
    }
    for (const name of [HOST, ...MEMBERS]) kind("delete", "cluster", "--name", name);
    cli?.dispose();
  });

  it(`up at ${FROM}: both members Ready in Karmada (Push and Pull), the IrisCluster Running on each`, async () => {
    const t0 = Date.now();
    await stack.up();
    console.log(`      up (three clusters, Karmada ${FROM}, two joins, IKO on the members): ${secs(Date.now() - t0)}`);
    const kcs = JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>;
    for (const m of MEMBERS) members[m] = clientsFromText(kcs[m]);
    karmada = clientsFromText(await stack.output("karmadaKubeconfig"));
    for (const m of MEMBERS) {
      await waitFor(
        `Cluster ${m} Ready`,
        async () => ready((await maybe(() => karmada.custom.getClusterCustomObject(clusterObj(m)))) as Obj),
        180_000,
        2000,
      );
      const o = await runningOn(m, "before-upgrade");
      const pod = await dataPod(m, "before-upgrade");
      baseline[m] = {
        iris: o.metadata?.uid as string,
        pod: pod.metadata?.uid as string,
        restarts: pod.status?.containerStatuses?.[0].restartCount ?? -1,
      };
    }
    const agent = (
      await members[PULL].apps.readNamespacedDeployment({ name: "karmada-agent", namespace: "karmada-cluster" })
    ).spec?.template.spec?.containers[0].image;
    assert.strictEqual(
      agent,
      `docker.io/karmada/karmada-agent:${FROM}`,
      "the Pull member's agent runs Karmada's version",
    );
  });

  it(`the chart and its version moved to ${TO}: the preview only updates (no cluster, join, Secret, policy or IrisCluster replaced or deleted)`, async () => {
    setConfig(TO, kenv.KARMADA_CHART_PATH, ["before-upgrade"]);
    const preview = await stack.preview(["--json"]);
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps;
    // ("read": the data sources each run reads again, e.g. a member's kube-system UID.)
    const changed = steps
      .filter((x) => x.op !== "same" && x.op !== "read")
      .map((x) => `${x.op} ${x.urn.split("::").pop()}`);
    console.log(`      the preview: ${changed.join(", ")}`);
    assert.deepStrictEqual(
      changed.filter((c) => !c.startsWith("update ")),
      [],
      JSON.stringify(changed),
    );
    assert.ok(changed.includes("update karmada-karmada"), `the release is updated: ${JSON.stringify(changed)}`);
    assert.ok(changed.includes(`update ${PULL}-member-agent`), `the agent is updated: ${JSON.stringify(changed)}`);
  });

  it(`up moves Karmada and the Pull agent to ${TO}: both Clusters Ready, each IrisCluster the same (UID, pod not restarted)`, async () => {
    // Each Cluster's Ready condition, read every second through the upgrade.
    const notReady: Record<string, number> = { [PUSH]: 0, [PULL]: 0 };
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const t = Date.now();
        for (const m of MEMBERS) {
          // The Karmada API itself restarts in the upgrade: an error counts as not Ready.
          const o = (await karmada.custom.getClusterCustomObject(clusterObj(m)).catch(() => undefined)) as
            | Obj
            | undefined;
          if (!ready(o)) notReady[m] += 1;
        }
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - t))));
      }
    })();
    const t0 = Date.now();
    try {
      await stack.up();
    } finally {
      console.log(`      up (Karmada ${FROM} -> ${TO}): ${secs(Date.now() - t0)}`);
    }
    for (const m of MEMBERS)
      await waitFor(
        `Cluster ${m} Ready`,
        async () => ready((await maybe(() => karmada.custom.getClusterCustomObject(clusterObj(m)))) as Obj),
        180_000,
        2000,
      );
    polling = false;
    await poll;
    console.log(
      `      seconds each Cluster was read not Ready (or unreadable) during and after up: ${PUSH} ${notReady[PUSH]}, ${PULL} ${notReady[PULL]}`,
    );
    const host = clientsFromText(
      (JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>)[HOST],
    );
    for (const d of [
      "karmada-controller-manager",
      "karmada-scheduler",
      "karmada-webhook",
      "karmada-aggregated-apiserver",
    ]) {
      const dep = await host.apps.readNamespacedDeployment({ name: d, namespace: KARMADA_HOST_NAMESPACE });
      assert.strictEqual(dep.spec?.template.spec?.containers[0].image, `docker.io/karmada/${d}:${TO}`, d);
      assert.strictEqual(dep.status?.updatedReplicas, dep.status?.replicas, `${d} rolled out`);
    }
    const agent = await waitFor(
      `the agent of ${TO} Ready on ${PULL}`,
      async () => {
        const pods = (
          await members[PULL].core.listNamespacedPod({
            namespace: "karmada-cluster",
            labelSelector: "app=karmada-agent",
          })
        ).items.filter((p) => !p.metadata?.deletionTimestamp);
        return pods.length === 1 &&
          pods[0].spec?.containers[0].image === `docker.io/karmada/karmada-agent:${TO}` &&
          pods[0].status?.conditions?.some((c) => c.type === "Ready" && c.status === "True")
          ? pods[0]
          : undefined;
      },
      120_000,
      2000,
    );
    assert.ok(agent);
    for (const m of MEMBERS) {
      const o = await runningOn(m, "before-upgrade");
      const pod = await dataPod(m, "before-upgrade");
      assert.deepStrictEqual(
        { iris: o.metadata?.uid, pod: pod.metadata?.uid, restarts: pod.status?.containerStatuses?.[0].restartCount },
        baseline[m],
        `${m}: the same IrisCluster and pod, not restarted`,
      );
    }
    await stack.preview(["--expect-no-changes"]);
  });

  it(`an IrisCluster federated after the upgrade is propagated to both members and reconciled there`, async () => {
    setConfig(TO, kenv.KARMADA_CHART_PATH, ["before-upgrade", "after-upgrade"]);
    const t0 = Date.now();
    await stack.up();
    for (const m of MEMBERS) await runningOn(m, "after-upgrade");
    console.log(`      up to Running on both members: ${secs(Date.now() - t0)}`);
  });

  it("destroy leaves no container", async () => {
    await stack.destroy();
    assert.deepStrictEqual(containersNamed(["kup-"]), []);
  });
});
