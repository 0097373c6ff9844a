/**
 * Pre-flight of `up` (not `preview`): every Helm chart the stack installs from a chart
 * repository (no local `chartPath` given) must have that repository answer, before anything is
 * created. A repository that does not answer is bad input like any other: one message naming the
 * config key that would point at a local chart instead, the repository and the error (Helm's own
 * "not a valid chart repository or cannot be reached" names neither, and comes after clusters
 * were created).
 */
import * as http from "http";
import * as https from "https";
import { CILIUM_REPO } from "../components/cilium/values";
import { KARMADA_CHART_REPO } from "../components/karmada/values";
import { ClusterConfig, FleetConfig, RegionConfig, WfhConfig, stackClusters } from "./config";
import { PROJECT } from "./config/project";
import { clusterSource } from "./sources";

/** A chart the stack would fetch from a repository, and the key that gives a local one instead. */
export interface ChartRepoCheck {
  /** The config key of the local chart (e.g. `home.cilium.chartPath`). */
  key: string;
  /** What the chart is, for the message. */
  chart: string;
  repo: string;
}

/** The Cilium chart of each cluster the stack installs Cilium on from its repository. */
function ciliumChecks(clusters: ClusterConfig[]): ChartRepoCheck[] {
  return clusters
    .filter((c) => c.cilium.enabled && clusterSource(c.source).traits.ownCni === undefined && !c.cilium.chartPath)
    .map((c) => ({ key: `${c.key}.cilium.chartPath`, chart: `the Cilium chart of ${c.name}`, repo: CILIUM_REPO }));
}

/** Every chart repository `up` of this config would fetch a chart from. */
export function chartRepoChecks(cfg: WfhConfig | FleetConfig | RegionConfig): ChartRepoCheck[] {
  const checks = ciliumChecks(stackClusters(cfg));
  if (cfg.iko && !cfg.iko.chartPath && cfg.iko.chartRepo)
    checks.push({ key: "iko.chartPath", chart: "the IKO chart (iko.chartRepo)", repo: cfg.iko.chartRepo });
  if (cfg.program === "fleet" && cfg.karmada.mode === "helm" && !cfg.karmada.chartPath)
    checks.push({ key: "karmada.chartPath", chart: "the Karmada chart", repo: KARMADA_CHART_REPO });
  return checks;
}

/** The problem line for a repository that did not answer, in the config problems' format. */
export function chartRepoProblem(check: ChartRepoCheck, error: string): string {
  const key = `${PROJECT}:${check.key}`;
  return `${key}: not set, so up fetches ${check.chart} from ${check.repo}, which does not answer (${error}); set ${key} to a local copy of the chart, or make ${check.repo} reachable`;
}

/** GETs `<repo>/index.yaml`; resolves to "" when it answers 200, else the error in words. */
export function probeChartRepo(repo: string, timeoutMs = 8000): Promise<string> {
  const url = new URL(`${repo.replace(/\/+$/, "")}/index.yaml`);
  const get = url.protocol === "http:" ? http.get : https.get;
  return new Promise((resolve) => {
    const req = get(url, { timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? "" : `HTTP ${res.statusCode} for ${url.pathname}`);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

/** Probes each repository once; one problem line per check whose repository did not answer. */
export async function chartRepoProblems(
  checks: ChartRepoCheck[],
  probe: (repo: string) => Promise<string> = probeChartRepo,
): Promise<string[]> {
  const repos = [...new Set(checks.map((c) => c.repo))];
  const errors = new Map(await Promise.all(repos.map(async (r) => [r, await probe(r)] as const)));
  return checks.flatMap((c) => (errors.get(c.repo) ? [chartRepoProblem(c, errors.get(c.repo) as string)] : []));
}
