/**
 * Between @pulumi/policy 1.21 and the pure rules: what a policy is handed, turned into plain
 * `PolicyValue`s (policy/rules/values.ts).
 *
 * Secret inputs. The engine sends a policy pack every input with its secret marker, but
 * @pulumi/policy 1.21 drops the markers before `validateResource` / `validateStack` run
 * (`deserializeProperties(props, false)` in its server.js; only remediations get them), so a
 * policy cannot tell `pulumi.secret("…")` from plain text. `keepSecretMarkers()` makes the
 * pack's deserialisation keep them: @pulumi/policy then wraps secrets in its `Secret` class
 * behind a proxy that reveals them on reads (reads stay as before for any policy), and
 * `policyProps()` reads the raw values behind the proxies. It fails loudly if @pulumi/policy
 * changed shape, rather than judging every secret as plain text.
 *
 * Unknowns. During preview, values that depend on other resources are sentinel strings; the
 * SDK's proxy throws on reading them (reported as an advisory "can't run policy during preview").
 * `policyProps()` turns them into `UNKNOWN` instead, and the rules skip what they cannot know.
 */
import { Secret } from "@pulumi/policy";
import { PolicyObject, PolicyResource, PolicyValue, SecretValue, UNKNOWN } from "./rules/values";

interface DeserializeModule {
  deserializeProperties: (props: unknown, proxySecrets: boolean) => unknown;
}
type Patched = DeserializeModule["deserializeProperties"] & { keepsSecretMarkers?: true };

/** @pulumi/policy's deserialisation module (internal, no typings; its server calls through it). */
export function policyDeserializeModule(): DeserializeModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal module of @pulumi/policy without typings
  return require("@pulumi/policy/deserialize") as DeserializeModule;
}

/** The sentinel strings @pulumi/policy uses for unknown values (internal, no typings). */
export function unknownSentinels(): Set<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal module of @pulumi/policy without typings
  const proxy = require("@pulumi/policy/proxy") as Record<string, unknown>;
  const names = [
    "unknownBooleanValue",
    "unknownNumberValue",
    "unknownStringValue",
    "unknownArrayValue",
    "unknownAssetValue",
    "unknownArchiveValue",
    "unknownObjectValue",
  ];
  const values = names.map((n) => proxy[n]);
  if (values.some((v) => typeof v !== "string")) {
    throw new Error(
      "iko-plus policy pack: @pulumi/policy/proxy no longer exports the unknown-value sentinels; update policy/sdk.ts",
    );
  }
  return new Set(values as string[]);
}

/** Makes @pulumi/policy keep secret markers for validations (idempotent). */
export function keepSecretMarkers(mod: DeserializeModule = policyDeserializeModule()): void {
  const original = mod.deserializeProperties as Patched;
  if (typeof original !== "function") {
    throw new Error(
      "iko-plus policy pack: @pulumi/policy/deserialize has no deserializeProperties; " +
        "the no-plain-credentials rule cannot tell secret inputs apart; update policy/sdk.ts",
    );
  }
  if (original.keepsSecretMarkers) return;
  const patched: Patched = (props: unknown) => original.call(mod, props, true);
  patched.keepsSecretMarkers = true;
  mod.deserializeProperties = patched;
}

const IS_PROXY = "__isSpecialProxy";
const PROXY_TARGET = "__getSpecialProxyTarget";

/** The raw object behind @pulumi/policy's (nested) proxies. */
function unproxy(v: unknown): unknown {
  let cur = v;
  while (typeof cur === "object" && cur !== null && (cur as Record<string, unknown>)[IS_PROXY] === true) {
    cur = (cur as Record<string, unknown>)[PROXY_TARGET];
  }
  return cur;
}

let sentinels: Set<string> | undefined;

/** One raw value as a PolicyValue. Assets and archives (not used by these rules) become null. */
export function toPolicyValue(raw: unknown, unknowns: Set<string> = (sentinels ??= unknownSentinels())): PolicyValue {
  const v = unproxy(raw);
  if (v instanceof Secret) return new SecretValue(toPolicyValue(v.value, unknowns));
  if (typeof v === "string") return unknowns.has(v) ? UNKNOWN : v;
  if (typeof v === "number" || typeof v === "boolean" || v === null) return v;
  if (Array.isArray(v)) return v.map((x) => toPolicyValue(x, unknowns));
  if (typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const out: PolicyObject = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x !== undefined) out[k] = toPolicyValue(x, unknowns);
    }
    return out;
  }
  return null;
}

/** The props a policy was handed, as plain PolicyValues. */
export function policyProps(props: unknown): PolicyObject {
  const v = toPolicyValue(props);
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof SecretValue)
    ? (v as PolicyObject)
    : {};
}

/** What the rules need of a resource a policy was handed (validateResource args or a stack resource). */
export function policyResource(r: {
  type: string;
  name: string;
  urn: string;
  props: unknown;
  provider?: { urn: string };
  opts?: { protect?: boolean };
}): PolicyResource {
  return {
    type: r.type,
    name: r.name,
    urn: r.urn,
    provider: r.provider?.urn,
    props: policyProps(r.props),
    ...(r.opts?.protect !== undefined ? { protect: r.opts.protect } : {}),
  };
}
