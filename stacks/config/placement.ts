/**
 * Config of Karmada placements and overrides, checked against the clusters a fleet joins.
 */
import {
  ClusterTarget,
  LabelExpression,
  PlaintextOverride,
  Placement,
  SpreadConstraint,
  checkExpression,
  checkLabelKey,
  checkLabelValue,
} from "../../components/karmada";
import { Raw, Reader, isObject } from "./read";

const TARGET_KEYS = ["clusterNames", "labels", "matchExpressions", "regions"];
const PLACEMENT_KEYS = [...TARGET_KEYS, "affinities", "spreadConstraints"];

function stringList(r: Reader, key: string, v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x.length === 0)) {
    r.problems.add(key, v, 'must be a list of names, e.g. ["ikoclone"]');
    return undefined;
  }
  return v as string[];
}

/** A map of Kubernetes labels: keys and values checked as Kubernetes does (also used for join labels). */
export function readLabels(r: Reader, key: string, v: unknown): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || Object.values(v).some((x) => typeof x !== "string")) {
    r.problems.add(key, v, "must be a map of label names to string values, e.g. {region: us-central1}");
    return undefined;
  }
  let ok = true;
  for (const [k, value] of Object.entries(v as Record<string, string>)) {
    const keyProblem = checkLabelKey(k);
    if (keyProblem) {
      r.problems.add(`${key}[${JSON.stringify(k)}]`, k, keyProblem);
      ok = false;
      continue;
    }
    const valueProblem = checkLabelValue(k, value);
    if (valueProblem) {
      r.problems.add(`${key}.${k}`, value, valueProblem);
      ok = false;
    }
  }
  return ok ? (v as Record<string, string>) : undefined;
}

function readExpressions(r: Reader, key: string, v: unknown): LabelExpression[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0) {
    r.problems.add(
      key,
      v,
      "must be a non-empty list of {key, operator: In|NotIn|Exists|DoesNotExist, values}, e.g. [{key: region, operator: In, values: [a, c]}]",
    );
    return undefined;
  }
  let ok = true;
  const out = v.map((e, i) => {
    const k = `${key}[${i}]`;
    const o = r.object(k, e);
    r.unknownKeys(k, o, ["key", "operator", "values"]);
    const problems = isObject(e) ? checkExpression(o) : [["", e, ""] as [string, unknown, string]];
    for (const [suffix, value, problem] of problems) if (problem) r.problems.add(`${k}.${suffix}`, value, problem);
    if (problems.length > 0) ok = false;
    // checkExpression has judged the key, the operator and the values: this is only the copy.
    const operator = o.operator as LabelExpression["operator"];
    return Array.isArray(o.values)
      ? { key: String(o.key), operator, values: o.values.map(String) }
      : { key: String(o.key), operator };
  });
  return ok ? out : undefined;
}

/** Reads a member target; names must be joined members (unless `joined` is undefined: members joined elsewhere). */
export function readTarget(r: Reader, key: string, obj: Raw, joined: string[] | undefined): ClusterTarget {
  const clusterNames = stringList(r, `${key}.clusterNames`, obj.clusterNames);
  // One message per name: an unknown name, else one listed more than once.
  for (const n of new Set(clusterNames ?? [])) {
    if (joined !== undefined && !joined.includes(n)) {
      r.problems.add(
        `${key}.clusterNames`,
        n,
        `is not a joined member of this fleet; use one of: ${joined.join(", ") || "(none joined)"}`,
      );
    } else if ((clusterNames ?? []).filter((x) => x === n).length > 1) {
      r.problems.add(`${key}.clusterNames`, clusterNames, `names ${n} more than once; list each member once`);
    }
  }
  const target: ClusterTarget = { clusterNames, labels: readLabels(r, `${key}.labels`, obj.labels) };
  const matchExpressions = readExpressions(r, `${key}.matchExpressions`, obj.matchExpressions);
  if (matchExpressions !== undefined) target.matchExpressions = matchExpressions;
  const regions = obj.regions === undefined ? undefined : stringList(r, `${key}.regions`, obj.regions);
  if (regions !== undefined) target.regions = regions;
  return target;
}

/**
 * True when the raw config sets at least one of clusterNames, labels, matchExpressions, regions
 * (even an invalid one: that has its own message, so "places nowhere" would be a second one).
 */
export function targetGiven(obj: Raw): boolean {
  return TARGET_KEYS.some((k) => obj[k] !== undefined);
}

export function readPlacement(r: Reader, key: string, raw: unknown, joined: string[]): Placement {
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, PLACEMENT_KEYS);
  const target = readTarget(r, key, obj, joined);
  const placement: Placement = { ...target };
  if (obj.affinities !== undefined) {
    if (!Array.isArray(obj.affinities) || obj.affinities.length === 0) {
      r.problems.add(
        `${key}.affinities`,
        obj.affinities,
        "must be a non-empty list of {name, clusterNames|labels}, primary first",
      );
    } else {
      if (targetGiven(obj)) {
        r.problems.add(
          `${key}.affinities`,
          "[...]",
          `is set together with ${key}.clusterNames/labels/matchExpressions/regions; use one of the two forms`,
        );
      }
      placement.affinities = obj.affinities.map((a, i) => {
        const k = `${key}.affinities[${i}]`;
        const o = r.object(k, a);
        r.unknownKeys(k, o, ["name", ...TARGET_KEYS]);
        return { name: r.string(`${k}.name`, o.name, `group-${i}`) as string, ...readTarget(r, k, o, joined) };
      });
    }
  } else if (!targetGiven(obj)) {
    r.problems.add(
      key,
      raw,
      "places the object nowhere; set clusterNames, labels, matchExpressions, regions or affinities",
    );
  }
  if (obj.spreadConstraints !== undefined) {
    if (!Array.isArray(obj.spreadConstraints)) {
      r.problems.add(
        `${key}.spreadConstraints`,
        obj.spreadConstraints,
        "must be a list of {spreadByField, maxGroups, minGroups}",
      );
    } else {
      placement.spreadConstraints = obj.spreadConstraints.map((s, i): SpreadConstraint => {
        const k = `${key}.spreadConstraints[${i}]`;
        const o = r.object(k, s);
        const spreadByField = r.oneOf(
          `${k}.spreadByField`,
          o.spreadByField,
          ["cluster", "region", "zone", "provider"] as const,
          "cluster",
        );
        const maxGroups = o.maxGroups === undefined ? undefined : r.integer(`${k}.maxGroups`, o.maxGroups, 1, 1, 100);
        const minGroups = o.minGroups === undefined ? undefined : r.integer(`${k}.minGroups`, o.minGroups, 1, 1, 100);
        if (maxGroups !== undefined && minGroups !== undefined && minGroups > maxGroups) {
          r.problems.add(
            `${k}.minGroups`,
            minGroups,
            `is more than maxGroups (${maxGroups}); no placement can satisfy it`,
          );
        }
        return { spreadByField, maxGroups, minGroups };
      });
    }
  }
  return placement;
}

export interface OverrideConfig {
  name?: string;
  target: ClusterTarget;
  plaintext: PlaintextOverride[];
}

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
    if (!targetGiven(obj))
      r.problems.add(k, o, "targets no member; set clusterNames, labels, matchExpressions or regions");
    const plaintext: PlaintextOverride[] = [];
    if (!Array.isArray(obj.plaintext) || obj.plaintext.length === 0) {
      r.problems.add(
        `${k}.plaintext`,
        obj.plaintext,
        "must be a non-empty list of {path: /spec/..., operator: add|remove|replace, value}",
      );
    } else {
      obj.plaintext.forEach((p, j) => {
        const pk = `${k}.plaintext[${j}]`;
        const po = r.object(pk, p);
        const path = r.string(`${pk}.path`, po.path, "") as string;
        if (!path.startsWith("/"))
          r.problems.add(`${pk}.path`, po.path, "must be a JSON pointer such as /spec/storageClassName");
        const operator = r.oneOf(`${pk}.operator`, po.operator, ["add", "remove", "replace"] as const, "replace");
        if (operator !== "remove" && po.value === undefined)
          r.problems.add(`${pk}.value`, undefined, `is required for operator ${operator}`);
        plaintext.push({ path, operator, value: po.value });
      });
    }
    return { name: r.string(`${k}.name`, obj.name), target, plaintext };
  });
}
