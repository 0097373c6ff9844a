/**
 * Scale without loss (issue 6): 50 federated IrisClusters over 4 members with varied placements
 * (one member by name, pairs by name, by label, every member by label), each with its license
 * Secret, plus fleet Secrets. `pulumi up`, then every object must reach exactly its members (sets
 * compared per member and kind); `destroy` must leave nothing in Karmada or on a member. Records
 * objects_lost: expected objects missing plus objects where they must not be plus Kubernetes
 * objects recorded twice in the state (0 when all is well; the test fails otherwise).
 */
import * as assert from "assert";
import {
  CLUSTERS,
  FederatedSpec,
  FleetSpec,
  Mismatch,
  POLICIES,
  clusterReady,
  compare,
  describeMismatches,
  duplicateIds,
  expectedObjects,
  fleetStack,
  seconds,
  stackState,
} from "./fleet-inventory";
import { Clients, labClients, maybe, waitFor } from "./kube";
import { PulumiCli } from "./pulumi-cli";
import { recordResult } from "./results";
import { LabStack } from "./stacks";

const ALL = ["ikohome", "ikowork", "ikofett", "ikoclone", "ikogke"];
const MEMBERS = ["ikohome", "ikowork", "ikoclone", "ikogke"];
const COUNT = Number(process.env.IKO_SCALE_COUNT ?? 50);
const PREFIX = "scale";
/** Member labels: a tier that splits them in two, and a fleet label they all share. */
const LABELS: Record<string, Record<string, string>> = {
  ikohome: { scale: "yes", tier: "gold" },
  ikowork: { scale: "yes", tier: "gold" },
  ikoclone: { scale: "yes", tier: "silver" },
  ikogke: { scale: "yes", tier: "silver" },
};

/** The i-th IrisCluster's placement, cycling through five shapes. */
function federated(i: number): FederatedSpec {
  const name = `scale-${String(i).padStart(2, "0")}`;
  const base = { name, licenseKeyConfig: "scaleLicense" };
  switch (i % 5) {
    case 0: {
      const m = MEMBERS[i % 4];
      return { ...base, members: [m], placement: { clusterNames: [m] } };
    }
    case 1: {
      const ms = [MEMBERS[i % 4], MEMBERS[(i + 1) % 4]];
      return { ...base, members: ms, placement: { clusterNames: ms } };
    }
    case 2:
      return { ...base, members: ["ikohome", "ikowork"], placement: { labels: { tier: "gold" } } };
    case 3:
      return { ...base, members: ["ikoclone", "ikogke"], placement: { labels: { tier: "silver" } } };
    default:
      return { ...base, members: MEMBERS, placement: { labels: { scale: "yes" } } };
  }
}

function scaleFleet(): FleetSpec {
  return {
    members: MEMBERS.map((m) => ({ name: m, labels: LABELS[m] })),
    federated: Array.from({ length: COUNT }, (_, i) => federated(i)),
    fleetSecrets: [
      { name: "scale-shared-gold", members: ["ikohome", "ikowork"], labels: { tier: "gold" }, dataKey: "scaleShared" },
      { name: "scale-shared-all", members: MEMBERS, labels: { scale: "yes" }, dataKey: "scaleShared" },
      { name: "scale-shared-gke", members: ["ikogke"], clusterNames: ["ikogke"], dataKey: "scaleShared" },
    ],
    secrets: {
      scaleLicense: "IRIS-LICENSE-KEY-scale-0123456789abcdef",
      scaleShared: JSON.stringify({ password: "scale-shared-s3cr3t-99" }),
    },
  };
}

const count = (ms: Mismatch[]) => ms.reduce((n, m) => n + m.missing.length + m.extra.length, 0);

describe(`lab: scale without loss (${COUNT} federated IrisClusters over ${MEMBERS.length} members)`, function () {
  this.timeout(30 * 60_000);
  let cli: PulumiCli;
  const clients: Record<string, Clients> = {};
  const spec = scaleFleet();
  const expected = expectedObjects(spec, ALL);
  let stack: LabStack | undefined;
  const timings: string[] = [];

  before(() => {
    cli = new PulumiCli();
    clients.karmada = labClients("karmada");
    for (const m of ALL) clients[m] = labClients(m);
  });
  after(async () => {
    if (stack) {
      const r = await cli.run(["destroy", "--yes", "--skip-preview", "--stack", stack.name], { timeoutMs: 8 * 60_000 });
      if (r.code !== 0)
        console.error(
          `      destroy ${stack.name} failed:\n${`${r.stdout}\n${r.stderr}`.split("\n").slice(-25).join("\n")}`,
        );
      await stack.remove();
    }
    cli?.dispose();
    console.log(`      timings: ${timings.join("; ")}`);
  });

  it(`up: every object reaches exactly its members, none lost or duplicated`, async () => {
    const perMember = MEMBERS.map(
      (m) => `${m} ${expected[m].irisclusters.size} IrisClusters + ${expected[m].secrets.size} Secrets`,
    );
    console.log(
      `      expected: Karmada ${expected.karmada.irisclusters.size} templates + ${expected.karmada.secrets.size} Secrets; ${perMember.join(", ")}`,
    );
    stack = await fleetStack(cli, "labtest-scale", spec);
    const t0 = Date.now();
    await stack.up();
    timings.push(`up ${seconds(t0)} s`);
    const t1 = Date.now();
    let last: Mismatch[] = [];
    await waitFor(
      "every scale* object on exactly its clusters",
      async () => {
        last = await compare(clients, expected, PREFIX);
        return last.length === 0;
      },
      300_000,
      2000,
    ).catch(() => undefined);
    const state = await stackState(stack);
    const duplicates = duplicateIds(state);
    const lost = count(last) + duplicates.length;
    recordResult("objects_lost", lost);
    timings.push(`convergence ${seconds(t1)} s after up`);
    assert.deepStrictEqual(last, [], `objects lost, misplaced or extra: ${describeMismatches(last)}`);
    assert.deepStrictEqual(duplicates, [], "Kubernetes objects recorded twice in the state");
    assert.deepStrictEqual(state.pendingOperations, []);
    for (const m of MEMBERS)
      assert.ok(
        clusterReady(await maybe(() => clients.karmada.custom.getClusterCustomObject({ ...CLUSTERS, name: m }))),
        `Cluster ${m} Ready`,
      );
  });

  it("destroy removes every one of them from Karmada and the members", async () => {
    if (!stack) throw new Error("no stack: the up test did not run");
    const t0 = Date.now();
    await stack.destroy();
    timings.push(`destroy ${seconds(t0)} s`);
    const none = expectedObjects({ ...spec, federated: [], fleetSecrets: [] }, ALL);
    let left: Mismatch[] = [];
    await waitFor(
      "no scale* object anywhere",
      async () => {
        left = await compare(clients, none, PREFIX);
        return left.length === 0;
      },
      60_000,
      2000,
    ).catch(() => undefined);
    assert.deepStrictEqual(left, [], `left behind: ${describeMismatches(left)}`);
    const policies = (await clients.karmada.custom.listNamespacedCustomObject({
      ...POLICIES,
      namespace: "default",
    })) as { items: { metadata: { name: string } }[] };
    assert.deepStrictEqual(
      policies.items.map((p) => p.metadata.name).filter((n) => n.startsWith(PREFIX)),
      [],
      "no PropagationPolicy left",
    );
    for (const m of MEMBERS)
      assert.strictEqual(
        await maybe(() => clients.karmada.custom.getClusterCustomObject({ ...CLUSTERS, name: m })),
        undefined,
        `Cluster ${m} gone`,
      );
    await stack.remove();
    stack = undefined;
  });
});
