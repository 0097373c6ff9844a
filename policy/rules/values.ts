/**
 * The plain values the rules judge. The policy pack (policy/sdk.ts) turns what @pulumi/policy
 * hands a policy into these: secret inputs become `SecretValue`, values unknown during preview
 * become `UNKNOWN`, everything else is plain JSON. Rules are pure functions of these values.
 */

/** A value the engine marked secret (a `pulumi.secret`, or an input the provider makes secret). */
export class SecretValue {
  constructor(readonly value: PolicyValue) {}
}

/** A value not known until the update runs (`pulumi preview` of a resource that depends on another). */
export const UNKNOWN: unique symbol = Symbol("unknown");

export type PolicyValue =
  | string
  | number
  | boolean
  | null
  | typeof UNKNOWN
  | SecretValue
  | PolicyValue[]
  | PolicyObject;
export interface PolicyObject {
  [key: string]: PolicyValue;
}

/** One resource as the rules see it. */
export interface PolicyResource {
  /** Pulumi type token, e.g. `kubernetes:core/v1:ConfigMap`. */
  type: string;
  /** Pulumi resource name. */
  name: string;
  urn: string;
  /** URN of the resource's provider, when the engine gave one. */
  provider?: string;
  /** Inputs (resource policies) or outputs (stack policies). */
  props: PolicyObject;
  /** Pulumi's `protect` option on the resource, when the engine gave its options. */
  protect?: boolean;
}

/** A stack policy's finding: the resource it concerns and the message. */
export interface StackFinding {
  urn: string;
  message: string;
}

export function isObject(v: PolicyValue | undefined): v is PolicyObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof SecretValue);
}

/** The value with any secret wrapper removed (rules other than the credentials rule ignore secret-ness). */
export function reveal(v: PolicyValue | undefined): PolicyValue | undefined {
  return v instanceof SecretValue ? reveal(v.value) : v;
}

/** The value at a path of object keys, secrets revealed on the way; undefined when absent or unknown. */
export function at(v: PolicyValue | undefined, ...path: string[]): PolicyValue | undefined {
  let cur = reveal(v);
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = reveal(cur[key]);
  }
  return cur === UNKNOWN ? undefined : cur;
}

/** A string at a path, or undefined. */
export function stringAt(v: PolicyValue | undefined, ...path: string[]): string | undefined {
  const s = at(v, ...path);
  return typeof s === "string" ? s : undefined;
}

/** A list at a path (empty when absent or not a list). */
export function listAt(v: PolicyValue | undefined, ...path: string[]): PolicyValue[] {
  const l = at(v, ...path);
  return Array.isArray(l) ? l.map((x) => reveal(x) as PolicyValue) : [];
}

/** Appends a key or index to a dotted property path (`spec.containers[0].image`). */
export function joinPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  const plain = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  if (path === "") return plain;
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}[${plain}]`;
}

/** A leaf of a value tree: its dotted path, the string or scalar, and whether a secret held it. */
export interface Leaf {
  path: string;
  key: string;
  value: string | number | boolean;
  secret: boolean;
}

/** Every scalar leaf (unknowns and nulls skipped), with its path and secret-ness. */
export function leaves(v: PolicyValue, path = "", key = "", secret = false): Leaf[] {
  if (v instanceof SecretValue) return leaves(v.value, path, key, true);
  if (v === null || v === UNKNOWN) return [];
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, joinPath(path, i), key, secret));
  if (typeof v === "object") return Object.entries(v).flatMap(([k, x]) => leaves(x, joinPath(path, k), k, secret));
  return [{ path, key, value: v, secret }];
}

/** How a resource is named in messages: `kubernetes:core/v1:ConfigMap "app-config"`. */
export function describe(r: Pick<PolicyResource, "type" | "name">): string {
  return `${r.type} ${JSON.stringify(r.name)}`;
}

/** A credential-like value shown without its content: the first 4 characters and the length. */
export function mask(value: string): string {
  return `${JSON.stringify(value.slice(0, 4) + "…")} (${value.length} characters, masked)`;
}

/** `namespace/name` of a Kubernetes object (namespace `default` when unset). */
export function objectRef(props: PolicyObject, defaultNamespace = "default"): string {
  return `${stringAt(props, "metadata", "namespace") ?? defaultNamespace}/${stringAt(props, "metadata", "name") ?? "?"}`;
}
