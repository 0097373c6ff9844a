/**
 * Faults against the real lab (issue 6): a member's kube-apiserver stopped in the middle of
 * `pulumi up`, Karmada's controller-manager stopped mid-propagation, `pulumi up` interrupted
 * (SIGINT, then SIGKILL) and recovered as the README documents, a member's join token revoked and
 * re-minted. One fleet stack (three members) goes through all of them in turn; after each, every
 * object must be on exactly its clusters, recorded once in the state, with no pending operation.
 * A scenario adds 1 to fault_scenarios_survived only after all its assertions passed. Whatever
 * happens, `after` starts every lab component this file stopped and destroys the stack.
 */
import * as assert from "assert";
import { parseComponent, startComponent, stopComponent } from "../../testbed/lab/src/control";
import {
  CLUSTERS,
  FleetSpec,
  IRIS,
  Obj,
  clusterReady,
  clusterReadyStatus,
  compare,
  describeMismatches,
  duplicateIds,
  expectedObjects,
  fleetConfig,
  fleetStack,
  seconds,
  stackState,
} from "./fleet-inventory";
import { Clients, labClients, labDir, maybe, waitFor } from "./kube";
import { PulumiCli, RunResult } from "./pulumi-cli";
import { recordResult } from "./results";
import { LabStack } from "./stacks";

const ALL = ["ikohome", "ikowork", "ikofett", "ikoclone", "ikogke"];
const VICTIM = "ikoclone";
const MEMBERS = ["ikohome", "ikowork", VICTIM];
const PREFIX = "fault";
const LICENSE = "IRIS-LICENSE-KEY-faults-0123456789abcdef";
const SHARED = JSON.stringify({ password: "faults-shared-s3cr3t-77" });

/** Three members; an IrisCluster on one, one on all (by label), one on the victim; a Secret on all. */
function baseFleet(): FleetSpec {
  return {
    members: MEMBERS.map((m) => ({ name: m, labels: { fault: "yes", site: m }, iko: m === VICTIM })),
    federated: [
      {
        name: "fault-a",
        members: ["ikohome"],
        placement: { clusterNames: ["ikohome"] },
        licenseKeyConfig: "faultLicense",
      },
      {
        name: "fault-all",
        members: MEMBERS,
        placement: { labels: { fault: "yes" } },
        licenseKeyConfig: "faultLicense",
      },
      { name: "fault-v", members: [VICTIM], placement: { clusterNames: [VICTIM] } },
    ],
    fleetSecrets: [{ name: "fault-shared", members: MEMBERS, labels: { fault: "yes" }, dataKey: "faultShared" }],
    secrets: { faultLicense: LICENSE, faultShared: SHARED },
  };
}

const outputOf = (r: RunResult) => `${r.stdout}\n${r.stderr}`;
/** Error lines, each with the "* …" detail lines that follow it (a provider's wrapped errors). */
const errorLines = (out: string) => {
  const lines = out.split("\n");
  return lines.flatMap((l, i) => {
    if (!/error/i.test(l) || /warning/.test(l)) return [];
    const details: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s*\*\s/.test(lines[j]); j++) details.push(lines[j]);
    return [l, ...details];
  });
};

/** Waits until a member mints ServiceAccount tokens again (its controllers serve), then cleans up. */
async function memberBack(c: Clients): Promise<void> {
  const ns = "default";
  const name = `probe-token-${Date.now()}`; // not "fault*": the inventory compares those
  await waitFor(
    "the member's API server to accept writes",
    () => maybe(() => c.core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name } } })),
    60_000,
    1000,
  );
  await c.core.createNamespacedSecret({
    namespace: ns,
    body: {
      metadata: { name, annotations: { "kubernetes.io/service-account.name": name } },
      type: "kubernetes.io/service-account-token",
    },
  });
  try {
    await waitFor(
      "the member's token controller to mint a token",
      async () => {
        const s = await maybe(() => c.core.readNamespacedSecret({ namespace: ns, name }));
        if (!s)
          await maybe(() =>
            c.core.createNamespacedSecret({
              namespace: ns,
              body: {
                metadata: { name, annotations: { "kubernetes.io/service-account.name": name } },
                type: "kubernetes.io/service-account-token",
              },
            }),
          );
        return Boolean(s?.data?.token);
      },
      120_000,
      1000,
    );
  } finally {
    await maybe(() => c.core.deleteNamespacedSecret({ namespace: ns, name }));
    await maybe(() => c.core.deleteNamespacedServiceAccount({ namespace: ns, name }));
  }
}

describe("lab: faults (apiserver down mid-up, controller-manager down, interrupted up, revoked token)", function () {
  this.timeout(20 * 60_000);
  let cli: PulumiCli;
  const clients: Record<string, Clients> = {};
  const spec = baseFleet();
  let stack: LabStack | undefined;
  const stopped = new Set<string>();
  const timings: string[] = [];

  const stop = async (component: string) => {
    const { owner, component: c } = parseComponent(component);
    stopped.add(component);
    await stopComponent(labDir(), owner, c, 1000);
  };
  const start = async (component: string) => {
    const { owner, component: c } = parseComponent(component);
    await startComponent(labDir(), owner, c);
    stopped.delete(component);
  };
  const cluster = (name: string) =>
    maybe(() => clients.karmada.custom.getClusterCustomObject({ ...CLUSTERS, name }) as Promise<Obj>);
  const the = (): LabStack => {
    if (!stack) throw new Error("the stack was not created");
    return stack;
  };
  /** Every object on exactly its clusters (within `timeoutMs`), each recorded once, no pending operation, every member Ready. */
  const assertConverged = async (what: string, timeoutMs = 120_000) => {
    const expected = expectedObjects(spec, ALL);
    let last = "";
    const t0 = Date.now();
    await waitFor(
      `${what}: every ${PREFIX}* object on exactly its clusters`,
      async () => {
        const ms = await compare(clients, expected, PREFIX);
        last = describeMismatches(ms);
        return ms.length === 0;
      },
      timeoutMs,
      1000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; last: ${last}`);
    });
    const state = await stackState(the());
    assert.deepStrictEqual(state.pendingOperations, [], `${what}: no pending operation in the state`);
    assert.deepStrictEqual(duplicateIds(state), [], `${what}: no Kubernetes object recorded twice in the state`);
    for (const m of MEMBERS) assert.ok(clusterReady(await cluster(m)), `${what}: Cluster ${m} Ready in Karmada`);
    return seconds(t0);
  };
  /** `pulumi up` that fails with the run's error lines (which resource, which cluster) rather than its tail. */
  const up = async (extra: string[] = []) => {
    const r = await cli.run(["up", "--yes", "--skip-preview", "--stack", the().name, ...extra]);
    if (r.code !== 0)
      throw new Error(
        `pulumi up ${extra.join(" ")} exited ${r.code}:\n${errorLines(outputOf(r)).slice(0, 20).join("\n")}`,
      );
  };
  /** The mismatches now, retried while an API server answers with an error (e.g. 429 while its cache initialises). */
  const mismatchesNow = () =>
    waitFor(
      "a complete listing of every cluster",
      async () => compare(clients, expectedObjects(spec, ALL), PREFIX),
      30_000,
      1000,
    );
  const setSpec = () => the().edit((c) => Object.assign(c, fleetConfig(spec)));

  before(() => {
    cli = new PulumiCli();
    clients.karmada = labClients("karmada");
    for (const m of ALL) clients[m] = labClients(m);
  });
  after(async () => {
    for (const component of [...stopped]) {
      const { owner, component: c } = parseComponent(component);
      await startComponent(labDir(), owner, c).catch((e: Error) =>
        console.error(`      could not start ${component} again: ${e.message}`),
      );
    }
    if (stack) {
      const r = await cli.run(["destroy", "--yes", "--skip-preview", "--stack", stack.name], { timeoutMs: 6 * 60_000 });
      if (r.code !== 0)
        console.error(`      destroy ${stack.name} failed:\n${outputOf(r).split("\n").slice(-25).join("\n")}`);
      await stack.remove();
    }
    cli?.dispose();
    console.log(`      timings: ${timings.join("; ")}`);
  });

  it("a member's kube-apiserver stopped mid-up: the error names it, the other members converge, a plain up afterwards converges", async () => {
    stack = await fleetStack(cli, "labtest-faults", spec);
    const t0 = Date.now();
    const run = cli.start(["up", "--yes", "--skip-preview", "--continue-on-error", "--stack", stack.name]);
    // Stopped when the victim's first resource is being created: the program has read every kubeconfig.
    await waitFor(
      `pulumi up to create ${VICTIM}'s first resource`,
      async () => new RegExp(`${VICTIM}-\\S+ creating`).test(run.output()),
      120_000,
      50,
    );
    await stop(`${VICTIM}/kube-apiserver`).catch(async (e: Error) => {
      await run.done;
      throw e;
    });
    try {
      await s1WhileDown(run, t0);
    } finally {
      if (stopped.has(`${VICTIM}/kube-apiserver`)) await start(`${VICTIM}/kube-apiserver`);
    }
    // "Back" means serving again, controllers included: the member's kube-controller-manager
    // re-lists after its watches broke (client-go backs off up to 30 s), and until then it mints
    // no ServiceAccount token. A probe token Secret shows when it does.
    const tBack = Date.now();
    await memberBack(clients[VICTIM]);
    timings.push(`${VICTIM} back (token controller minting again) ${seconds(tBack)} s after its apiserver restarted`);
    const t1 = Date.now();
    await up();
    timings.push(`recovery up ${seconds(t1)} s`);
    timings.push(`converged ${await assertConverged("after the member came back")} s after it`);
    recordResult("fault_scenarios_survived", 1);
  });

  const s1WhileDown = async (run: ReturnType<PulumiCli["start"]>, t0: number) => {
    timings.push(`S1: apiserver stopped ${seconds(t0)} s into the up`);
    const res = await run.done;
    timings.push(`failed up ${seconds(t0)} s`);
    const errors = errorLines(outputOf(res));
    console.log(
      `      failed up, first errors:\n${errors
        .slice(0, 6)
        .map((l) => `        ${l.trim().slice(0, 200)}`)
        .join("\n")}`,
    );
    assert.notStrictEqual(res.code, 0, "the up fails while a member is down");
    assert.ok(
      errors.some((l) => l.includes(`${VICTIM}-`)),
      `an error names ${VICTIM}`,
    );
    const healthy = MEMBERS.filter((m) => m !== VICTIM);
    assert.deepStrictEqual(
      errors.filter((l) => healthy.some((m) => l.includes(`${m}-`))),
      [],
      "no error about a healthy member",
    );
    for (const m of healthy) {
      assert.ok(
        await waitFor(`Cluster ${m} Ready while ${VICTIM} is down`, async () => clusterReady(await cluster(m)), 60_000),
        `the join of ${m} converged`,
      );
    }
    assert.ok(!clusterReady(await cluster(VICTIM)), `${VICTIM} is not joined yet`);
    // What is placed only on healthy members does not wait for the one that is down.
    for (const f of spec.federated.filter((x) => !x.members.includes(VICTIM))) {
      for (const m of f.members) {
        await waitFor(
          `${f.name} on ${m} while ${VICTIM} is down`,
          () =>
            maybe(() => clients[m].custom.getNamespacedCustomObject({ ...IRIS, namespace: "default", name: f.name })),
          120_000,
          1000,
        );
      }
    }
    timings.push(`IrisClusters placed only on healthy members there ${seconds(t0)} s after the up started`);
  };

  it("Karmada's controller-manager stopped mid-propagation: after its restart propagation completes without another up", async () => {
    spec.federated.push({
      name: "fault-c",
      members: ["ikohome", "ikowork"],
      placement: { clusterNames: ["ikohome", "ikowork"] },
      licenseKeyConfig: "faultLicense",
    });
    setSpec();
    const run = cli.start(["up", "--yes", "--skip-preview", "--stack", the().name]);
    await waitFor("pulumi up to create fault-c", async () => /fault-c\S* creating/.test(run.output()), 120_000, 50);
    await stop("karmada/karmada-controller-manager");
    try {
      await checkDuringOutage(run);
    } finally {
      if (stopped.has("karmada/karmada-controller-manager")) await start("karmada/karmada-controller-manager");
    }
  });

  const checkDuringOutage = async (run: ReturnType<PulumiCli["start"]>) => {
    const res = await run.done;
    assert.strictEqual(
      res.code,
      0,
      `the up itself succeeds (it only writes the Karmada API):\n${outputOf(res).slice(-3000)}`,
    );
    await new Promise((r) => setTimeout(r, 5000));
    const during = await mismatchesNow();
    console.log(`      with the controller-manager down: ${describeMismatches(during) || "nothing missing"}`);
    assert.ok(
      during.some((m) => m.missing.includes("fault-c")),
      "fault-c has not reached its members while the controller-manager is down",
    );
    const t0 = Date.now();
    await start("karmada/karmada-controller-manager");
    timings.push(
      `S2: converged ${await assertConverged("after the controller-manager restart")} s after the restart (${seconds(t0)} s incl. start)`,
    );
    recordResult("fault_scenarios_survived", 1);
  };

  it("pulumi up interrupted (SIGINT, then SIGKILL): the documented recovery (refresh, then up) converges", async () => {
    spec.federated = spec.federated.filter((f) => f.name !== "fault-c");
    spec.federated.push({
      name: "fault-d",
      members: ["ikowork", VICTIM],
      placement: { clusterNames: ["ikowork", VICTIM] },
      licenseKeyConfig: "faultLicense",
    });
    setSpec();
    const run = cli.start(["up", "--yes", "--skip-preview", "--stack", the().name]);
    await waitFor(
      "pulumi up to start changing resources",
      async () => /(creating|deleting) \(/.test(run.output()),
      120_000,
      20,
    );
    run.signal("SIGINT");
    await new Promise((r) => setTimeout(r, 300));
    const killed = run.signal("SIGKILL");
    const res = await run.done;
    console.log(`      interrupted up: exit ${res.code}${killed ? ", SIGKILLed after SIGINT" : ", ended on SIGINT"}`);
    const before = await stackState(the());
    console.log(`      state after the interrupt: ${before.pendingOperations.length} pending operation(s)`);

    // The recovery, exactly as the README documents it.
    const t0 = Date.now();
    const steps: string[] = [];
    const probe = await cli.run([
      "refresh",
      "--yes",
      "--skip-preview",
      "--clear-pending-creates",
      "--stack",
      the().name,
    ]);
    if (probe.code !== 0 && /locked/.test(outputOf(probe))) {
      steps.push("cancel");
      await cli.ok(["cancel", "--yes", "--stack", the().name]);
      await cli.ok(["refresh", "--yes", "--skip-preview", "--clear-pending-creates", "--stack", the().name]);
    } else if (probe.code !== 0) {
      assert.fail(`pulumi refresh failed:\n${outputOf(probe).slice(-3000)}`);
    }
    steps.push("refresh --clear-pending-creates", "up");
    await up();
    timings.push(`S3: recovery (${steps.join(", ")}) ${seconds(t0)} s`);
    timings.push(`converged ${await assertConverged("after the recovery")} s after it`);
    recordResult("fault_scenarios_survived", 1);
  });

  it("a member's join token revoked: Karmada reports it not ready; pulumi up --refresh re-mints it and it comes back Ready", async () => {
    const member = "ikowork";
    const t0 = Date.now();
    await clients[member].core.deleteNamespacedSecret({ name: `karmada-${member}`, namespace: "karmada-cluster" });
    const status = await waitFor(
      `Cluster ${member} not Ready`,
      async () => {
        const s = clusterReadyStatus(await cluster(member));
        return s !== "True" ? s : undefined;
      },
      180_000,
      1000,
    );
    const notReady = seconds(t0);
    console.log(`      token Secret deleted: Cluster ${member} Ready=${status} after ${notReady} s`);
    const t1 = Date.now();
    await up(["--refresh"]);
    const upSeconds = seconds(t1);
    await waitFor(`Cluster ${member} Ready again`, async () => clusterReady(await cluster(member)), 180_000, 1000);
    timings.push(
      `S4: not Ready ${notReady} s after the revocation; up --refresh ${upSeconds} s; Ready again ${seconds(t1)} s after it started`,
    );
    assert.ok(
      await clients[member].core.readNamespacedSecret({ name: `karmada-${member}`, namespace: "karmada-cluster" }),
      "a new token Secret",
    );
    await assertConverged("after the token was re-minted");
    recordResult("fault_scenarios_survived", 1);
  });

  it("destroy leaves no fault* object in Karmada or on any member", async () => {
    await the().destroy();
    const none = expectedObjects({ ...spec, federated: [], fleetSecrets: [] }, ALL);
    assert.deepStrictEqual(await compare(clients, none, PREFIX), []);
    for (const m of MEMBERS) assert.strictEqual(await cluster(m), undefined, `Cluster ${m} gone`);
    await the().remove();
    stack = undefined;
  });
});
