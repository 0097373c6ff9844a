/**
 * Config of Karmada failover: a federated object's `failover` (its PropagationPolicy's
 * spec.failover) and the fleet's `clusterFailover` (the not-ready ClusterTaintPolicy).
 */
import { ClusterTarget, Failover } from "../../components/karmada";
import { readTarget, targetGiven } from "./placement";
import { Reader } from "./read";

const FAILOVER_KEYS = ["application", "cluster"];
const APPLICATION_KEYS = ["tolerationSeconds", "purgeMode", "gracePeriodSeconds"];

/** Reads `<key>` = `{application: {tolerationSeconds, purgeMode, gracePeriodSeconds}, cluster: {purgeMode}}`. */
export function readFailover(r: Reader, key: string, raw: unknown): Failover | undefined {
  if (raw === undefined) return undefined;
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, FAILOVER_KEYS);
  if (obj.application === undefined && obj.cluster === undefined) {
    r.problems.add(
      key,
      raw,
      "sets no failover; give application: {tolerationSeconds, purgeMode} and/or cluster: {purgeMode}, or remove it",
    );
    return undefined;
  }
  const out: Failover = {};
  if (obj.application !== undefined) {
    const k = `${key}.application`;
    const a = r.object(k, obj.application);
    r.unknownKeys(k, a, APPLICATION_KEYS);
    const purgeMode = r.oneOf(
      `${k}.purgeMode`,
      a.purgeMode,
      ["Directly", "Gracefully", "Never"] as const,
      "Gracefully",
    );
    const app: NonNullable<Failover["application"]> = { purgeMode };
    if (a.tolerationSeconds !== undefined)
      app.tolerationSeconds = r.integer(
        `${k}.tolerationSeconds`,
        a.tolerationSeconds,
        300,
        0,
        86400,
        " (seconds an IrisCluster may stay unhealthy before it moves)",
      );
    if (a.gracePeriodSeconds !== undefined) {
      if (purgeMode !== "Gracefully") {
        r.problems.add(
          `${k}.gracePeriodSeconds`,
          a.gracePeriodSeconds,
          `only applies with purgeMode Gracefully (it is ${purgeMode}); remove it or set purgeMode: Gracefully`,
        );
      } else {
        app.gracePeriodSeconds = r.integer(
          `${k}.gracePeriodSeconds`,
          a.gracePeriodSeconds,
          600,
          1,
          86400,
          " (seconds the old copy is kept at most)",
        );
      }
    }
    out.application = app;
  }
  if (obj.cluster !== undefined) {
    const k = `${key}.cluster`;
    const c = r.object(k, obj.cluster);
    r.unknownKeys(k, c, ["purgeMode"]);
    out.cluster =
      c.purgeMode === undefined
        ? {}
        : { purgeMode: r.oneOf(`${k}.purgeMode`, c.purgeMode, ["Directly", "Gracefully"] as const, "Gracefully") };
  }
  return out;
}

/** The fleet's cluster failover: which Clusters get the not-ready NoExecute taint policy. */
export interface ClusterFailoverConfig {
  /** The Clusters the ClusterTaintPolicy watches; undefined = every Cluster. */
  target?: ClusterTarget;
}

/** Reads `clusterFailover`: `true` (every Cluster) or `{clusterNames|labels|matchExpressions|regions}`; names need not be joined here. */
export function readClusterFailover(r: Reader, raw: unknown): ClusterFailoverConfig | undefined {
  if (raw === undefined || raw === false || raw === "false") return undefined;
  if (raw === true || raw === "true") return {};
  const obj = r.object("clusterFailover", raw);
  r.unknownKeys("clusterFailover", obj, ["clusterNames", "labels", "matchExpressions", "regions"]);
  // Members of a DR fleet are joined by region stacks, so names are not checked against this stack's joins.
  const target = readTarget(r, "clusterFailover", obj, undefined);
  if (!targetGiven(obj)) {
    r.problems.add(
      "clusterFailover",
      raw,
      "selects no Cluster; set true (every Cluster) or clusterNames, labels, matchExpressions or regions",
    );
    return undefined;
  }
  return { target };
}
