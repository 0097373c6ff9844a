/**
 * `npm run bench`: how fast a fleet converges, side by side with the hand-run recipe, on the lab.
 * Every figure is a ratio of medians measured in this same run, the two sides interleaved (the
 * machines are shared and noisy), and every row prints min/median/max of the wall time beside the
 * CPU the side used, the lab servers' CPU, the rest of the machine's CPU and the load average
 * (testbed/bench/measure.ts), so a reader can tell noise from change. Prints a Markdown table, then one
 * `RESULT <name> <value>` line per figure.
 *
 *   IKO_BENCH_RUNS   runs per side (default 5)
 *   IKO_BENCH_SCALE  member counts for the scaling figure (default 2,8: the ratio is largest/smallest)
 *   IKO_BENCH_ONLY   "kind": only the figures on real kind (both articles; needs the kind tier),
 *                    "kamino": only the second article on real kind (and the memory of its
 *                    three-cluster setup), "upgrade": only the Karmada upgrade on real kind,
 *                    "lab": leave the kind figures out
 *   IKO_BENCH_UPGRADE_RUNS  runs per side of the Karmada upgrade (default 2: each builds a fleet
 *                    at the older Karmada first, about 5 minutes a run)
 *   IKO_BENCH_CLI    a folder holding another `pulumi` CLI (e.g. a newer one): the scaling runs
 *                    are then made with both CLIs, interleaved, and the CLIs compared
 *   IKO_BENCH_TRACE  a folder for an OpenTelemetry trace (JSON) of each timed kind Kamino `up`
 *                    (it holds the providers' requests in plain text, secrets included)
 */
import * as child from "child_process";
import * as os from "os";
import * as path from "path";
import { REPO } from "../../test/lab/pulumi-cli";
import * as fs from "fs";
import { kindCache } from "../../test/kind/tier";
import { kindKaminoBench } from "./kind-kamino";
import { kindKarmadaUpgradeBench } from "./kind-karmada-upgrade";
import { kindThreeClusterMemory } from "./kind-three";
import { kindWfhBench } from "./kind-wfh";
import { onFreshLab, recipeRun, stackRun } from "./lab-runs";
import {
  CoresLoop,
  SAMPLE_HEADINGS,
  Sample,
  coresLoop,
  formatSpread,
  loopMs,
  measure,
  median,
  medianRatio,
  sampleColumns,
} from "./measure";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script, typed by its JSDoc
const { ensureProgramBuild } = require("../../scripts/program-build") as {
  ensureProgramBuild(root: string, opts?: { mode?: "checked" | "transpile" }): string;
};

const RUNS = Number(process.env.IKO_BENCH_RUNS ?? 5);
const SCALE = (process.env.IKO_BENCH_SCALE ?? "2,8").split(",").map(Number);

const fmt = (x: number, d = 2) => x.toFixed(d);
const log = (m: string) => process.stderr.write(`bench: ${m}\n`);

function memberNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `member-${i + 1}`);
}

/** One evaluation of the fleet program under mocks (testbed/bench/eval-fleet.js): the program's own milliseconds, and the sample. */
async function evalRun(members: number, iris: number): Promise<{ ms: number; sample: Sample }> {
  const { sample, value } = await measure("(no lab)", async () =>
    child.execFileSync("node", [path.join("testbed", "bench", "eval-fleet.js"), String(members), String(iris)], {
      cwd: REPO,
      encoding: "utf8",
    }),
  );
  return { ms: (JSON.parse(value.trim().split("\n").pop() as string) as { ms: number }).ms, sample };
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const results: [string, string][] = [];
  // The machine's own speed, before and after the figures: a fixed loop on one thread, and the same
  // loop on every core at once for a few seconds (which shows the host taking CPU; one thread does not).
  const loops = [loopMs(), loopMs(), loopMs()];
  const coreLoops: CoresLoop[] = [await coresLoop()];
  // Each row is also logged when measured, so a run cut short still shows what it measured.
  const row = (what: string, samples: Sample[]) => {
    rows.push([what, ...sampleColumns(samples)]);
    log(`| ${rows[rows.length - 1].join(" | ")} |`);
  };

  // The program is compiled once per set of sources (main.js); compile it before timing runs, as
  // any run after the first finds it compiled, and show what the first run pays.
  const compiled = await measure("(no lab)", async () => ensureProgramBuild(REPO, { mode: "transpile" }));
  row(`compile the program (transpile-only, once per change of sources: ${path.relative(REPO, compiled.value)})`, [
    compiled.sample,
  ]);

  const only = process.env.IKO_BENCH_ONLY;
  if (only !== "kind" && only !== "kamino" && only !== "upgrade") {
    // 1. Recipe vs stack, alternating sides, each on a fresh lab with one member.
    const recipe: Sample[] = [];
    const stackUp: Sample[] = [];
    const noop: Sample[] = [];
    const members = ["ikoclone"];
    for (let i = 0; i < RUNS; i++) {
      log(`recipe vs stack, run ${i + 1}/${RUNS}`);
      recipe.push(await onFreshLab(members, () => recipeRun(members)));
      const s = await onFreshLab(members, () => stackRun(members));
      stackUp.push(s.up);
      noop.push(s.noopPreview);
    }
    row("recipe (kubectl + karmadactl), 1 member", recipe);
    row("`pulumi up` of the fleet stack, 1 member", stackUp);
    row("no-change `pulumi preview`, 1 member", noop);
    results.push(
      ["fleet_up_vs_recipe", fmt(medianRatio(stackUp, recipe))],
      ["fleet_up_vs_recipe_cpu", fmt(medianRatio(stackUp, recipe, "cpu"))],
    );
    results.push(["noop_preview_vs_up", fmt(medianRatio(noop, stackUp))]);

    // 2. Scaling: one FederatedIrisCluster on every member; the member counts (and the CLIs, with
    // IKO_BENCH_CLI) interleaved.
    const ups = new Map<number, Sample[]>(SCALE.map((n) => [n, []]));
    const noops = new Map<number, Sample[]>(SCALE.map((n) => [n, []]));
    const bytes = new Map<number, number[]>(SCALE.map((n) => [n, []]));
    const otherCli = process.env.IKO_BENCH_CLI;
    const otherUps = new Map<number, Sample[]>(SCALE.map((n) => [n, []]));
    const otherNoops = new Map<number, Sample[]>(SCALE.map((n) => [n, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const n of SCALE) {
        log(`scaling: ${n} members, run ${i + 1}/${RUNS}`);
        const s = await onFreshLab(memberNames(n), () => stackRun(memberNames(n)));
        ups.get(n)?.push(s.up);
        noops.get(n)?.push(s.noopPreview);
        bytes.get(n)?.push(s.stateBytes);
        if (otherCli) {
          log(`scaling: ${n} members, run ${i + 1}/${RUNS}, the CLI in ${otherCli}`);
          const o = await onFreshLab(memberNames(n), () => stackRun(memberNames(n), otherCli));
          otherUps.get(n)?.push(o.up);
          otherNoops.get(n)?.push(o.noopPreview);
        }
      }
    }
    if (otherCli) {
      const version = child.execFileSync(path.join(otherCli, "pulumi"), ["version"], { encoding: "utf8" }).trim();
      for (const n of SCALE) {
        row(`\`pulumi up\`, ${n} members, CLI ${version}`, otherUps.get(n) as Sample[]);
        row(`no-change \`pulumi preview\`, ${n} members, CLI ${version}`, otherNoops.get(n) as Sample[]);
        results.push([
          `cli_other_vs_lab_up_${n}`,
          fmt(medianRatio(otherUps.get(n) as Sample[], ups.get(n) as Sample[])),
        ]);
        results.push([
          `cli_other_vs_lab_noop_preview_${n}`,
          fmt(medianRatio(otherNoops.get(n) as Sample[], noops.get(n) as Sample[])),
        ]);
      }
      const lo = Math.min(...SCALE);
      const hi = Math.max(...SCALE);
      results.push([
        `cli_other_up_${hi}_vs_${lo}`,
        fmt(medianRatio(otherUps.get(hi) as Sample[], otherUps.get(lo) as Sample[])),
      ]);
    }
    for (const n of SCALE) {
      row(`\`pulumi up\`, ${n} members`, ups.get(n) as Sample[]);
      row(`no-change \`pulumi preview\`, ${n} members`, noops.get(n) as Sample[]);
    }
    const lo = Math.min(...SCALE);
    const hi = Math.max(...SCALE);
    const upsOf = (n: number) => ups.get(n) as Sample[];
    results.push(
      [`up_${hi}_vs_${lo}`, fmt(medianRatio(upsOf(hi), upsOf(lo)))],
      [`up_${hi}_vs_${lo}_cpu`, fmt(medianRatio(upsOf(hi), upsOf(lo), "cpu"))],
    );
    results.push([`noop_preview_vs_up_${hi}`, fmt(medianRatio(noops.get(hi) as Sample[], upsOf(hi)))]);
    const bytesOf = (n: number) => median(bytes.get(n) as number[]);
    rows.push([`state (checkpoint bytes), ${lo} / ${hi} members`, `${bytesOf(lo)} / ${bytesOf(hi)}`]);
    results.push(["state_bytes_per_member", String(Math.round((bytesOf(hi) - bytesOf(lo)) / (hi - lo)))]);

    // 3. Program cost under mocks: a 50-member, 20-IrisCluster fleet against a 5-member, 2-IrisCluster
    // one (10 times the resources), interleaved; the program's own milliseconds.
    const big: { ms: number; sample: Sample }[] = [];
    const small: { ms: number; sample: Sample }[] = [];
    for (let i = 0; i < RUNS; i++) {
      big.push(await evalRun(50, 20));
      small.push(await evalRun(5, 2));
    }
    rows.push([
      "evaluate a 5-member, 2-IrisCluster fleet (mocks), program ms",
      formatSpread(
        small.map((e) => e.ms),
        0,
      ),
      ...sampleColumns(small.map((e) => e.sample)).slice(1),
    ]);
    rows.push([
      "evaluate a 50-member, 20-IrisCluster fleet (mocks), program ms",
      formatSpread(
        big.map((e) => e.ms),
        0,
      ),
      ...sampleColumns(big.map((e) => e.sample)).slice(1),
    ]);
    results.push(["eval_50x20_vs_5x2", fmt(median(big.map((e) => e.ms)) / median(small.map((e) => e.ms)))]);
    results.push(["eval_50x20_ms", String(median(big.map((e) => e.ms)))]);
  }

  // 4. The first article on real kind clusters (needs the kind tier: engine, images, mirror).
  const kindTier =
    only !== "lab" &&
    fs.existsSync(path.join(kindCache(), "kind-tier.env")) &&
    child.spawnSync("docker", ["info"]).status === 0;
  if (kindTier && only !== "kamino" && only !== "upgrade") {
    const kind = await kindWfhBench(RUNS, log);
    rows.push([
      "recipe on real kind (2 × kind create, Secret, helm install, CRD, IrisCluster), wall s",
      formatSpread(kind.recipe),
    ]);
    rows.push([
      "`pulumi up` of the wfh stack on real kind, until the IrisCluster is reconciled, wall s",
      formatSpread(kind.up),
    ]);
    results.push(["kind_wfh_up_vs_recipe", fmt(median(kind.up) / median(kind.recipe))]);
  } else if (only !== "kamino" && only !== "upgrade") {
    log(
      "kind wfh left out (IKO_BENCH_ONLY=lab, or no kind tier: bash testbed/kind-tier/engine.sh up, testbed/kind-tier/build.sh, testbed/kind-tier/registry.sh up)",
    );
  }

  // 5. The second article on real kind: the real Karmada chart (needs testbed/kind-tier/karmada-images.sh build + push).
  const karmadaImages = kindTier && fs.existsSync(path.join(kindCache(), "karmada-images.env"));
  if (karmadaImages && only !== "upgrade") {
    const k = await kindKaminoBench(RUNS, log);
    rows.push([
      "Kamino recipe on real kind (2 × kind create, IKO × 2, helm install karmada, kubeconfig edit, CRD, karmadactl join, IrisCluster + policy), wall s",
      formatSpread(k.recipe),
    ]);
    rows.push([
      "`pulumi up` of the fleet stack (Helm mode) on real kind, until the IrisCluster is reconciled on the member, wall s",
      formatSpread(k.up),
    ]);
    results.push(["kind_kamino_up_vs_recipe", fmt(median(k.up) / median(k.recipe))]);
    // 6. The three-cluster setup's memory (host, a Push and a Pull member), once.
    const three = await kindThreeClusterMemory(log);
    for (const n of three.nodes)
      rows.push([`memory of ${n.name} in the three-cluster setup, MiB (docker stats)`, n.mib.toFixed(0)]);
    results.push(["kind_kamino_three_cluster_memory_mib", three.totalMib.toFixed(0)]);
  } else if (only !== "upgrade") {
    log(
      "kind kamino left out (IKO_BENCH_ONLY=lab, or no kind tier or no Karmada images: bash testbed/kind-tier/karmada-images.sh build && bash testbed/kind-tier/karmada-images.sh push)",
    );
  }

  // 7. Karmada upgraded on a running fleet: helm upgrade by hand against a config change and `pulumi up`.
  if (karmadaImages && (only === undefined || only === "kind" || only === "upgrade")) {
    const u = await kindKarmadaUpgradeBench(Number(process.env.IKO_BENCH_UPGRADE_RUNS ?? 2), log);
    rows.push([
      `Karmada ${u.from} to ${u.to} by hand on real kind (helm upgrade --wait with the recipe's values, until the member is Ready and a new IrisCluster runs on it), wall s`,
      formatSpread(u.recipe),
    ]);
    rows.push([
      `Karmada ${u.from} to ${u.to} by a config change and \`pulumi up\` of the fleet stack (the new IrisCluster in the same change), until it runs on the member, wall s`,
      formatSpread(u.up),
    ]);
    results.push(["kind_karmada_upgrade_vs_recipe", fmt(median(u.up) / median(u.recipe))]);
  } else {
    log("kind Karmada upgrade left out (IKO_BENCH_ONLY=lab or kamino, or no kind tier or no Karmada images)");
  }

  loops.push(loopMs(), loopMs(), loopMs());
  coreLoops.push(await coresLoop());
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");
  const cores = coreLoops.map((c) => `${(c.ms / 1000).toFixed(2)} s (host took ${(c.stealShare * 100).toFixed(0)} %)`);
  console.log(
    `Benchmarks on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
      `${RUNS} runs per figure, sides interleaved; load average at the end ${load}; a fixed loop took ${formatSpread(loops, 0)} ms ` +
      `(one thread, three times before and three after) and, on all ${coreLoops[0].perCoreMs.length} cores at once, ${cores.join(" before, ")} after. ` +
      `Each cell: median (min–max).\n`,
  );
  results.push(["machine_loop_ms", String(Math.round(median(loops)))]);
  results.push(["machine_cores_loop_ms", String(Math.round(Math.max(...coreLoops.map((c) => c.ms))))]);
  results.push(["machine_steal_share", Math.max(...coreLoops.map((c) => c.stealShare)).toFixed(2)]);
  const headings = ["what", ...SAMPLE_HEADINGS];
  console.log(`| ${headings.join(" | ")} |`);
  console.log(`|${headings.map(() => "---|").join("")}`);
  for (const r of rows) console.log(`| ${[...r, ...Array(headings.length - r.length).fill("")].join(" | ")} |`);
  console.log("");
  for (const [k, v] of results) console.log(`RESULT ${k} ${v}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
