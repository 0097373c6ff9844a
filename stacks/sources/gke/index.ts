/**
 * Source `gke`: a GKE cluster the stack creates (GkeCluster) from the entry's `<key>.gke` settings,
 * which the fleet and region programs read. It runs Dataplane V2 (Cilium-based), so no CiliumCni.
 */
import { GkeCluster } from "../../../components/gcp";
import type { ClusterSource } from "../source";
import { GkeConfig, readGke } from "./config";

/** What the GKE source's settings key gives a fleet or region cluster config. */
export interface GkeSettings {
  /** `<key>.gke`, mapped onto GkeCluster's args (source gke). Default: none. */
  gke?: GkeConfig;
}

export const gkeSource: ClusterSource<object, GkeSettings> = {
  name: "gke",
  programs: ["fleet", "region"],
  settingsKeys: ["gke"],
  traits: {
    ownCni: "a GKE cluster, which runs Dataplane V2 (Cilium-based) already",
    defaultProvider: "gke",
    zoneProblem: (region, zone) =>
      zone.startsWith(`${region}-`)
        ? undefined
        : `is not a zone of region ${region}; GKE zones are <region>-<letter>, e.g. ${region}-a`,
  },
  readSettings(r, { key, entry, source, clusterName, region }) {
    if (source !== "gke") {
      if (entry.gke !== undefined)
        r.problems.add(
          `${key}.gke`,
          entry.gke,
          `is set but ${key}.source is "${source}"; set source to "gke" or remove it`,
        );
      return { gke: undefined };
    }
    if (!region) return { gke: readGke(r, key, entry.gke, clusterName) };
    const gke = readGke(r, key, entry.gke, clusterName, region);
    const location = gke.location;
    const locationKey = `${key}.gke.location`;
    const name = region.value;
    if (name && !r.problems.has(locationKey) && location !== name && !location.startsWith(`${name}-`)) {
      r.problems.add(
        locationKey,
        location,
        `is outside region ${name}; use the region itself (${name}, a regional cluster) or one of its zones (${name}-a)`,
      );
    }
    return { gke };
  },
  declare(c) {
    if (!c.gke) throw new Error(`cluster ${c.name}: source gke needs its gke settings (${c.key}.gke)`);
    return new GkeCluster(c.name, {
      project: c.gke.project,
      location: c.gke.location,
      nodeCount: c.gke.nodeCount,
      machineType: c.gke.machineType,
      deletionProtection: c.gke.deletionProtection,
      protect: c.protect,
      role: c.key,
    });
  },
};
