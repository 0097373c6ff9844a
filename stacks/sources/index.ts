/**
 * The cluster sources: the one place that lists them all. The shared code resolves a cluster's
 * source here (`clusterSource`) and asks it through the ClusterSource interface; a new source is a
 * folder under stacks/sources and one entry in DEFAULT_SOURCES (with, for a source with keys of its
 * own, its typed part of the config in SourceEntry or SourceSettings).
 */
import type { ProgramName } from "../config/project";
import { GkeSettings, gkeSource } from "./gke";
import { kindSource } from "./kind";
import { KubeconfigEntry, kubeconfigSource } from "./kubeconfig";
import type { ClusterEntry, ClusterSource } from "./source";

export * from "./source";
export { gkeSource, kindSource, kubeconfigSource };
export type { GkeSettings, KubeconfigEntry };

/** What the project's sources' entry keys give every cluster config (ClusterConfig has these fields). */
export type SourceEntry = KubeconfigEntry;
/** What the project's sources' settings keys give a fleet or region cluster config. */
export type SourceSettings = GkeSettings;

/** A set of sources, in the order the `source` error message lists them. */
export class ClusterSources {
  /**
   * `fallback` names the source of an entry that neither sets `source` nor gives what another
   * source is implied by.
   */
  constructor(
    readonly all: readonly ClusterSource[],
    readonly fallback: string,
  ) {
    const names = all.map((s) => s.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice !== undefined) throw new Error(`cluster source ${twice} is registered twice`);
    if (!names.includes(fallback)) throw new Error(`fallback cluster source ${fallback} is not registered`);
  }

  /** The source named `name`; throws for a name not registered (config reading allows only registered ones). */
  get(name: string): ClusterSource {
    const source = this.all.find((s) => s.name === name);
    if (!source) throw new Error(`unknown cluster source ${name}; registered: ${this.names().join(", ")}`);
    return source;
  }

  /** The names of the sources a program's clusters may come from (every source without `program`). */
  names(program?: ProgramName): string[] {
    return (program ? this.forProgram(program) : this.all).map((s) => s.name);
  }

  /** The entry keys of the sources a program's clusters may come from, in the sources' order. */
  entryKeys(program: ProgramName): string[] {
    return this.forProgram(program).flatMap((s) => s.entryKeys ?? []);
  }

  /** The settings keys (of a fleet or region entry) of the sources a program's clusters may come from. */
  settingsKeys(program: ProgramName): string[] {
    return this.forProgram(program).flatMap((s) => s.settingsKeys ?? []);
  }

  /** The sources a program's clusters may come from, in order. */
  forProgram(program: ProgramName): ClusterSource[] {
    return this.all.filter((s) => !s.programs || s.programs.includes(program));
  }

  /** The source of an entry without `source`: the first implied one, else the fallback. */
  implied(entry: ClusterEntry): string {
    return this.all.find((s) => s.impliedBy?.(entry))?.name ?? this.fallback;
  }

  /** These sources and `extra` (after them). */
  with(extra: readonly ClusterSource[]): ClusterSources {
    return new ClusterSources([...this.all, ...extra], this.fallback);
  }
}

/** The project's sources. */
export const DEFAULT_SOURCES = new ClusterSources([kindSource, kubeconfigSource, gkeSource], "kind");

let active = DEFAULT_SOURCES;

/** The sources in use: DEFAULT_SOURCES, but inside `withSources`. */
export function clusterSources(): ClusterSources {
  return active;
}

/** The source in use named `name` (see `ClusterSources.get`). */
export function clusterSource(name: string): ClusterSource {
  return active.get(name);
}

/**
 * Runs `fn` with `extra` sources registered beside the project's, and restores the sources in use
 * when it returns (or, for a promise, settles), so that nothing else sees them.
 */
export function withSources<T>(extra: readonly ClusterSource[], fn: () => T): T {
  const before = active;
  active = before.with(extra);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    active = before;
    throw e;
  }
  if (result instanceof Promise) {
    return result.finally(() => {
      active = before;
    }) as T;
  }
  active = before;
  return result;
}
