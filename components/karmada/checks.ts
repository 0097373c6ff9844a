/**
 * The rules of Karmada placements, overrides and failover as FederatedIrisCluster and FleetSecret
 * take them, as `[field, value, problem]` (the stack config reports them under its keys). Which
 * members exist is the stack's business (rules across clusters); these judge one object alone.
 */
import { ArgProblem, checkField, checkWholeNumber } from "../names";
import { Failover, PlaintextOverride, Placement } from "./policies";
import { ClusterTarget, checkExpression, checkLabelKey, checkLabelValue } from "./selectors";

const TARGET_FIELDS = ["clusterNames", "labels", "matchExpressions", "regions"] as const;

/** True when a target sets at least one filter (even an empty one). */
export function targetSet(t: ClusterTarget): boolean {
  return TARGET_FIELDS.some((f) => t[f] !== undefined);
}

/** Label keys and values as Kubernetes takes them: `<field>["<key>"]` for a key, `<field>.<key>` for a value. */
export function checkLabels(labels: Record<string, string> | undefined, field: string): ArgProblem[] {
  const problems: ArgProblem[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    const keyProblem = checkLabelKey(k);
    if (keyProblem) problems.push([`${field}[${JSON.stringify(k)}]`, k, keyProblem]);
    else checkField(problems, `${field}.${k}`, v, (value) => checkLabelValue(k, value));
  }
  return problems;
}

/** One member target: each member named once, labels and expressions Kubernetes accepts. */
export function checkClusterTarget(t: ClusterTarget, field: string): ArgProblem[] {
  const problems: ArgProblem[] = [];
  const names = t.clusterNames ?? [];
  for (const n of new Set(names)) {
    if (names.filter((x) => x === n).length > 1)
      problems.push([`${field}.clusterNames`, names, `names ${n} more than once; list each member once`]);
  }
  problems.push(...checkLabels(t.labels, `${field}.labels`));
  (t.matchExpressions ?? []).forEach((e, i) => {
    for (const [suffix, value, problem] of checkExpression(e))
      problems.push([`${field}.matchExpressions[${i}].${suffix}`, value, problem]);
  });
  return problems;
}

/**
 * A placement: a target or ordered affinities (not both), each target valid, spread constraints
 * Karmada can satisfy. `nowhere` is the problem of a placement that sets no filter.
 */
export function checkPlacement(
  p: Placement,
  field = "placement",
  nowhere = "places the object nowhere; set clusterNames, labels, matchExpressions, regions or affinities",
): ArgProblem[] {
  const problems: ArgProblem[] = [];
  if (p.affinities !== undefined) {
    if (p.affinities.length === 0) {
      problems.push([
        `${field}.affinities`,
        p.affinities,
        "must be a non-empty list of {name, clusterNames|labels}, primary first",
      ]);
    } else if (targetSet(p)) {
      problems.push([
        `${field}.affinities`,
        "[...]",
        "is set together with clusterNames, labels, matchExpressions or regions; use one of the two forms",
      ]);
    }
    p.affinities.forEach((a, i) => problems.push(...checkClusterTarget(a, `${field}.affinities[${i}]`)));
  } else if (!targetSet(p)) {
    problems.push([field, p, nowhere]);
  }
  problems.push(...checkClusterTarget(p, field));
  (p.spreadConstraints ?? []).forEach((s, i) => {
    const k = `${field}.spreadConstraints[${i}]`;
    const groups = checkWholeNumber(1, 100);
    const before = problems.length;
    checkField(problems, `${k}.maxGroups`, s.maxGroups, groups);
    checkField(problems, `${k}.minGroups`, s.minGroups, groups);
    if (
      problems.length === before &&
      s.maxGroups !== undefined &&
      s.minGroups !== undefined &&
      s.minGroups > s.maxGroups
    ) {
      problems.push([
        `${k}.minGroups`,
        s.minGroups,
        `is more than maxGroups (${s.maxGroups}); no placement can satisfy it`,
      ]);
    }
  });
  return problems;
}

/** A policy's `spec.failover`: something set, seconds in range, a grace period only with Gracefully. */
export function checkFailover(f: Failover, field = "failover"): ArgProblem[] {
  const problems: ArgProblem[] = [];
  if (f.application === undefined && f.cluster === undefined) {
    problems.push([
      field,
      f,
      "sets no failover; give application: {tolerationSeconds, purgeMode} and/or cluster: {purgeMode}, or remove it",
    ]);
  }
  const a = f.application;
  if (a) {
    const k = `${field}.application`;
    checkField(
      problems,
      `${k}.tolerationSeconds`,
      a.tolerationSeconds,
      checkWholeNumber(0, 86400, " (seconds an IrisCluster may stay unhealthy before it moves)"),
    );
    const purgeMode = a.purgeMode ?? "Gracefully";
    checkField(problems, `${k}.gracePeriodSeconds`, a.gracePeriodSeconds, (v) =>
      purgeMode !== "Gracefully"
        ? `only applies with purgeMode Gracefully (it is ${purgeMode}); remove it or set purgeMode: Gracefully`
        : checkWholeNumber(1, 86400, " (seconds the old copy is kept at most)")(v),
    );
  }
  return problems;
}

/** Overrides as FederatedIrisCluster takes them: each targets some member and changes something. */
export function checkOverrides(
  overrides: { target: ClusterTarget; plaintext: PlaintextOverride[] }[],
  field = "overrides",
): ArgProblem[] {
  const problems: ArgProblem[] = [];
  overrides.forEach((o, i) => {
    const k = `${field}[${i}]`;
    if (!targetSet(o.target))
      problems.push([k, o, "targets no member; set clusterNames, labels, matchExpressions or regions"]);
    problems.push(...checkClusterTarget(o.target, `${k}.target`));
    if (o.plaintext.length === 0) {
      problems.push([
        `${k}.plaintext`,
        o.plaintext,
        "must be a non-empty list of {path: /spec/..., operator: add|remove|replace, value}",
      ]);
    }
    o.plaintext.forEach((p, j) => {
      const pk = `${k}.plaintext[${j}]`;
      if (!p.path.startsWith("/"))
        problems.push([`${pk}.path`, p.path, "must be a JSON pointer such as /spec/storageClassName"]);
      if (p.operator !== "remove" && p.value === undefined)
        problems.push([`${pk}.value`, undefined, `is required for operator ${p.operator}`]);
    });
  });
  return problems;
}
