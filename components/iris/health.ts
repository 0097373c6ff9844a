/**
 * Whether an IrisCluster runs, from its `status`: the same rule Karmada's health interpreter
 * applies to federated ones (components/karmada/interpreter.ts, in Lua), for the readiness wait
 * and the status view. Pure.
 */

/** Phases that mean the IrisCluster is broken (case-insensitive): unhealthy whatever else the status says. */
export const UNHEALTHY_PHASES = ["failed", "error", "degraded", "unhealthy"];

/** Phases that mean the operator runs the IrisCluster (case-insensitive): healthy unless a condition fails. */
export const HEALTHY_PHASES = ["running"];

/** A Kubernetes condition, as far as the judgement reads it. */
export interface IrisCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** An IrisCluster's `status` as IKO (or the stand-in) writes it, or Karmada aggregates it. */
export interface IrisStatus {
  phase?: string;
  conditions?: IrisCondition[];
  /** Karmada's aggregated status: each member's phase. */
  members?: { clusterName: string; phase: string }[];
}

/**
 * Healthy only when the operator says so: a Ready condition "True", or (without one) a running
 * phase; and no failed phase, no condition "False". No status is not healthy.
 */
export function irisHealthy(status: IrisStatus | undefined): boolean {
  if (!status) return false;
  const phase = typeof status.phase === "string" ? status.phase.toLowerCase() : undefined;
  if (phase && UNHEALTHY_PHASES.includes(phase)) return false;
  let ready: boolean | undefined;
  for (const c of status.conditions ?? []) {
    if (c.status === "False") return false;
    if (c.type === "Ready") ready = c.status === "True";
  }
  return ready ?? (phase !== undefined && HEALTHY_PHASES.includes(phase));
}

/** One line on an IrisCluster's status: its phase and any condition that is not True. */
export function describeIris(status: IrisStatus | undefined): string {
  if (!status) return "no status yet (no operator has reconciled it)";
  const parts = [status.phase ?? "no phase"];
  for (const c of status.conditions ?? []) {
    if (c.status !== "True") parts.push(`${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ""}`);
  }
  return parts.join(", ");
}

/** The status of an IrisCluster object as read from the API (undefined when it has none). */
export function irisStatusOf(obj: unknown): IrisStatus | undefined {
  const s = (obj as { status?: Record<string, unknown> } | undefined)?.status;
  if (!s || typeof s !== "object" || Object.keys(s).length === 0) return undefined;
  return {
    phase: typeof s.phase === "string" ? s.phase : undefined,
    conditions: Array.isArray(s.conditions)
      ? (s.conditions as IrisCondition[]).map((c) => ({
          type: String(c.type),
          status: String(c.status),
          ...(typeof c.reason === "string" ? { reason: c.reason } : {}),
        }))
      : undefined,
    members: Array.isArray(s.members) ? (s.members as { clusterName: string; phase: string }[]) : undefined,
  };
}
