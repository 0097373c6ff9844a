/**
 * Rule `placement-names-joined-clusters` (a stack policy): every cluster name in a Karmada
 * PropagationPolicy / ClusterPropagationPolicy placement (`clusterAffinity.clusterNames`,
 * `clusterAffinities[].clusterNames`) and in an OverridePolicy / ClusterOverridePolicy target
 * (`overrideRules[].targetCluster.clusterNames`, `targetCluster.clusterNames`) must be the
 * name of a Karmada `Cluster` (cluster.karmada.io) declared in the same stack, through the same
 * provider (Karmada API). A name that is not joined places nothing, silently.
 *
 * The same targets' `labelSelector`s (`matchLabels`, `matchExpressions`) must be valid as
 * Kubernetes takes them, and, when the stack declares Clusters through that Karmada, select at
 * least one of them (all of the target's filters together, as Karmada ANDs them). Selection and
 * validation are the stack's own (components/karmada/selectors.ts), not a copy.
 */
import {
  ClusterTarget,
  LabelExpression,
  PlaceableMember,
  checkExpression,
  checkLabelKey,
  checkLabelValue,
  selectableMembers,
} from "../../components/karmada/selectors";
import {
  at,
  describe,
  isObject,
  joinPath,
  listAt,
  objectRef,
  PolicyObject,
  PolicyResource,
  PolicyValue,
  reveal,
  StackFinding,
  stringAt,
  UNKNOWN,
} from "./values";

export const PLACEMENT_NAMES_JOINED_CLUSTERS = "placement-names-joined-clusters";

const CLUSTER_TYPE = /^kubernetes:cluster\.karmada\.io\/[^:]+:Cluster$/;
const PROPAGATION_TYPE = /^kubernetes:policy\.karmada\.io\/[^:]+:(Cluster)?PropagationPolicy$/;
const OVERRIDE_TYPE = /^kubernetes:policy\.karmada\.io\/[^:]+:(Cluster)?OverridePolicy$/;

/** Every cluster name a policy places on or overrides for, with its property path. */
export function placedClusterNames(r: PolicyResource): { path: string; name: string }[] {
  const lists: { path: string; values: PolicyValue[] }[] = [];
  if (PROPAGATION_TYPE.test(r.type)) {
    lists.push({
      path: "spec.placement.clusterAffinity.clusterNames",
      values: listAt(r.props, "spec", "placement", "clusterAffinity", "clusterNames"),
    });
    listAt(r.props, "spec", "placement", "clusterAffinities").forEach((a, i) =>
      lists.push({ path: `spec.placement.clusterAffinities[${i}].clusterNames`, values: listAt(a, "clusterNames") }),
    );
  } else if (OVERRIDE_TYPE.test(r.type)) {
    lists.push({
      path: "spec.targetCluster.clusterNames",
      values: listAt(r.props, "spec", "targetCluster", "clusterNames"),
    });
    listAt(r.props, "spec", "overrideRules").forEach((rule, i) =>
      lists.push({
        path: `spec.overrideRules[${i}].targetCluster.clusterNames`,
        values: listAt(rule, "targetCluster", "clusterNames"),
      }),
    );
  }
  return lists.flatMap((l) =>
    l.values.flatMap((v, i) => (typeof v === "string" ? [{ path: joinPath(l.path, i), name: v }] : [])),
  );
}

/** Every cluster target of a placement or override policy, with its property path. */
export function placementTargets(r: PolicyResource): { path: string; target: PolicyObject }[] {
  const out: { path: string; target: PolicyValue | undefined }[] = [];
  if (PROPAGATION_TYPE.test(r.type)) {
    out.push({ path: "spec.placement.clusterAffinity", target: at(r.props, "spec", "placement", "clusterAffinity") });
    listAt(r.props, "spec", "placement", "clusterAffinities").forEach((a, i) =>
      out.push({ path: `spec.placement.clusterAffinities[${i}]`, target: a }),
    );
  } else if (OVERRIDE_TYPE.test(r.type)) {
    out.push({ path: "spec.targetCluster", target: at(r.props, "spec", "targetCluster") });
    listAt(r.props, "spec", "overrideRules").forEach((rule, i) =>
      out.push({ path: `spec.overrideRules[${i}].targetCluster`, target: at(rule, "targetCluster") }),
    );
  }
  return out.filter((t): t is { path: string; target: PolicyObject } => isObject(t.target));
}

/** True when a value holds a part not known until the update runs. */
function hasUnknown(v: PolicyValue | undefined): boolean {
  const x = reveal(v);
  if (x === UNKNOWN) return true;
  if (Array.isArray(x)) return x.some(hasUnknown);
  if (isObject(x)) return Object.values(x).some(hasUnknown);
  return false;
}

const strings = (v: PolicyValue | undefined): string[] =>
  Array.isArray(v) ? v.map(reveal).filter((x): x is string => typeof x === "string") : [];

/**
 * Problems of a target's labelSelector as Kubernetes validates it, each `[path, value, problem]`,
 * and the selector as a ClusterTarget when it is valid.
 */
export function checkLabelSelector(
  path: string,
  target: PolicyObject,
): { problems: [string, PolicyValue | undefined, string][]; target?: ClusterTarget } {
  const selector = at(target, "labelSelector");
  if (!isObject(selector)) return { problems: [] };
  const problems: [string, PolicyValue | undefined, string][] = [];
  const labels: Record<string, string> = {};
  const matchLabels = at(selector, "matchLabels");
  for (const [k, v] of Object.entries(isObject(matchLabels) ? matchLabels : {})) {
    const value = reveal(v);
    const p = joinPath(`${path}.labelSelector.matchLabels`, k);
    const keyProblem = checkLabelKey(k);
    if (keyProblem) {
      problems.push([p, k, keyProblem]);
      continue;
    }
    if (typeof value !== "string") {
      problems.push([p, value, "must be a string label value"]);
      continue;
    }
    const valueProblem = checkLabelValue(k, value);
    if (valueProblem) problems.push([p, value, valueProblem]);
    labels[k] = value;
  }
  const matchExpressions: LabelExpression[] = [];
  listAt(selector, "matchExpressions").forEach((e, i) => {
    const p = `${path}.labelSelector.matchExpressions[${i}]`;
    const o = isObject(e) ? e : {};
    for (const [suffix, value, problem] of checkExpression({
      key: reveal(o.key),
      operator: reveal(o.operator),
      values: o.values === undefined ? undefined : listAt(o, "values"),
    })) {
      problems.push([`${p}.${suffix}`, value as PolicyValue | undefined, problem]);
    }
    matchExpressions.push({
      key: stringAt(o, "key") ?? "",
      operator: stringAt(o, "operator") as LabelExpression["operator"],
      values: strings(at(o, "values")),
    });
  });
  if (problems.length > 0) return { problems };
  const regions = listAt(target, "fieldSelector", "matchExpressions").flatMap((e) =>
    stringAt(e, "key") === "region" && stringAt(e, "operator") === "In" ? strings(at(e, "values")) : [],
  );
  return {
    problems,
    target: {
      clusterNames: strings(at(target, "clusterNames")),
      labels,
      matchExpressions,
      ...(regions.length > 0 ? { regions } : {}),
    },
  };
}

/** A Karmada Cluster declared in the stack as placements see it (undefined while any part is unknown). */
function placeable(c: PolicyResource): PlaceableMember | undefined {
  const name = stringAt(c.props, "metadata", "name");
  const raw = (v: PolicyValue | undefined, key: string) => {
    const o = reveal(v);
    return isObject(o) ? o[key] : undefined;
  };
  if (name === undefined || hasUnknown(raw(c.props.metadata, "labels")) || hasUnknown(raw(c.props.spec, "region")))
    return undefined;
  const labels = at(c.props, "metadata", "labels");
  const member: PlaceableMember = { name, labels: {} };
  for (const [k, v] of Object.entries(isObject(labels) ? labels : {}))
    if (typeof reveal(v) === "string") (member.labels as Record<string, string>)[k] = reveal(v) as string;
  const region = stringAt(c.props, "spec", "region");
  if (region !== undefined) member.region = region;
  return member;
}

const showMember = (m: PlaceableMember) => {
  const labels = Object.entries(m.labels ?? {}).map(([k, v]) => `${k}=${v}`);
  return labels.length > 0 ? `${m.name} {${labels.join(", ")}}` : `${m.name} (no labels)`;
};

/** Findings about label selectors: invalid ones, and valid ones that select no Cluster joined in the stack. */
function selectorFindings(r: PolicyResource, clusters: PolicyResource[]): StackFinding[] {
  const out: StackFinding[] = [];
  const head = `${describe(r)} (${objectRef(r.props)}): `;
  const sameKarmada = clusters.filter(
    (c) => c.provider === undefined || r.provider === undefined || c.provider === r.provider,
  );
  const members = sameKarmada.map(placeable);
  for (const { path, target } of placementTargets(r)) {
    if (!isObject(at(target, "labelSelector")) || hasUnknown(target)) continue;
    const checked = checkLabelSelector(path, target);
    for (const [p, value, problem] of checked.problems)
      out.push({ urn: r.urn, message: `${head}${p} is ${JSON.stringify(value) ?? "(not set)"}, which ${problem}` });
    if (!checked.target || sameKarmada.length === 0 || members.some((m) => m === undefined)) continue;
    const known = members as PlaceableMember[];
    if (selectableMembers(checked.target, known).length > 0) continue;
    out.push({
      urn: r.urn,
      message:
        `${head}${path} selects no Karmada Cluster joined in this stack through the same Karmada ` +
        `(joined: ${known.map(showMember).join("; ")}), so it places nothing; fix its labelSelector (matchLabels, matchExpressions) or join a cluster with those labels (clusters[].join.labels)`,
    });
  }
  return out;
}

/** Findings of the rule over all resources of a stack. */
export function unjoinedPlacements(resources: PolicyResource[]): StackFinding[] {
  const clusters = resources.filter((r) => CLUSTER_TYPE.test(r.type));
  const out: StackFinding[] = [];
  for (const r of resources) {
    out.push(...selectorFindings(r, clusters));
    const names = placedClusterNames(r);
    if (names.length === 0) continue;
    const joined = clusters
      .filter((c) => c.provider === undefined || r.provider === undefined || c.provider === r.provider)
      .map((c) => stringAt(c.props, "metadata", "name"))
      .filter((n): n is string => n !== undefined);
    const joinedText =
      joined.length > 0 ? `joined: ${[...new Set(joined)].sort().join(", ")}` : "no Cluster is joined in this stack";
    for (const { path, name } of names) {
      if (joined.includes(name)) continue;
      out.push({
        urn: r.urn,
        message:
          `${describe(r)} (${objectRef(r.props)}): ${path} is ${JSON.stringify(name)}, ` +
          `which is not a Karmada Cluster joined in this stack through the same Karmada (${joinedText}); ` +
          "join that cluster in this stack (clusters[].join) or remove the name",
      });
    }
  }
  return out;
}
