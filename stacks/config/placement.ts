/**
 * Config of Karmada placements and overrides, checked against the clusters a fleet joins.
 */
import { ClusterTarget, PlaintextOverride, Placement, SpreadConstraint } from "../../components/karmada";
import { Raw, Reader, isObject } from "./read";

const TARGET_KEYS = ["clusterNames", "labels", "regions"];
const PLACEMENT_KEYS = [...TARGET_KEYS, "affinities", "spreadConstraints"];

function stringList(r: Reader, key: string, v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x.length === 0)) {
    r.problems.add(key, v, "must be a list of names, e.g. [\"ikoclone\"]");
    return undefined;
  }
  return v as string[];
}

function labels(r: Reader, key: string, v: unknown): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || Object.values(v).some((x) => typeof x !== "string")) {
    r.problems.add(key, v, "must be a map of label names to string values, e.g. {region: us-central1}");
    return undefined;
  }
  return v as Record<string, string>;
}

/** Reads a member target; names must be joined members (unless `joined` is undefined: members joined elsewhere). */
export function readTarget(r: Reader, key: string, obj: Raw, joined: string[] | undefined): ClusterTarget {
  const clusterNames = stringList(r, `${key}.clusterNames`, obj.clusterNames);
  for (const n of clusterNames ?? []) {
    if (joined !== undefined && !joined.includes(n)) {
      r.problems.add(`${key}.clusterNames`, n, `is not a joined member of this fleet; use one of: ${joined.join(", ") || "(none joined)"}`);
    }
  }
  const target: ClusterTarget = { clusterNames, labels: labels(r, `${key}.labels`, obj.labels) };
  const regions = obj.regions === undefined ? undefined : stringList(r, `${key}.regions`, obj.regions);
  if (regions !== undefined) target.regions = regions;
  return target;
}

/** True when the target selects by at least one of clusterNames, labels, regions. */
export function targetsAnything(t: ClusterTarget): boolean {
  return Boolean(t.clusterNames || t.labels || t.regions);
}

export function readPlacement(r: Reader, key: string, raw: unknown, joined: string[]): Placement {
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, PLACEMENT_KEYS);
  const target = readTarget(r, key, obj, joined);
  const placement: Placement = { ...target };
  if (obj.affinities !== undefined) {
    if (!Array.isArray(obj.affinities) || obj.affinities.length === 0) {
      r.problems.add(`${key}.affinities`, obj.affinities, "must be a non-empty list of {name, clusterNames|labels}, primary first");
    } else {
      if (targetsAnything(target)) {
        r.problems.add(`${key}.affinities`, "[...]", `is set together with ${key}.clusterNames/labels/regions; use one of the two forms`);
      }
      placement.affinities = obj.affinities.map((a, i) => {
        const k = `${key}.affinities[${i}]`;
        const o = r.object(k, a);
        r.unknownKeys(k, o, ["name", ...TARGET_KEYS]);
        return { name: r.string(`${k}.name`, o.name, `group-${i}`) as string, ...readTarget(r, k, o, joined) };
      });
    }
  } else if (!targetsAnything(target)) {
    r.problems.add(key, raw, "places the object nowhere; set clusterNames, labels, regions or affinities");
  }
  if (obj.spreadConstraints !== undefined) {
    if (!Array.isArray(obj.spreadConstraints)) {
      r.problems.add(`${key}.spreadConstraints`, obj.spreadConstraints, "must be a list of {spreadByField, maxGroups, minGroups}");
    } else {
      placement.spreadConstraints = obj.spreadConstraints.map((s, i): SpreadConstraint => {
        const k = `${key}.spreadConstraints[${i}]`;
        const o = r.object(k, s);
        const spreadByField = r.oneOf(`${k}.spreadByField`, o.spreadByField, ["cluster", "region", "zone", "provider"] as const, "cluster");
        const maxGroups = o.maxGroups === undefined ? undefined : r.integer(`${k}.maxGroups`, o.maxGroups, 1, 1, 100);
        const minGroups = o.minGroups === undefined ? undefined : r.integer(`${k}.minGroups`, o.minGroups, 1, 1, 100);
        if (maxGroups !== undefined && minGroups !== undefined && minGroups > maxGroups) {
          r.problems.add(`${k}.minGroups`, minGroups, `is more than maxGroups (${maxGroups}); no placement can satisfy it`);
        }
        return { spreadByField, maxGroups, minGroups };
      });
    }
  }
  return placement;
}

export interface OverrideConfig { name?: string; target: ClusterTarget; plaintext: PlaintextOverride[] }

export function readOverrides(r: Reader, key: string, raw: unknown, joined: string[]): OverrideConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    r.problems.add(key, raw, "must be a list of {clusterNames|labels, plaintext: [{path, operator, value}]}");
    return [];
  }
  return raw.map((o, i) => {
    const k = `${key}[${i}]`;
    const obj = r.object(k, o);
    r.unknownKeys(k, obj, ["name", ...TARGET_KEYS, "plaintext"]);
    const target = readTarget(r, k, obj, joined);
    if (!targetsAnything(target)) r.problems.add(k, o, "targets no member; set clusterNames, labels or regions");
    const plaintext: PlaintextOverride[] = [];
    if (!Array.isArray(obj.plaintext) || obj.plaintext.length === 0) {
      r.problems.add(`${k}.plaintext`, obj.plaintext, "must be a non-empty list of {path: /spec/..., operator: add|remove|replace, value}");
    } else {
      obj.plaintext.forEach((p, j) => {
        const pk = `${k}.plaintext[${j}]`;
        const po = r.object(pk, p);
        const path = r.string(`${pk}.path`, po.path, "") as string;
        if (!path.startsWith("/")) r.problems.add(`${pk}.path`, po.path, "must be a JSON pointer such as /spec/storageClassName");
        const operator = r.oneOf(`${pk}.operator`, po.operator, ["add", "remove", "replace"] as const, "replace");
        if (operator !== "remove" && po.value === undefined) r.problems.add(`${pk}.value`, undefined, `is required for operator ${operator}`);
        plaintext.push({ path, operator, value: po.value });
      });
    }
    return { name: r.string(`${k}.name`, obj.name), target, plaintext };
  });
}
