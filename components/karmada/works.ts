/**
 * What a member's unjoin waits for on destroy: the objects this stack propagates to the member,
 * and the Works in Karmada (namespace `karmada-es-<member>`) that still carry them. Karmada deletes
 * a propagated object from a member when it deletes the object's Work, and removes the Work only
 * once the member confirmed it; deleting the member's `Cluster` first makes Karmada drop the Works
 * without cleaning the member (a Secret copy left behind). Pure: the functions below
 * `propagatedByMember` run in the dynamic provider process too (no imports used there).
 */
import { ClusterTarget, PlaceableMember, selectableMembers } from "./selectors";

/** A namespaced object this stack propagates (what a Work's manifest names). */
export interface PropagatedObject {
  kind: string;
  namespace: string;
  name: string;
}

/** A federated IrisCluster as far as propagation goes: its name, and the objects selected with it. */
export interface PropagatedIris {
  name: string;
  namespace: string;
  placement: ClusterTarget & { affinities?: (ClusterTarget & { name?: string })[] };
  /** Whether it carries a license key (Secret `<name>-license`). */
  licenseKey: boolean;
  secrets: string[];
  configMaps: string[];
}

/** A fleet Secret: one Secret propagated by its placement. */
export interface PropagatedSecret {
  name: string;
  namespace: string;
  placement: ClusterTarget & { affinities?: (ClusterTarget & { name?: string })[] };
}

const byKey = (a: PropagatedObject, b: PropagatedObject) => objectKey(a).localeCompare(objectKey(b));

/** `<Kind> <namespace>/<name>`, as messages show an object. */
export function objectKey(o: PropagatedObject): string {
  return `${o.kind} ${o.namespace}/${o.name}`;
}

/**
 * For every member, the objects this stack may propagate to it (any placement that can select
 * it, by name, label, region or any ordered affinity group: a failover may move objects there),
 * sorted and without duplicates. Members nothing is placed on get [].
 */
export function propagatedByMember(
  members: PlaceableMember[],
  iris: PropagatedIris[],
  secrets: PropagatedSecret[],
): Record<string, PropagatedObject[]> {
  const out: Record<string, Map<string, PropagatedObject>> = {};
  for (const m of members) out[m.name] = new Map();
  const add = (names: string[], objects: PropagatedObject[]) => {
    for (const n of names) for (const o of objects) out[n]?.set(objectKey(o), o);
  };
  for (const f of iris) {
    const objects: PropagatedObject[] = [{ kind: "IrisCluster", namespace: f.namespace, name: f.name }];
    if (f.licenseKey) objects.push({ kind: "Secret", namespace: f.namespace, name: `${f.name}-license` });
    for (const s of f.secrets) objects.push({ kind: "Secret", namespace: f.namespace, name: s });
    for (const c of f.configMaps) objects.push({ kind: "ConfigMap", namespace: f.namespace, name: c });
    add(selectableMembers(f.placement, members), objects);
  }
  for (const s of secrets)
    add(selectableMembers(s.placement, members), [{ kind: "Secret", namespace: s.namespace, name: s.name }]);
  const result: Record<string, PropagatedObject[]> = {};
  for (const [m, objects] of Object.entries(out)) result[m] = [...objects.values()].sort(byKey);
  return result;
}

/** The Karmada namespace holding a member's Works (Karmada's execution space). */
export function workNamespace(cluster: string): string {
  return `karmada-es-${cluster}`;
}

/** The part of a Work this module reads: its name and the kind/namespace/name of each manifest. */
export interface WorkLike {
  metadata?: { name?: string; deletionTimestamp?: string };
  spec?: { workload?: { manifests?: { kind?: string; metadata?: { name?: string; namespace?: string } }[] } };
}

/** A Work that still carries objects of this stack. */
export interface RemainingWork {
  work: string;
  /** The stack's objects in it (`<Kind> <namespace>/<name>`), sorted. */
  objects: string[];
  /** Whether Karmada is already deleting it (it waits for the member to confirm). */
  deleting: boolean;
}

/**
 * The Works (from a list of `karmada-es-<member>`) that still carry one of `objects`, by Work
 * name; a Work being deleted still counts: it is gone only once the member confirmed the delete.
 */
export function remainingWorks(works: WorkLike[], objects: PropagatedObject[]): RemainingWork[] {
  const wanted = new Set(objects.map((o) => `${o.kind} ${o.namespace}/${o.name}`));
  const out: RemainingWork[] = [];
  for (const w of works) {
    const mine = (w.spec?.workload?.manifests ?? [])
      .map((m) => `${m.kind ?? ""} ${m.metadata?.namespace ?? ""}/${m.metadata?.name ?? ""}`)
      .filter((k) => wanted.has(k))
      .sort();
    if (mine.length > 0)
      out.push({ work: w.metadata?.name ?? "", objects: mine, deleting: Boolean(w.metadata?.deletionTimestamp) });
  }
  return out.sort((a, b) => a.work.localeCompare(b.work));
}

/** The Ready condition of a Karmada Cluster object: "True", "False", "Unknown", or "absent" (no such condition or no Cluster). */
export function clusterReadyStatus(
  cluster: { status?: { conditions?: { type?: string; status?: string }[] } } | undefined,
): string {
  return (cluster?.status?.conditions ?? []).find((c) => c.type === "Ready")?.status ?? "absent";
}

export interface WaitState {
  remaining: RemainingWork[];
  /** The member's Cluster Ready condition (clusterReadyStatus). */
  ready: string;
  elapsedSeconds: number;
  /** How long to wait while the member is not Ready (down: Karmada cannot clean it). */
  timeoutSeconds: number;
  /**
   * How long to wait while the member is Ready: Karmada retries a failed delete with a delay that
   * doubles up to 1000 s, so after a long outage the member may be back well before the retry.
   */
  readyTimeoutSeconds: number;
  /** The last listing of the Works failed (Karmada did not answer): nothing is known to be gone. */
  unanswered?: boolean;
}

/** The limit that applies now: readyTimeoutSeconds while Karmada answers and the member is Ready, else timeoutSeconds. */
export function waitLimitSeconds(s: Omit<WaitState, "remaining" | "elapsedSeconds">): number {
  return !s.unanswered && s.ready === "True" ? s.readyTimeoutSeconds : s.timeoutSeconds;
}

/** Whether the wait is over ("done"), goes on ("wait") or fails ("fail"). */
export function worksWaitDecision(s: WaitState): "done" | "wait" | "fail" {
  if (!s.unanswered && s.remaining.length === 0) return "done";
  return s.elapsedSeconds >= waitLimitSeconds(s) ? "fail" : "wait";
}

/**
 * The one message of a wait that failed: which member, what is left where, why, and what to do.
 * `lastError` is the last failure reading Karmada, when the Works could not even be listed.
 */
export function worksTimeoutMessage(
  cluster: string,
  seconds: number,
  remaining: RemainingWork[],
  ready: string,
  lastError?: string,
): string {
  const ns = `karmada-es-${cluster}`;
  if (lastError !== undefined) {
    return (
      `member cluster "${cluster}": the Karmada API did not answer for ${seconds} s while waiting for this stack's Works in ${ns} to go (${lastError}); ` +
      `bring the Karmada API back, then run destroy again`
    );
  }
  const objects = [...new Set(remaining.flatMap((r) => r.objects))].sort();
  const left =
    `member cluster "${cluster}": ${objects.length} propagated object(s) of this stack still on it after ${seconds} s ` +
    `(${objects.join(", ")}; Works ${remaining.map((r) => `${ns}/${r.work}`).join(", ")})`;
  if (ready === "True") {
    return (
      `${left}: Karmada has not removed them although the member is Ready; see karmada-controller-manager's log for ${ns}, ` +
      `then run destroy again; its Cluster and join Secrets stay until then`
    );
  }
  return (
    `${left}: Karmada cannot remove them while the member is unreachable (Cluster Ready=${ready}); ` +
    `bring member cluster "${cluster}" back (its API server must answer Karmada), then run destroy again; ` +
    `its Cluster and join Secrets stay until then, so no propagated object outlives the stack`
  );
}
