/**
 * What every stack program's config has in common.
 */
import type { ClusterConfig } from "./cluster";
import type { FleetConfig } from "./fleet";
import type { RegionConfig } from "./region";
import type { WfhConfig } from "./wfh";

/** Every cluster the stack's config declares, in config order (wfh: home, work; region: its member). */
export function stackClusters(cfg: WfhConfig | FleetConfig | RegionConfig): ClusterConfig[] {
  return cfg.program === "wfh" ? [cfg.home, cfg.work] : cfg.program === "region" ? [cfg.member] : cfg.clusters;
}
