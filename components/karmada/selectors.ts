/**
 * Which Karmada members a placement target selects, and whether its label selector is one
 * Kubernetes accepts. Shared by the config validation (stacks/config/placement.ts), the stack's
 * dependency logic (stacks/fleet.ts: which joins a federated object waits for) and the policy
 * pack's placement rule (policy/rules/placement.ts). No imports: the policy pack loads it as is.
 */

/** One `matchExpressions` entry of a Kubernetes label selector. */
export interface LabelExpression {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  /** Required (non-empty) with In and NotIn; must be absent or empty with Exists and DoesNotExist. */
  values?: string[];
}

export const EXPRESSION_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;

export interface ClusterTarget {
  /** Members by name. @default no name filter */
  clusterNames?: string[];
  /** Members by Cluster labels (labelSelector.matchLabels). @default no label filter */
  labels?: Record<string, string>;
  /**
   * Members by Cluster label expressions (labelSelector.matchExpressions: In, NotIn, Exists,
   * DoesNotExist), ANDed with `labels`. @default no expression filter
   */
  matchExpressions?: LabelExpression[];
  /**
   * Members by the Cluster's `spec.region` (fieldSelector `region In [...]`): what a region stack
   * sets on its member, so a fleet can place by region without knowing member names.
   * @default no region filter
   */
  regions?: string[];
}

/** A member as placements see it: its name, the labels and region on its Karmada Cluster. */
export interface PlaceableMember {
  name: string;
  labels?: Record<string, string>;
  region?: string;
}

/** Whether one expression holds for a set of labels (Kubernetes semantics: NotIn holds when the key is absent). */
export function expressionMatches(e: LabelExpression, labels: Record<string, string> | undefined): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, e.key);
  const values = e.values ?? [];
  switch (e.operator) {
    case "In":
      return has && values.includes(labels?.[e.key] as string);
    case "NotIn":
      return !has || !values.includes(labels?.[e.key] as string);
    case "Exists":
      return has;
    case "DoesNotExist":
      return !has;
  }
}

/** Whether a target (all of its filters, as Karmada ANDs them) selects a member. */
export function targetSelects(t: ClusterTarget, m: PlaceableMember): boolean {
  if (t.clusterNames && t.clusterNames.length > 0 && !t.clusterNames.includes(m.name)) return false;
  if (t.labels && Object.entries(t.labels).some(([k, v]) => m.labels?.[k] !== v)) return false;
  if (t.matchExpressions && t.matchExpressions.some((e) => !expressionMatches(e, m.labels))) return false;
  if (t.regions && t.regions.length > 0 && (m.region === undefined || !t.regions.includes(m.region))) return false;
  return true;
}

/**
 * The names of the members a placement can put an object on: those its target selects, or for
 * ordered affinities those any group selects. A federated object waits only for these joins, so
 * a member that is down does not hold back objects placed elsewhere.
 */
export function selectableMembers(
  p: ClusterTarget & { affinities?: (ClusterTarget & { name?: string })[] },
  members: PlaceableMember[],
): string[] {
  const targets: ClusterTarget[] = p.affinities && p.affinities.length > 0 ? p.affinities : [p];
  return members.filter((m) => targets.some((t) => targetSelects(t, m))).map((m) => m.name);
}

const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const CHARS = "letters, digits, '-', '_' and '.', starting and ending with a letter or digit";

/** A label key as Kubernetes takes it: `[prefix/]name`, prefix a DNS-1123 subdomain (at most 253), name at most 63. */
export function checkLabelKey(key: string): string | undefined {
  const slash = key.indexOf("/");
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) {
    return "is not a label key: its prefix (before '/') must be a DNS-1123 subdomain such as example.com; use e.g. example.com/tier or tier";
  }
  if (name.length === 0 || name.length > 63 || !LABEL_NAME.test(name)) {
    return `is not a label key: the name (after any 'prefix/') must be 1 to 63 ${CHARS}; use e.g. region or topology.kubernetes.io/region`;
  }
  return undefined;
}

/** The expression form of a set-based selector written as a value (`in (a, c)`, `notin (b)`), if it is one. */
export function setBasedValue(key: string, value: string): LabelExpression | undefined {
  const m = /^\s*(in|notin)\s*\(([^)]*)\)\s*$/i.exec(value);
  if (!m) return undefined;
  const values = m[2]
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return { key, operator: m[1].toLowerCase() === "in" ? "In" : "NotIn", values };
}

/** Shows an expression the way the config takes it: `{key: region, operator: In, values: [a, c]}`. */
export function showExpression(e: LabelExpression): string {
  const values = e.values && e.values.length > 0 ? `, values: [${e.values.join(", ")}]` : "";
  return `{key: ${e.key}, operator: ${e.operator}${values}}`;
}

/**
 * A label value as Kubernetes takes it: empty, or at most 63 letters, digits, '-', '_' and '.',
 * starting and ending with a letter or digit. A set-based selector written as a value is pointed
 * at the expression form.
 */
export function checkLabelValue(key: string, value: string): string | undefined {
  if (value.length === 0 || (value.length <= 63 && LABEL_NAME.test(value))) return undefined;
  const set = setBasedValue(key, value);
  if (set) {
    return `is a set-based selector written as a label value, which selects nothing; write it as matchExpressions: [${showExpression(set)}]`;
  }
  return `is not a label value: at most 63 ${CHARS}; to select several values use matchExpressions: [{key: ${key}, operator: In, values: [a, b]}]`;
}

/** Problems of one expression, each `[path suffix, value, problem]`; empty when Kubernetes accepts it. */
export function checkExpression(e: {
  key?: unknown;
  operator?: unknown;
  values?: unknown;
}): [string, unknown, string][] {
  const out: [string, unknown, string][] = [];
  if (typeof e.key !== "string") {
    out.push(["key", e.key, "is required: the Cluster label the expression tests, e.g. region"]);
  } else {
    const p = checkLabelKey(e.key);
    if (p) out.push(["key", e.key, p]);
  }
  if (typeof e.operator !== "string" || !(EXPRESSION_OPERATORS as readonly string[]).includes(e.operator)) {
    out.push(["operator", e.operator, `is not allowed; use one of: ${EXPRESSION_OPERATORS.join(", ")}`]);
    return out;
  }
  const set = e.operator === "In" || e.operator === "NotIn";
  if (e.values !== undefined && (!Array.isArray(e.values) || e.values.some((v) => typeof v !== "string"))) {
    out.push(["values", e.values, "must be a list of label values, e.g. [us-central1, europe-west1]"]);
  } else if (set && (e.values === undefined || e.values.length === 0)) {
    out.push([
      "values",
      e.values,
      `is required with operator ${e.operator}: a non-empty list of label values, e.g. [us-central1]`,
    ]);
  } else if (!set && Array.isArray(e.values) && e.values.length > 0) {
    out.push([
      "values",
      e.values,
      `must be left out with operator ${e.operator}, which tests only whether the key is set`,
    ]);
  } else {
    ((e.values as string[] | undefined) ?? []).forEach((v, i) => {
      const p = checkLabelValue(typeof e.key === "string" ? e.key : "key", v);
      if (p) out.push([`values[${i}]`, v, p]);
    });
  }
  return out;
}
