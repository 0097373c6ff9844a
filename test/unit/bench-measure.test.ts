import * as assert from "assert";
import {
  coresLoop,
  formatSpread,
  loopMs,
  machineBusySeconds,
  machineStealSeconds,
  median,
  medianRatio,
  ownCpuSeconds,
  sampleColumns,
  spread,
  stealShare,
} from "../../testbed/bench/measure";
import { fieldsNotIn } from "../../testbed/bench/fixture-match";
import { memUsageMib } from "../../testbed/bench/kind-three";

const sample = (wall: number, cpu = 1) => ({ wall, cpu, labCpu: 0.5, othersCpu: 0.25, stolen: 0.125, load: 1.5 });

describe("bench: measuring on a noisy machine (pure)", () => {
  it("median, spread and their formatting: odd and even counts, unsorted input left alone", () => {
    const xs = [3, 1, 2];
    assert.strictEqual(median(xs), 2);
    assert.deepStrictEqual(xs, [3, 1, 2]);
    assert.strictEqual(median([4, 1, 3, 2]), 2.5);
    assert.deepStrictEqual(spread([5.01, 6.03, 5.28]), { min: 5.01, median: 5.28, max: 6.03 });
    assert.strictEqual(formatSpread([5.01, 6.03, 5.28]), "5.28 (5.01–6.03)");
    assert.strictEqual(formatSpread([2785, 2723, 2903], 0), "2785 (2723–2903)");
    assert.throws(() => median([]), /median of no values/);
  });

  it("a ratio is of the two sides' medians, of the field asked", () => {
    const top = [sample(10, 4), sample(30, 6), sample(20, 5)];
    const bottom = [sample(5, 1), sample(15, 3), sample(10, 2)];
    assert.strictEqual(medianRatio(top, bottom), 2);
    assert.strictEqual(medianRatio(top, bottom, "cpu"), 2.5);
    assert.deepStrictEqual(sampleColumns([sample(1), sample(3), sample(2)]), [
      "2.00 (1.00–3.00)",
      "1.00 (1.00–1.00)",
      "0.50 (0.50–0.50)",
      "0.25 (0.25–0.25)",
      "0.13 (0.13–0.13)",
      "1.50 (1.50–1.50)",
    ]);
  });

  it("reads busy CPU from /proc/stat (idle, iowait and steal left out), steal apart, and own CPU from /proc/self/stat (children waited for included)", () => {
    // user nice system idle iowait irq softirq steal
    const procStat = "cpu  1000 50 200 9000 300 10 40 700 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n";
    assert.strictEqual(machineBusySeconds(procStat), 13);
    assert.strictEqual(machineStealSeconds(procStat), 7);
    assert.strictEqual(machineStealSeconds("cpu  1000 50 200 9000 300 10 40\n"), 0, "an old kernel gives no steal");
    assert.throws(() => machineStealSeconds("intr 1 2\n"), /\/proc\/stat has no cpu line/);
    // pid (comm with spaces) state ppid ... utime=14th, stime=15th, cutime=16th, cstime=17th field
    const stat = "4242 (node bench) S 1 2 3 4 5 6 7 8 9 10 150 50 300 100 20 0 1 0 5 6 7";
    assert.strictEqual(ownCpuSeconds(stat), 6);
    assert.ok(ownCpuSeconds() > 0, "this process has used some CPU");
  });
});

describe("bench: the machine's own speed (a real loop)", () => {
  it("times the work it is given: a hundred times the iterations takes longer", () => {
    const small = loopMs(100_000);
    const big = loopMs(10_000_000);
    assert.ok(small > 0 && big > small, `loopMs(1e5) ${small} ms, loopMs(1e7) ${big} ms`);
  });
});

describe("bench: the host's share of the machine (pure)", () => {
  it("is steal over busy + steal between two /proc/stat readings, and 0 when nothing ran", () => {
    // user nice system idle iowait irq softirq steal
    const before = "cpu  1000 0 0 5000 0 0 0 100\n";
    const after = "cpu  1150 10 20 5200 0 10 10 150\n"; // busy +200 ticks, steal +50
    assert.strictEqual(stealShare(before, after), 0.2);
    assert.strictEqual(stealShare(before, before), 0);
    assert.strictEqual(stealShare("cpu  1000 0 0 5000 0 0 0 100\n", "cpu  1000 0 0 5400 0 0 0 100\n"), 0, "idle only");
  });
});

describe("bench: the loop on every core (real worker threads)", () => {
  it("runs one worker per core asked and times until the last one ends: a hundred times the work takes longer", async () => {
    const small = await coresLoop(1_000_000, 2);
    const big = await coresLoop(100_000_000, 2);
    assert.strictEqual(small.perCoreMs.length, 2);
    assert.strictEqual(big.perCoreMs.length, 2);
    assert.ok(big.ms >= Math.max(...big.perCoreMs), `wall ${big.ms} ms, workers ${big.perCoreMs}`);
    assert.ok(
      Math.min(...big.perCoreMs) > Math.max(...small.perCoreMs),
      `1e6 ${small.perCoreMs}, 1e8 ${big.perCoreMs}`,
    );
    assert.ok(big.stealShare >= 0 && big.stealShare <= 1, `steal share ${big.stealShare}`);
  });
});

describe("bench: docker stats memory (pure)", () => {
  it("reads MemUsage in MiB whatever its unit, and refuses what it cannot read", () => {
    assert.strictEqual(memUsageMib("1.5GiB / 23.54GiB"), 1536);
    assert.strictEqual(memUsageMib("620.5MiB / 23.54GiB"), 620.5);
    assert.strictEqual(memUsageMib("512KiB / 1GiB"), 0.5);
    assert.strictEqual(memUsageMib("1048576B / 1GiB"), 1);
    assert.throws(() => memUsageMib("-- / --"), /unreadable docker stats memory: -- \/ --/);
  });
});

describe("bench: a live object against its manifest (pure)", () => {
  it("fieldsNotIn lists the manifest's fields the live object lacks or holds differently, and allows added ones", () => {
    const manifest = {
      spec: {
        group: "intersystems.com",
        versions: [{ name: "v1alpha1", schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } }],
      },
    };
    const live = {
      spec: {
        group: "intersystems.com",
        conversion: { strategy: "None" },
        versions: [
          { name: "v1alpha1", served: true, schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
        ],
      },
    };
    assert.deepStrictEqual(fieldsNotIn(manifest, live), []);
    // What @kubernetes/client-node's typed create leaves of it: the x-kubernetes-* key dropped.
    const dropped = structuredClone(live);
    delete (dropped.spec.versions[0].schema as Record<string, unknown>)["x-kubernetes-preserve-unknown-fields"];
    assert.deepStrictEqual(fieldsNotIn(manifest, dropped), [
      "spec.versions[0].schema.x-kubernetes-preserve-unknown-fields",
    ]);
    assert.deepStrictEqual(fieldsNotIn(manifest, { spec: { ...live.spec, group: "other.com" } }), ["spec.group"]);
    assert.deepStrictEqual(fieldsNotIn(manifest, { spec: { ...live.spec, versions: {} } }), ["spec.versions"]);
    assert.deepStrictEqual(fieldsNotIn(manifest, { spec: { ...live.spec, versions: [] } }), ["spec.versions[0]"]);
    assert.deepStrictEqual(fieldsNotIn(manifest, null), ["(root)"]);
    assert.deepStrictEqual(fieldsNotIn(1, 1), []);
  });
});
