/**
 * `npm run bench`: how fast a fleet converges, side by side with the hand-run recipe, on the lab.
 * Every timing is a ratio of medians measured in this same run (the machines are shared and
 * noisy). Prints a Markdown table, then one `RESULT <name> <value>` line per figure.
 *
 *   IKO_BENCH_RUNS   runs per side (default 3)
 *   IKO_BENCH_SCALE  member counts for the scaling figure (default 2,4,8)
 *   IKO_BENCH_ONLY   "kind": only the figures on real kind (both articles; needs the kind tier),
 *                    "kamino": only the second article on real kind
 */
import * as child from "child_process";
import * as os from "os";
import * as path from "path";
import { REPO } from "../test/lab/pulumi-cli";
import * as fs from "fs";
import { kindCache } from "../test/kind/tier";
import { kindKaminoBench } from "./kind-kamino";
import { kindWfhBench } from "./kind-wfh";
import { onFreshLab, recipeRun, stackRun } from "./lab-runs";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script, typed by its JSDoc
const { ensureProgramBuild } = require("../scripts/program-build") as { ensureProgramBuild(root: string, opts?: { mode?: "checked" | "transpile" }): string };

const RUNS = Number(process.env.IKO_BENCH_RUNS ?? 3);
const SCALE = (process.env.IKO_BENCH_SCALE ?? "2,4,8").split(",").map(Number);

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const fmt = (x: number, d = 2) => x.toFixed(d);
const log = (m: string) => process.stderr.write(`bench: ${m}\n`);

function memberNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `member-${i + 1}`);
}

function timeCommand(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const t0 = process.hrtime.bigint();
  const res = child.spawnSync(cmd, args, { cwd: REPO, env, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${(res.stderr || res.stdout).slice(-1500)}`);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const results: [string, string][] = [];

  // The program is compiled once per set of sources (main.js); compile it before timing runs, as
  // any run after the first finds it compiled, and show what the first run pays.
  const tCompile = process.hrtime.bigint();
  const built = ensureProgramBuild(REPO, { mode: "transpile" });
  rows.push(["compile the program (transpile-only, once per change of sources)", `${fmt(Number(process.hrtime.bigint() - tCompile) / 1e9)} s`, path.relative(REPO, built)]);

  // IKO_BENCH_ONLY=kind runs only the kind figures.
  const only = process.env.IKO_BENCH_ONLY;
  if (only !== "kind" && only !== "kamino") {
    // 1. Recipe vs stack, alternating sides, each on a fresh lab with one member.
    const recipe: number[] = [];
    const stackUp: number[] = [];
    const noop: number[] = [];
    const members = ["ikoclone"];
    for (let i = 0; i < RUNS; i++) {
      log(`recipe vs stack, run ${i + 1}/${RUNS}`);
      recipe.push(await onFreshLab(members, () => recipeRun(members)));
      const s = await onFreshLab(members, () => stackRun(members));
      stackUp.push(s.up);
      noop.push(s.noopPreview);
    }
    const ratio = median(stackUp) / median(recipe);
    rows.push(["recipe (kubectl + karmadactl), 1 member", `${fmt(median(recipe))} s`, recipe.map((x) => fmt(x)).join(", ")]);
    rows.push(["`pulumi up` of the fleet stack, 1 member", `${fmt(median(stackUp))} s`, stackUp.map((x) => fmt(x)).join(", ")]);
    rows.push(["no-change `pulumi preview`", `${fmt(median(noop))} s`, noop.map((x) => fmt(x)).join(", ")]);
    results.push(["fleet_up_vs_recipe", fmt(ratio)], ["noop_preview_vs_up", fmt(median(noop) / median(stackUp))]);

    // 2. Scaling: one FederatedIrisCluster on every member.
    const byCount = new Map<number, number>();
    const noopByCount = new Map<number, number>();
    for (const n of SCALE) {
      const times: number[] = [];
      const noops: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        log(`scaling: ${n} members, run ${i + 1}/${RUNS}`);
        const s = await onFreshLab(memberNames(n), () => stackRun(memberNames(n)));
        times.push(s.up);
        noops.push(s.noopPreview);
      }
      byCount.set(n, median(times));
      noopByCount.set(n, median(noops));
      rows.push([`\`pulumi up\`, ${n} members`, `${fmt(median(times))} s`, times.map((x) => fmt(x)).join(", ")]);
      rows.push([`no-change \`pulumi preview\`, ${n} members`, `${fmt(median(noops))} s`, noops.map((x) => fmt(x)).join(", ")]);
    }
    const lo = Math.min(...SCALE);
    const hi = Math.max(...SCALE);
    results.push([`up_${hi}_vs_${lo}`, fmt((byCount.get(hi) as number) / (byCount.get(lo) as number))]);
    // The steady-state ratio on the largest fleet too (the fixed cost of a preview weighs less there).
    results.push([`noop_preview_vs_up_${hi}`, fmt((noopByCount.get(hi) as number) / (byCount.get(hi) as number))]);

    // 3. Program cost under mocks, and the unit suite's wall time.
    const evals: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const out = child.execFileSync("node", [path.join("bench", "eval-fleet.js"), "50", "20"], { cwd: REPO, encoding: "utf8" });
      evals.push((JSON.parse(out.trim().split("\n").pop() as string) as { ms: number }).ms);
    }
    rows.push(["evaluate a 50-member, 20-IrisCluster fleet (mocks)", `${median(evals)} ms`, evals.join(", ")]);
    results.push(["eval_50x20_ms", String(median(evals))]);
    const unit: number[] = [];
    for (let i = 0; i < RUNS; i++) unit.push(timeCommand("npx", ["--no-install", "mocha", "--config", "test/unit/.mocharc.json", "--reporter", "dot"]));
    rows.push(["unit test suite (`npm run test:unit`)", `${fmt(median(unit), 1)} s`, unit.map((x) => fmt(x, 1)).join(", ")]);
    results.push(["unit_suite_s", fmt(median(unit), 1)]);
  }

  // 4. The first article on real kind clusters (needs the kind tier: engine, images, mirror).
  const kindTier = fs.existsSync(path.join(kindCache(), "kind-tier.env")) && child.spawnSync("docker", ["info"]).status === 0;
  if (kindTier && only !== "kamino") {
    const kind = await kindWfhBench(RUNS, log);
    rows.push(["recipe on real kind (2 × kind create, Secret, helm install, CRD, IrisCluster)", `${fmt(median(kind.recipe))} s`, kind.recipe.map((x) => fmt(x)).join(", ")]);
    rows.push(["`pulumi up` of the wfh stack on real kind, until the IrisCluster is reconciled", `${fmt(median(kind.up))} s`, kind.up.map((x) => fmt(x)).join(", ")]);
    results.push(["kind_wfh_up_vs_recipe", fmt(median(kind.up) / median(kind.recipe))]);
  } else if (only !== "kamino") {
    log("kind wfh left out: no kind tier (bash kind-tier/engine.sh up, kind-tier/build.sh, kind-tier/registry.sh up)");
  }

  // 5. The second article on real kind: the real Karmada chart (needs kind-tier/karmada-images.sh build + push).
  if (kindTier && fs.existsSync(path.join(kindCache(), "karmada-images.env"))) {
    const k = await kindKaminoBench(RUNS, log);
    rows.push(["Kamino recipe on real kind (2 × kind create, IKO × 2, helm install karmada, kubeconfig edit, CRD, karmadactl join, IrisCluster + policy)", `${fmt(median(k.recipe))} s`, k.recipe.map((x) => fmt(x)).join(", ")]);
    rows.push(["`pulumi up` of the fleet stack (Helm mode) on real kind, until the IrisCluster is reconciled on the member", `${fmt(median(k.up))} s`, k.up.map((x) => fmt(x)).join(", ")]);
    results.push(["kind_kamino_up_vs_recipe", fmt(median(k.up) / median(k.recipe))]);
  } else {
    log("kind kamino left out: no kind tier or no Karmada images (bash kind-tier/karmada-images.sh build && bash kind-tier/karmada-images.sh push)");
  }

  console.log(`Benchmarks on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${RUNS} runs per figure (medians):\n`);
  console.log("| what | median | runs |");
  console.log("|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log("");
  for (const [k, v] of results) console.log(`RESULT ${k} ${v}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
