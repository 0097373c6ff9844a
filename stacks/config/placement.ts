/**
 * Config of Karmada placements and overrides, checked against the clusters a fleet joins.
 */
import {
  ClusterTarget,
  LabelExpression,
  PlaintextOverride,
  Placement,
  SpreadConstraint,
  checkClusterTarget,
  checkLabels,
} from "../../components/karmada";
import { Raw, Reader, configNumber, isObject } from "./read";

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

/** A map of label names to string values (structure only; the rules are `checkLabels`), or undefined. */
function labelMap(r: Reader, key: string, v: unknown): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || Object.values(v).some((x) => typeof x !== "string")) {
    r.problems.add(key, v, "must be a map of label names to string values, e.g. {region: us-central1}");
    return {};
  }
  return v as Record<string, string>;
}

/** A map of Kubernetes labels: keys and values checked as Kubernetes does (also used for join labels). */
export function readLabels(r: Reader, key: string, v: unknown): Record<string, string> | undefined {
  const labels = labelMap(r, key, v);
  if (labels === undefined || !isObject(v)) return undefined;
  const problems = checkLabels(labels, "labels");
  r.componentProblems(problems, { labels: key });
  return problems.length === 0 ? labels : undefined;
}

/** Expressions as the config gives them (structure only: each judged by `checkExpression` with the target). */
function readExpressions(r: Reader, key: string, v: unknown): LabelExpression[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0) {
    r.problems.add(
      key,
      v,
      "must be a non-empty list of {key, operator: In|NotIn|Exists|DoesNotExist, values}, e.g. [{key: region, operator: In, values: [a, c]}]",
    );
    return [];
  }
  const out: LabelExpression[] = [];
  v.forEach((e, i) => {
    const k = `${key}[${i}]`;
    const o = r.object(k, e);
    if (!isObject(e)) return;
    r.unknownKeys(k, o, ["key", "operator", "values"]);
    // The target's check judges key, operator and values (their types too).
    out.push((o.values === undefined ? { key: o.key, operator: o.operator } : { ...o }) as LabelExpression);
  });
  return out;
}

/**
 * Reads a member target; names must be joined members (unless `joined` is undefined: members
 * joined elsewhere), the rest is the component's rule (`checkClusterTarget`). A filter given in a
 * wrong shape stays set (empty), so the target does not also count as "nowhere".
 */
export function readTarget(r: Reader, key: string, obj: Raw, joined: string[] | undefined): ClusterTarget {
  const clusterNames = stringList(r, `${key}.clusterNames`, obj.clusterNames);
  for (const n of new Set(clusterNames ?? [])) {
    if (joined !== undefined && !joined.includes(n)) {
      r.problems.add(
        `${key}.clusterNames`,
        n,
        `is not a joined member of this fleet; use one of: ${joined.join(", ") || "(none joined)"}`,
      );
    }
  }
  const target: ClusterTarget = {
    clusterNames: obj.clusterNames !== undefined && clusterNames === undefined ? [] : clusterNames,
    labels: labelMap(r, `${key}.labels`, obj.labels),
  };
  const matchExpressions = readExpressions(r, `${key}.matchExpressions`, obj.matchExpressions);
  if (matchExpressions !== undefined) target.matchExpressions = matchExpressions;
  if (obj.regions !== undefined) target.regions = stringList(r, `${key}.regions`, obj.regions) ?? [];
  r.componentProblems(checkClusterTarget(target, "target"), { target: key });
  return target;
}

/**
 * True when the raw config sets at least one of clusterNames, labels, matchExpressions, regions
 * (even an invalid one: that has its own message, so "places nowhere" would be a second one).
 */
export function targetGiven(obj: Raw): boolean {
  return TARGET_KEYS.some((k) => obj[k] !== undefined);
}

/**
 * Reads a placement's structure; its rules (one form, spread constraints, somewhere to go) are
 * FederatedIrisCluster's (`checkPlacement`), reported by the caller with `placementKeys`.
 */
export function readPlacement(r: Reader, key: string, raw: unknown, joined: string[]): Placement {
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, PLACEMENT_KEYS);
  const target = readTarget(r, key, obj, joined);
  const placement: Placement = { ...target };
  if (obj.affinities !== undefined) {
    if (!Array.isArray(obj.affinities)) {
      r.problems.add(
        `${key}.affinities`,
        obj.affinities,
        "must be a non-empty list of {name, clusterNames|labels}, primary first",
      );
      placement.affinities = [];
    } else {
      placement.affinities = obj.affinities.map((a, i) => {
        const k = `${key}.affinities[${i}]`;
        const o = r.object(k, a);
        r.unknownKeys(k, o, ["name", ...TARGET_KEYS]);
        return { name: r.string(`${k}.name`, o.name, `group-${i}`) as string, ...readTarget(r, k, o, joined) };
      });
    }
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
        return { spreadByField, maxGroups: configNumber(o.maxGroups), minGroups: configNumber(o.minGroups) };
      });
    }
  }
  return placement;
}

/** The config keys of a placement's fields under `key` (numbers shown as the config gave them). */
export function placementKeys(field: string, key: string, raw: unknown): Record<string, string | [string, unknown]> {
  const keys: Record<string, string | [string, unknown]> = { [field]: [key, raw] };
  const spread = isObject(raw) && Array.isArray(raw.spreadConstraints) ? raw.spreadConstraints : [];
  spread.forEach((s, i) => {
    for (const g of ["maxGroups", "minGroups"])
      keys[`${field}.spreadConstraints[${i}].${g}`] = [
        `${key}.spreadConstraints[${i}].${g}`,
        isObject(s) ? s[g] : undefined,
      ];
  });
  return keys;
}

export interface OverrideConfig {
  name?: string;
  target: ClusterTarget;
  plaintext: PlaintextOverride[];
}

/**
 * Reads overrides' structure; their rules (a target, changes, JSON pointers) are
 * FederatedIrisCluster's (`checkOverrides`), reported by the caller with `overrideKeys`.
 */
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
    const plaintext: PlaintextOverride[] = [];
    if (!Array.isArray(obj.plaintext)) {
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
        const operator = r.oneOf(`${pk}.operator`, po.operator, ["add", "remove", "replace"] as const, "replace");
        plaintext.push({ path, operator, value: po.value });
      });
    }
    return { name: r.string(`${k}.name`, obj.name), target, plaintext };
  });
}

/** The config keys of overrides' fields under `key` (an override's target fields sit on the entry). */
export function overrideKeys(field: string, key: string, raw: unknown): Record<string, string | [string, unknown]> {
  const keys: Record<string, string | [string, unknown]> = { [field]: key };
  (Array.isArray(raw) ? raw : []).forEach((o, i) => {
    keys[`${field}[${i}]`] = [`${key}[${i}]`, o];
    keys[`${field}[${i}].target`] = `${key}[${i}]`;
  });
  return keys;
}
