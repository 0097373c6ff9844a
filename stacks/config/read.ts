/**
 * Small typed readers over raw config values: each returns the value or records a problem.
 */
import { ArgProblem, checkWholeNumber } from "../../components/names";
import { Problems } from "../problems";

export type Raw = Record<string, unknown>;

export function isObject(v: unknown): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A config number as a component gets it: a number, or whole-number text converted; anything else
 * is NaN, which every component check rejects (the config value is shown, not the NaN).
 */
export function configNumber(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === "number") return v;
  return typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : NaN;
}

/** The config key (and shown value) of a component's field: its own mapping, else its nearest mapped parent's. */
function configKeyOf(
  field: string,
  value: unknown,
  keys: Record<string, string | [string, unknown]>,
): [string, unknown] {
  const own = keys[field];
  if (own !== undefined) return typeof own === "string" ? [own, value] : own;
  const parent = Object.keys(keys)
    .filter((k) => field.startsWith(`${k}.`) || field.startsWith(`${k}[`))
    .sort((a, b) => b.length - a.length)[0];
  if (parent === undefined) return [field, value];
  const target = keys[parent];
  return [`${typeof target === "string" ? target : target[0]}${field.slice(parent.length)}`, value];
}

export class Reader {
  constructor(readonly problems: Problems) {}

  object(key: string, v: unknown): Raw {
    if (v === undefined) return {};
    if (!isObject(v)) {
      this.problems.add(
        key,
        v,
        "is not an object; set it with `pulumi config set --path` or as a YAML mapping in the stack file",
      );
      return {};
    }
    return v;
  }

  /** Reports keys of `obj` outside `known` (typos would otherwise be ignored silently). */
  unknownKeys(key: string, obj: Raw, known: string[]): void {
    for (const k of Object.keys(obj)) {
      if (!known.includes(k))
        this.problems.add(`${key}.${k}`, obj[k], `is not a known key; use one of: ${known.join(", ")}`);
    }
  }

  /**
   * Reports the stack's top-level keys outside `known` and `referenced` (the secret keys a config
   * entry names, such as a cluster's `kubeconfigSecret`); `hint` follows the list of known keys, and
   * the value of a key `isSecret` names is masked.
   */
  unknownTopLevelKeys(
    raw: Raw,
    known: string[],
    opts: { referenced?: Set<string>; isSecret: (key: string) => boolean; hint?: string },
  ): void {
    for (const k of Object.keys(raw)) {
      if (known.includes(k) || opts.referenced?.has(k)) continue;
      this.problems.add(
        k,
        raw[k],
        `is not a known key; use one of: ${known.join(", ")}${opts.hint ? ` ${opts.hint}` : ""}`,
        { secret: opts.isSecret(k) },
      );
    }
  }

  /**
   * Reports a component's problems (`check…Args`) under config keys. `keys` maps each field to its
   * config key, or to the key and the config value to show (when the component got a converted
   * value). A field below a mapped one (`placement.labels.region` below `placement`) goes below its
   * key. A key that already has a problem gets no second one: several components may check one
   * config value (a cluster's name is a kind, a Cilium and a Karmada name).
   */
  componentProblems(problems: ArgProblem[], keys: Record<string, string | [string, unknown]>): void {
    for (const [field, value, problem] of problems) {
      const [key, shown] = configKeyOf(field, value, keys);
      if (!this.problems.has(key)) this.problems.add(key, shown, problem);
    }
  }

  string(key: string, v: unknown, fallback?: string): string | undefined {
    if (v === undefined || v === null) return fallback;
    if (typeof v !== "string" || v.length === 0) {
      this.problems.add(key, v, "must be a non-empty string");
      return fallback;
    }
    return v;
  }

  oneOf<T extends string>(key: string, v: unknown, allowed: readonly T[], fallback: T): T {
    if (v === undefined) return fallback;
    if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) {
      this.problems.add(key, v, `is not allowed; use one of: ${allowed.join(", ")}`);
      return fallback;
    }
    return v as T;
  }

  integer(key: string, v: unknown, fallback: number, min: number, max: number, why = ""): number {
    if (v === undefined) return fallback;
    const n = configNumber(v) as number;
    const problem = checkWholeNumber(min, max, why)(n);
    if (problem) {
      this.problems.add(key, v, problem);
      return fallback;
    }
    return n;
  }

  boolean(key: string, v: unknown, fallback: boolean): boolean {
    if (v === undefined) return fallback;
    if (v === true || v === "true") return true;
    if (v === false || v === "false") return false;
    this.problems.add(key, v, "must be true or false");
    return fallback;
  }
}
