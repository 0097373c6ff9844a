/**
 * Config of Karmada failover: a federated object's `failover` (its PropagationPolicy's
 * spec.failover) and the fleet's `clusterFailover` (the not-ready ClusterTaintPolicy).
 */
import { ClusterTarget, Failover } from "../../components/karmada";
import { readTarget, targetGiven } from "./placement";
import { Reader, configNumber, isObject } from "./read";

const FAILOVER_KEYS = ["application", "cluster"];
const APPLICATION_KEYS = ["tolerationSeconds", "purgeMode", "gracePeriodSeconds"];

/**
 * Reads `<key>` = `{application: {tolerationSeconds, purgeMode, gracePeriodSeconds}, cluster: {purgeMode}}`
 * (structure; the rules are FederatedIrisCluster's `checkFailover`, reported with `failoverKeys`).
 */
export function readFailover(r: Reader, key: string, raw: unknown): Failover | undefined {
  if (raw === undefined) return undefined;
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, FAILOVER_KEYS);
  const out: Failover = {};
  if (obj.application !== undefined) {
    const k = `${key}.application`;
    const a = r.object(k, obj.application);
    r.unknownKeys(k, a, APPLICATION_KEYS);
    const app: NonNullable<Failover["application"]> = {
      purgeMode: r.oneOf(`${k}.purgeMode`, a.purgeMode, ["Directly", "Gracefully", "Never"] as const, "Gracefully"),
    };
    if (a.tolerationSeconds !== undefined) app.tolerationSeconds = configNumber(a.tolerationSeconds);
    if (a.gracePeriodSeconds !== undefined) app.gracePeriodSeconds = configNumber(a.gracePeriodSeconds);
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

/** The config keys of a failover's fields under `key` (seconds shown as the config gave them). */
export function failoverKeys(field: string, key: string, raw: unknown): Record<string, string | [string, unknown]> {
  const app = isObject(raw) && isObject(raw.application) ? raw.application : {};
  return {
    [field]: [key, raw],
    ...Object.fromEntries(
      ["tolerationSeconds", "gracePeriodSeconds"].map((s) => [
        `${field}.application.${s}`,
        [`${key}.application.${s}`, app[s]] as [string, unknown],
      ]),
    ),
  };
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
