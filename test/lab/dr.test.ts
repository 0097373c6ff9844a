/**
 * Stack-per-region disaster recovery against the lab: a DR fleet stack (the lab's Karmada, no
 * clusters of its own) and two region stacks in one file:// backend. ikohome stands in for the
 * primary region (us-central1), ikowork for the DR region (europe-west1). The IrisCluster is
 * placed by ordered affinities (primary region first); stopping the primary's kube-apiserver makes
 * its Cluster not ready, the fleet's ClusterTaintPolicy taints it NoExecute, Karmada's taint
 * manager evicts it and the scheduler moves the IrisCluster to the DR member.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as YAML from "yaml";
import { Clients, labClients, labKubeconfigPath, maybe, waitFor } from "./kube";
import { StoppedProcess, restartLabProcess, stopLabProcess } from "./lab-process";
import { PulumiCli } from "./pulumi-cli";
import { LabStack, committedStackFile, labKarmada } from "./stacks";

const PRIMARY = "ikohome";
const DR = "ikowork";
const IRIS = {
  group: "intersystems.com",
  version: "v1alpha1",
  plural: "irisclusters",
  namespace: "default",
  name: "iris-dr",
};
const CLUSTERS = { group: "cluster.karmada.io", version: "v1alpha1", plural: "clusters" };
const BINDING = {
  group: "work.karmada.io",
  version: "v1alpha2",
  plural: "resourcebindings",
  namespace: "default",
  name: "iris-dr-iriscluster",
};
const TAINT_POLICY = {
  group: "policy.karmada.io",
  version: "v1alpha1",
  plural: "clustertaintpolicies",
  name: "iko-plus-not-ready",
};

type Obj = Record<string, unknown> & {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};
type Taint = { key: string; effect: string };

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

describe("lab: stack-per-region DR (fleet + two region stacks, cluster failover)", function () {
  this.timeout(25 * 60_000);
  let cli: PulumiCli;
  let fleet: LabStack;
  let primary: LabStack;
  let dr: LabStack;
  let orphan: LabStack;
  let karmada: Clients;
  const member: Record<string, Clients> = {};
  let stopped: StoppedProcess | undefined;
  const karmadaKey = () =>
    YAML.parse(fs.readFileSync(labKubeconfigPath("karmada"), "utf8")).users[0].user["client-key-data"] as string;

  const cluster = (name: string) =>
    maybe(() => karmada.custom.getClusterCustomObject({ ...CLUSTERS, name }) as Promise<Obj>);
  const ready = (c: Obj | undefined) =>
    ((c?.status?.conditions ?? []) as { type: string; status: string }[]).some(
      (x) => x.type === "Ready" && x.status === "True",
    );
  const taints = (c: Obj | undefined) => (c?.spec?.taints ?? []) as Taint[];
  const irisOn = (m: string) => maybe(() => member[m].custom.getNamespacedCustomObject(IRIS) as Promise<Obj>);
  // The lab runs no IKO operator: the test writes the status one would (phase Running), so the
  // interpreter judges the copy healthy and application failover (toleration 120 s) leaves it alone.
  const operatorReportsRunning = async (m: string) => {
    const obj = await waitFor(`iris-dr on ${m}`, () => irisOn(m), 120_000, 1000);
    await member[m].custom.replaceNamespacedCustomObjectStatus({
      ...IRIS,
      body: { ...obj, status: { phase: "Running" } },
    });
  };
  const bindingClusters = async () => {
    const b = await maybe(() => karmada.custom.getNamespacedCustomObject(BINDING) as Promise<Obj>);
    return ((b?.spec?.clusters ?? []) as { name: string }[]).map((c) => c.name);
  };

  before(async () => {
    cli = new PulumiCli();
    karmada = labClients("karmada");
    for (const m of [PRIMARY, DR]) member[m] = labClients(m);
    fleet = new LabStack(cli, "labtest-dr-fleet", "Pulumi.lab-dr-fleet.yaml", {
      "iko-plus:karmada": labKarmada(),
    });
    const region = (stack: string, from: string, name: string, fleetStack: string) => {
      const base = YAML.parse(fs.readFileSync(committedStackFile(from), "utf8")).config["iko-plus:member"] as Record<
        string,
        unknown
      >;
      return new LabStack(cli, stack, from, {
        "iko-plus:fleetStack": fleetStack,
        "iko-plus:member": { ...base, name, kubeconfigPath: labKubeconfigPath(name) },
      });
    };
    primary = region("labtest-dr-us-central1", "Pulumi.lab-dr-us-central1.yaml", PRIMARY, fleet.name);
    dr = region("labtest-dr-europe-west1", "Pulumi.lab-dr-europe-west1.yaml", DR, fleet.name);
    orphan = region("labtest-dr-orphan", "Pulumi.lab-dr-us-central1.yaml", PRIMARY, "labtest-dr-no-such-fleet");
    for (const s of [fleet, primary, dr, orphan]) await s.init();
  });
  after(async () => {
    if (stopped) restartLabProcess(stopped);
    for (const s of [orphan, dr, primary, fleet]) await s?.remove();
    cli?.dispose();
  });

  it("a region stack naming a fleet stack that does not exist fails with one message and creates nothing", async () => {
    const res = await cli.run(["preview", "--stack", orphan.name]);
    const out = `${res.stdout}\n${res.stderr}`;
    assert.notStrictEqual(res.code, 0, "preview must fail");
    const errors = out.split("\n").filter((l) => /^\s*error: /.test(l));
    console.log(`      missing fleet stack -> ${errors.map((e) => e.trim()).join(" | ")}`);
    assert.ok(
      errors.some((l) => l.includes("labtest-dr-no-such-fleet")),
      `the error names the missing fleet stack:\n${out}`,
    );
    assert.ok(!/\bat .*\.(ts|js):\d+/.test(out), `no stack trace in the output:\n${out}`);
    const state = JSON.parse((await cli.ok(["stack", "export", "--stack", orphan.name])).stdout) as {
      deployment?: { resources?: unknown[] };
    };
    assert.deepStrictEqual(state.deployment?.resources ?? [], [], "nothing was created");
  });

  it("pulumi up: the fleet first, then both regions; each member joined with its region and zone", async () => {
    await fleet.up();
    await primary.up();
    await dr.up();
    for (const [m, region] of [
      [PRIMARY, "us-central1"],
      [DR, "europe-west1"],
    ]) {
      const c = await waitFor(
        `Cluster ${m} Ready`,
        async () => {
          const o = await cluster(m);
          return ready(o) ? o : undefined;
        },
        120_000,
      );
      assert.deepStrictEqual(
        [c.spec?.region, c.spec?.zones, c.spec?.provider, c.metadata?.labels?.dr],
        [region, [`${region}-a`], "lab", "lab"],
      );
    }
    assert.strictEqual(await primary.output("joinedMember"), PRIMARY);
    assert.strictEqual(await dr.output("memberRegion"), "europe-west1");
    const policy = (await karmada.custom.getClusterCustomObject(TAINT_POLICY)) as Obj;
    assert.deepStrictEqual(policy.spec?.taints, [{ key: "cluster.karmada.io/not-ready", effect: "NoExecute" }]);
  });

  it("the IrisCluster lands on the primary region's member only", async () => {
    await waitFor(`iris-dr on ${PRIMARY}`, () => irisOn(PRIMARY), 120_000);
    // No operator has reconciled it yet: Karmada must count it unhealthy (issue 15), then healthy once one reports Running.
    const health = async () =>
      (
        (await maybe(() => karmada.custom.getNamespacedCustomObject(BINDING) as Promise<Obj>))?.status
          ?.aggregatedStatus as { health?: string }[] | undefined
      )?.[0]?.health;
    await waitFor(
      "the unreconciled copy Unhealthy in the binding",
      async () => (await health()) === "Unhealthy",
      60_000,
      1000,
    );
    await operatorReportsRunning(PRIMARY);
    await waitFor(
      "Healthy in the binding once the operator reports Running",
      async () => (await health()) === "Healthy",
      60_000,
      1000,
    );
    assert.deepStrictEqual(await bindingClusters(), [PRIMARY]);
    assert.strictEqual(await irisOn(DR), undefined, `no IrisCluster on ${DR}`);
    const pp = (await karmada.custom.getNamespacedCustomObject({
      group: "policy.karmada.io",
      version: "v1alpha1",
      plural: "propagationpolicies",
      namespace: "default",
      name: "iris-dr-propagate",
    })) as Obj;
    const placement = pp.spec?.placement as { clusterAffinities: { affinityName: string }[] };
    assert.deepStrictEqual(
      placement.clusterAffinities.map((a) => a.affinityName),
      ["primary", "dr"],
    );
  });

  it("the primary's kube-apiserver stops: not ready, NoExecute taint, the IrisCluster moves to the DR member", async () => {
    const t0 = Date.now();
    stopped = await stopLabProcess(PRIMARY, "kube-apiserver");
    await waitFor(`Cluster ${PRIMARY} not Ready`, async () => !ready(await cluster(PRIMARY)), 180_000, 1000);
    const notReady = seconds(t0);
    await waitFor(
      `NoExecute taint on ${PRIMARY}`,
      async () =>
        taints(await cluster(PRIMARY)).some(
          (t) => t.key === "cluster.karmada.io/not-ready" && t.effect === "NoExecute",
        ),
      60_000,
      1000,
    );
    const tainted = seconds(t0);
    await waitFor(
      `binding moved to ${DR}`,
      async () => JSON.stringify(await bindingClusters()) === JSON.stringify([DR]),
      120_000,
      1000,
    );
    const rescheduled = seconds(t0);
    await waitFor(`iris-dr on ${DR}`, () => irisOn(DR), 120_000, 1000);
    const landed = seconds(t0);
    await operatorReportsRunning(DR);
    console.log(
      `      failover: not ready ${notReady} s, NoExecute taint ${tainted} s, rescheduled ${rescheduled} s, IrisCluster on ${DR} ${landed} s after the apiserver stopped`,
    );
    const binding = (await karmada.custom.getNamespacedCustomObject(BINDING)) as Obj;
    assert.strictEqual(
      (binding.status as { schedulerObservingAffinityName?: string }).schedulerObservingAffinityName,
      "dr",
    );
  });

  it("the primary comes back: its taint goes, the stale clone is removed there, the IrisCluster stays on the DR member", async () => {
    assert.ok(stopped, "the previous test stopped the apiserver");
    restartLabProcess(stopped);
    stopped = undefined;
    const t0 = Date.now();
    await waitFor(`Cluster ${PRIMARY} Ready again`, async () => ready(await cluster(PRIMARY)), 180_000, 1000);
    await waitFor(
      "the NoExecute taint removed",
      async () => !taints(await cluster(PRIMARY)).some((t) => t.effect === "NoExecute"),
      60_000,
      1000,
    );
    await waitFor(
      `the stale iris-dr removed from ${PRIMARY}`,
      async () => (await irisOn(PRIMARY)) === undefined,
      180_000,
      1000,
    );
    console.log(
      `      recovery: ${PRIMARY} Ready, untainted and cleaned ${seconds(t0)} s after the apiserver restarted`,
    );
    assert.ok(await irisOn(DR), `iris-dr stays on ${DR}`);
    assert.deepStrictEqual(await bindingClusters(), [DR]);
  });

  it("no stack's state holds the Karmada or member client key in plaintext", async () => {
    const keys = [
      karmadaKey(),
      ...[PRIMARY, DR].map(
        (m) => YAML.parse(fs.readFileSync(labKubeconfigPath(m), "utf8")).users[0].user["client-key-data"] as string,
      ),
    ];
    for (const s of [fleet, primary, dr]) {
      const state = await s.exportState();
      for (const k of keys) assert.ok(!state.includes(k), `plaintext client key in ${s.name}'s state`);
    }
  });

  it("pulumi destroy: the regions first, then the fleet; nothing is left", async () => {
    await dr.destroy();
    await primary.destroy();
    await fleet.destroy();
    for (const m of [PRIMARY, DR]) {
      assert.strictEqual(await cluster(m), undefined, `Cluster ${m} gone`);
      assert.strictEqual(
        await maybe(() => karmada.core.readNamespacedSecret({ name: m, namespace: "karmada-cluster" })),
        undefined,
      );
      await waitFor(
        `karmada-cluster namespace gone from ${m}`,
        async () => (await maybe(() => member[m].core.readNamespace({ name: "karmada-cluster" }))) === undefined,
        120_000,
      );
      assert.strictEqual(
        await maybe(() => member[m].crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" })),
        undefined,
        `CRD gone from ${m}`,
      );
      assert.strictEqual(
        await maybe(() => member[m].rbac.readClusterRole({ name: `karmada-controller-manager:karmada-${m}` })),
        undefined,
      );
      const releases = await member[m].core.listSecretForAllNamespaces({ labelSelector: "owner=helm" });
      assert.deepStrictEqual(
        releases.items.map((s) => s.metadata?.name),
        [],
        `no Helm release left on ${m}`,
      );
    }
    assert.strictEqual(
      await maybe(() => karmada.custom.getClusterCustomObject(TAINT_POLICY)),
      undefined,
      "ClusterTaintPolicy gone",
    );
    assert.strictEqual(
      await maybe(() => karmada.crds.readCustomResourceDefinition({ name: "irisclusters.intersystems.com" })),
      undefined,
    );
    const pps = (await karmada.custom.listNamespacedCustomObject({
      group: "policy.karmada.io",
      version: "v1alpha1",
      plural: "propagationpolicies",
      namespace: "default",
    })) as { items: unknown[] };
    assert.deepStrictEqual(pps.items, [], "no PropagationPolicy left in Karmada");
    for (const s of [fleet, primary, dr]) {
      const state = JSON.parse(await s.exportState()) as { deployment?: { resources?: unknown[] } };
      assert.deepStrictEqual(state.deployment?.resources ?? [], [], `${s.name} holds no resources`);
    }
  });
});
