/**
 * Pure: turns the JSON of `pulumi preview --diff --json` into a per-stack summary: counts of
 * creates, updates, replaces and deletes, and the changed resources with their changed property
 * paths. Secret values never leave this module: a value is shown only when it is a non-secret
 * scalar (see `isSensitivePath` and `SECRET_SIG`); otherwise only its path is.
 */
import { SECRET_DATA_FIELDS, SECRET_NAME_WORDS } from "../components/names/secrets";
import { DestructiveChange, destructiveChanges } from "./destructive";

/** The signature key Pulumi puts on secret values in serialized state. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
/** The placeholder Pulumi prints for secret values in `--json` previews. */
export const SECRET_PLACEHOLDER = "[secret]";
/** Pulumi's marker for a value that is unknown during a preview. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** One entry of a step's `detailedDiff`. */
export interface PropertyDiffJson {
  kind: string;
  inputDiff?: boolean;
}

/** The parts of a resource state the summary reads. */
export interface StateJson {
  type?: string;
  /** The provider reference (`<provider urn>::<id>`) of a custom resource. */
  provider?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** One step of a `--json` preview. */
export interface StepJson {
  op: string;
  urn: string;
  oldState?: StateJson | null;
  newState?: StateJson | null;
  detailedDiff?: Record<string, PropertyDiffJson> | null;
  diffReasons?: string[] | null;
  replaceReasons?: string[] | null;
}

export interface DiagnosticJson {
  message?: string;
  severity?: string;
  urn?: string;
}

/** What `pulumi preview --json` prints (the parts used here). */
export interface PreviewJson {
  steps?: StepJson[] | null;
  changeSummary?: Record<string, number> | null;
  diagnostics?: DiagnosticJson[] | null;
}

export type ChangeOp = "create" | "update" | "replace" | "delete";

export interface PropertyChange {
  /** Property path as Pulumi prints it, e.g. `spec.placement.clusterNames[1]`. */
  path: string;
  kind: "add" | "update" | "delete";
  /** The change forces the resource to be replaced. */
  replaces: boolean;
  /** The value is secret or sits under a sensitive name: no value is shown. */
  secret: boolean;
  /** Display form of the old value (JSON of a non-secret scalar), when there is one to show. */
  old?: string;
  /** Display form of the new value, when there is one to show. */
  new?: string;
}

export interface ResourceChange {
  op: ChangeOp;
  /** The resource's name (last URN segment). */
  name: string;
  /** The resource's type token, e.g. `kubernetes:core/v1:Secret`. */
  type: string;
  urn: string;
  properties: PropertyChange[];
}

export interface StackCounts {
  create: number;
  update: number;
  replace: number;
  delete: number;
  same: number;
}

export interface StackSummary {
  stack: string;
  counts: StackCounts;
  /** Changed resources: replaces, deletes, updates, creates; each group in the preview's order. */
  resources: ResourceChange[];
  /** Error diagnostics (the preview failed when there is any). */
  errors: string[];
  /** Clusters and joins replaced or deleted, with what goes with them (shown first). */
  destructive: DestructiveChange[];
}

/** Parses `pulumi preview --json` output; a clear error naming the start of the text otherwise. */
export function parsePreviewJson(text: string): PreviewJson {
  const start = text.indexOf("{");
  try {
    const parsed: unknown = JSON.parse(start > 0 ? text.slice(start) : text);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not a JSON object");
    return parsed as PreviewJson;
  } catch (e) {
    const head = text.trim().slice(0, 200).replace(/\s+/g, " ");
    throw new Error(
      `the preview output is not pulumi's --json object (${(e as Error).message}); it starts: ${head || "(empty)"}`,
    );
  }
}

/** Splits `a.b[0]["c.d"]` into ["a", "b", 0, "c.d"]. */
export function parsePropertyPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  let i = 0;
  let word = "";
  const flush = () => {
    if (word !== "") out.push(word);
    word = "";
  };
  while (i < path.length) {
    const ch = path[i];
    if (ch === ".") {
      flush();
      i++;
      continue;
    }
    if (ch === "[") {
      flush();
      const quoteEnd = path[i + 1] === '"' ? closingQuote(path, i + 1) : undefined;
      // An unclosed quote (quoteEnd -1) is unterminated, as a missing "]" is.
      const end = quoteEnd === undefined ? path.indexOf("]", i) : quoteEnd < 0 ? -1 : quoteEnd + 1;
      if (end < 0 || path[end] !== "]") {
        word = path.slice(i);
        i = path.length;
        continue;
      }
      const inner = path.slice(i + 1, end);
      out.push(inner.startsWith('"') ? (JSON.parse(inner) as string) : /^\d+$/.test(inner) ? Number(inner) : inner);
      i = end + 1;
      continue;
    }
    word += ch;
    i++;
  }
  flush();
  return out;
}

function closingQuote(s: string, open: number): number {
  for (let j = open + 1; j < s.length; j++) {
    if (s[j] === "\\") {
      j++;
      continue;
    }
    if (s[j] === '"') return j;
  }
  return -1;
}

/** True for Pulumi's secret markers: the `[secret]` placeholder or a signature-tagged object. */
export function isSecretValue(v: unknown): boolean {
  return (
    v === SECRET_PLACEHOLDER ||
    (v !== null && typeof v === "object" && !Array.isArray(v) && SECRET_SIG in (v as object))
  );
}

interface Lookup {
  found: boolean;
  value?: unknown;
  secret: boolean;
}

/** The value at `path` in `obj`, and whether it or any object on the way is secret. */
export function lookupPath(obj: unknown, path: (string | number)[]): Lookup {
  let cur: unknown = obj;
  for (const key of path) {
    if (isSecretValue(cur)) return { found: true, secret: true };
    if (cur === null || typeof cur !== "object") return { found: false, secret: false };
    const next = (cur as Record<string | number, unknown>)[key];
    if (next === undefined) return { found: false, secret: false };
    cur = next;
  }
  return { found: true, value: cur, secret: isSecretValue(cur) };
}

/**
 * Names whose values are never shown, whatever their secret-ness: anywhere in a name, the secret
 * names of the list (components/names/secrets.ts) and, the summary being only for display, wider
 * words (`secret`, `cert`, `ca`, `tls`...).
 */
const SENSITIVE = new RegExp(
  [
    ...SECRET_NAME_WORDS,
    "pass(word|wd)?",
    "secret",
    "credential",
    "private",
    "licen[cs]e",
    "cert",
    "\\bca\\b",
    "tls",
    "auth",
  ].join("|"),
  "i",
);

/** True when a property path is under a sensitive name, or is a Secret's data (`data`, `stringData`...). */
export function isSensitivePath(type: string, path: (string | number)[]): boolean {
  if (/:Secret$/.test(type) && typeof path[0] === "string" && SECRET_DATA_FIELDS.includes(path[0])) return true;
  return path.some((p) => typeof p === "string" && SENSITIVE.test(p));
}

const MAX_VALUE = 60;

/** Display form of a non-secret scalar (JSON, shortened); undefined for objects and arrays. */
export function displayScalar(v: unknown): string | undefined {
  if (v === UNKNOWN_VALUE) return "(known after apply)";
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
    const s = JSON.stringify(v);
    return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s;
  }
  return undefined;
}

const KINDS: Record<string, { kind: PropertyChange["kind"]; replaces: boolean }> = {
  add: { kind: "add", replaces: false },
  "add-replace": { kind: "add", replaces: true },
  update: { kind: "update", replaces: false },
  "update-replace": { kind: "update", replaces: true },
  delete: { kind: "delete", replaces: false },
  "delete-replace": { kind: "delete", replaces: true },
};

/** The outputs of a state without the provider's bookkeeping (`__inputs`, `__fieldManager`...). */
function plainOutputs(state: StateJson | null | undefined): Record<string, unknown> | undefined {
  return state?.outputs ?? undefined;
}

/** A path segment as Pulumi prints it: `.name`, `[0]` or `["a.b"]`. */
function pathSegment(prefix: string, key: string | number): string {
  if (typeof key === "number") return `${prefix}[${key}]`;
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return prefix ? `${prefix}.${key}` : key;
  return `${prefix}[${JSON.stringify(key)}]`;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !isSecretValue(v);

/**
 * The changed input paths of a step whose provider reports neither `detailedDiff` nor
 * `diffReasons` (Pulumi's dynamic providers only say "changed"): old and new inputs compared,
 * objects and arrays entered, secrets and scalars compared whole. Inputs named `__…` (the
 * provider's own bookkeeping, e.g. a dynamic provider's serialized code) are left out.
 */
export function inputDiffPaths(
  oldInputs: unknown,
  newInputs: unknown,
  replaces: Set<string> = new Set(),
): [string, PropertyDiffJson][] {
  const out: [string, PropertyDiffJson][] = [];
  const kindOf = (base: string, path: string) => {
    const top = path.split(/[.[]/)[0];
    return replaces.has(top) ? `${base}-replace` : base;
  };
  const walk = (o: unknown, n: unknown, path: string): void => {
    if (o === undefined && n === undefined) return;
    if (o === undefined) {
      out.push([path, { kind: kindOf("add", path), inputDiff: true }]);
      return;
    }
    if (n === undefined) {
      out.push([path, { kind: kindOf("delete", path), inputDiff: true }]);
      return;
    }
    if (Array.isArray(o) && Array.isArray(n)) {
      for (let i = 0; i < Math.max(o.length, n.length); i++) walk(o[i], n[i], pathSegment(path, i));
      return;
    }
    if (isPlainObject(o) && isPlainObject(n)) {
      const keys = [...new Set([...Object.keys(o), ...Object.keys(n)])].filter(
        (k) => path !== "" || !k.startsWith("__"),
      );
      for (const k of keys) walk(o[k], n[k], pathSegment(path, k));
      return;
    }
    if (JSON.stringify(o) !== JSON.stringify(n)) out.push([path, { kind: kindOf("update", path), inputDiff: true }]);
  };
  walk(isPlainObject(oldInputs) ? oldInputs : {}, isPlainObject(newInputs) ? newInputs : {}, "");
  return out;
}

/**
 * The changed properties of one step, from `detailedDiff`, else `diffReasons`, else a comparison
 * of the old and new inputs (`inputDiffPaths`).
 */
export function propertyChanges(step: StepJson, type: string): PropertyChange[] {
  const replaceReasons = new Set(step.replaceReasons ?? []);
  const entries: [string, PropertyDiffJson][] =
    step.detailedDiff && Object.keys(step.detailedDiff).length
      ? Object.entries(step.detailedDiff)
      : step.diffReasons?.length
        ? step.diffReasons.map((p) => [
            p,
            { kind: replaceReasons.has(p) ? "update-replace" : "update", inputDiff: true },
          ])
        : step.op === "update" || step.op === "replace" || step.op === "create-replacement"
          ? inputDiffPaths(step.oldState?.inputs, step.newState?.inputs, replaceReasons)
          : [];
  return entries.map(([path, d]) => {
    const k = KINDS[d.kind] ?? { kind: "update", replaces: false };
    const segs = parsePropertyPath(path);
    const oldSrc =
      d.inputDiff === false ? (plainOutputs(step.oldState) ?? step.oldState?.inputs) : step.oldState?.inputs;
    const oldV = k.kind === "add" ? { found: false, secret: false } : lookupPath(oldSrc, segs);
    const oldIn = lookupPath(step.oldState?.inputs, segs);
    const newV = k.kind === "delete" ? { found: false, secret: false } : lookupPath(step.newState?.inputs, segs);
    const secret = oldV.secret || newV.secret || oldIn.secret || isSensitivePath(type, segs);
    const change: PropertyChange = { path, kind: k.kind, replaces: k.replaces || replaceReasons.has(path), secret };
    if (!secret) {
      const o = oldV.found ? displayScalar(oldV.value) : undefined;
      const n = newV.found ? displayScalar(newV.value) : undefined;
      if (o !== undefined) change.old = o;
      if (n !== undefined) change.new = n;
    }
    return change;
  });
}

/** Type and name of a URN `urn:pulumi:<stack>::<project>::<parent$...$type>::<name>`. */
export function splitUrn(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  const name = parts.length >= 4 ? parts.slice(3).join("::") : urn;
  const types = (parts[2] ?? "").split("$");
  return { type: types[types.length - 1] ?? "", name };
}

const OP_OF: Record<string, ChangeOp | undefined> = {
  create: "create",
  update: "update",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
  delete: "delete",
};
const OP_ORDER: ChangeOp[] = ["replace", "delete", "update", "create"];

/** Counts and changed resources of one stack's preview. */
export function summarizeStack(stack: string, preview: PreviewJson): StackSummary {
  const counts: StackCounts = { create: 0, update: 0, replace: 0, delete: 0, same: 0 };
  const byUrn = new Map<string, ResourceChange>();
  for (const step of preview.steps ?? []) {
    if (step.op === "same") {
      counts.same++;
      continue;
    }
    const op = OP_OF[step.op];
    if (!op) continue;
    const prior = byUrn.get(step.urn);
    if (prior) {
      // A replacement shown as separate steps: one resource, the properties of whichever step has them.
      if (!prior.properties.length) prior.properties = propertyChanges(step, prior.type);
      continue;
    }
    const { type: urnType, name } = splitUrn(step.urn);
    const type = step.newState?.type ?? step.oldState?.type ?? urnType;
    counts[op]++;
    byUrn.set(step.urn, {
      op,
      name,
      type,
      urn: step.urn,
      properties: op === "update" || op === "replace" ? propertyChanges(step, type) : [],
    });
  }
  // `--json` lists unchanged resources only with --show-sames; the change summary counts them all.
  if (typeof preview.changeSummary?.same === "number") counts.same = preview.changeSummary.same;
  const all = [...byUrn.values()];
  // By operation, then by name and type: independent resources come from the engine in any order,
  // and a PR comment should not reorder between two runs of the same change.
  const byName = (a: ResourceChange, b: ResourceChange) => a.name.localeCompare(b.name) || a.type.localeCompare(b.type);
  const resources = OP_ORDER.flatMap((op) => all.filter((r) => r.op === op).sort(byName));
  const errors = (preview.diagnostics ?? [])
    .filter((d) => d.severity === "error")
    .map((d) => (d.message ?? "").trim())
    .filter(Boolean);
  return { stack, counts, resources, errors, destructive: destructiveChanges(preview) };
}
