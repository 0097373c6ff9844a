/**
 * Edges: the PR preview summary (preview/summary.ts, rendered by preview/markdown.ts) and the
 * policy pack's credential rule (policy/rules/credentials.ts). Fed by the one list of secrets
 * (components/names/secrets.ts): each entry's sentinel, in a value shaped as the real thing, is
 * put where a resource property can hold it. The summary masks it by Pulumi's secret flag and by
 * name; the rule flags it in plain text and stays silent once it is a secret; no text shows it.
 */
import * as assert from "assert";
import { SECRETS, SecretEntry } from "../../components/names/secrets";
import { renderMarkdown } from "../../preview/markdown";
import { PreviewJson, SECRET_SIG, StepJson, summarizeStack } from "../../preview/summary";
import { plainCredentials } from "../../policy/rules/credentials";
import { PolicyObject, PolicyResource, SecretValue } from "../../policy/rules/values";
import { sampleOf, sentinelOf, shownSentinels } from "./secret-sentinels";

/** Pulumi's serialized secret: the signature and the plaintext value. */
const secretOf = (value: unknown) => ({ [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", value });

/**
 * The property name an entry's value goes under, and the resource type: a Secret's field for
 * `secret data`; the name itself for `name`; the last segment of a key, arg or output; for a
 * `config ref`, the conventional field of what the named key holds (`kubeconfig`, `iris.key`...).
 */
function placed(e: SecretEntry): { type: string; path: string[] } {
  if (e.place === "secret data") return { type: "kubernetes:core/v1:Secret", path: [e.path, "anything"] };
  if (e.place === "config ref") {
    const field = { kubeconfig: "kubeconfig", "license key": "iris.key", "private key": "tls.key" }[
      e.holds as "kubeconfig" | "license key" | "private key"
    ];
    return { type: "kubernetes:core/v1:Secret", path: ["stringData", field ?? "password"] };
  }
  const last = e.path.split(".").pop() as string;
  return { type: e.place === "output" ? "pulumi:pulumi:Stack" : "kubernetes:core/v1:ConfigMap", path: ["data", last] };
}

/** Props holding `value` at `path`. */
function propsAt(path: string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((v, k) => ({ [k]: v }), value) as Record<string, unknown>;
}

function preview(type: string, steps: Omit<StepJson, "urn">[]): PreviewJson {
  return { steps: steps.map((s, i) => ({ ...s, urn: `urn:pulumi:s::p::${type}::r${i}` })) };
}

/** The summary's JSON and its Markdown, where the sentinel must not show. */
function rendered(p: PreviewJson): { text: string; secretPaths: boolean[] } {
  const s = summarizeStack("dev", p);
  return {
    text: `${JSON.stringify(s)}\n${renderMarkdown([s])}`,
    secretPaths: s.resources.flatMap((r) => r.properties.map((x) => x.secret)),
  };
}

describe("unit (pure): the PR preview summary never shows a secret of the list", () => {
  for (const e of SECRETS) {
    const { type, path } = placed(e);
    const v = sampleOf(e);

    it(`unit (pure): ${e.place} ${e.path}: masked by Pulumi's secret flag, under any name`, () => {
      const neutral = ["spec", "note"];
      const old = { type: "kubernetes:apps/v1:Deployment", inputs: propsAt(neutral, "was") };
      const now = { type: "kubernetes:apps/v1:Deployment", inputs: propsAt(neutral, secretOf(v)) };
      // With the engine's detailedDiff, and without it (a dynamic provider: inputs compared).
      for (const p of [
        preview("kubernetes:apps/v1:Deployment", [
          { op: "update", oldState: old, newState: now, detailedDiff: { "spec.note": { kind: "update" } } },
        ]),
        preview("kubernetes:apps/v1:Deployment", [{ op: "update", oldState: old, newState: now }]),
        preview("kubernetes:apps/v1:Deployment", [
          { op: "update", oldState: now, newState: old, detailedDiff: { "spec.note": { kind: "update" } } },
        ]),
      ]) {
        const r = rendered(p);
        assert.deepStrictEqual(shownSentinels(r.text), [], r.text);
        assert.deepStrictEqual(r.secretPaths, [true]);
      }
    });

    if (e.place === "component arg") continue; // A component's args are no resource property.
    it(`unit (pure): ${e.place} ${e.path}: masked by name (${type} ${path.join(".")}) without the secret flag`, () => {
      const p = preview(type, [
        {
          op: "update",
          oldState: { type, inputs: propsAt(path, "old-value-SNTLold") },
          newState: { type, inputs: propsAt(path, typeof v === "string" ? v : JSON.stringify(v)) },
          detailedDiff: { [path.join(".")]: { kind: "update" } },
        },
      ]);
      const r = rendered(p);
      assert.deepStrictEqual(shownSentinels(r.text), [], r.text);
      assert.ok(!r.text.includes("SNTLold"), r.text);
      assert.deepStrictEqual(r.secretPaths, [true]);
    });
  }
});

const res = (type: string, props: PolicyObject): PolicyResource => ({ type, name: "r", urn: "urn:r", props });

describe("unit (pure): the policy pack's credential rule flags every secret of the list in plain text, never quoting it", () => {
  for (const e of SECRETS) {
    const { type, path } = placed(e);
    const v = sampleOf(e);
    const s = sentinelOf(e);
    // A Secret's data under an entry's name (a ConfigMap's for `name` entries, judged by name too).
    const ruleType = type === "pulumi:pulumi:Stack" ? "kubernetes:core/v1:Secret" : type;

    it(`unit (pure): ${e.place} ${e.path}: flagged plain in ${ruleType} ${path.join(".")}, silent as a secret`, () => {
      const plain = propsAt(path, v) as PolicyObject;
      const found = plainCredentials(res(ruleType, plain));
      assert.ok(found.length >= 1, `no finding for ${JSON.stringify(plain)}`);
      for (const f of found) assert.ok(!f.includes(s), f);
      assert.deepStrictEqual(
        plainCredentials(res(ruleType, propsAt(path, new SecretValue(v as string)) as PolicyObject)),
        [],
      );
      // The whole field a secret (as `stringData: pulumi.secret({...})`).
      const whole = { [path[0]]: new SecretValue(propsAt(path.slice(1), v) as PolicyObject) };
      assert.deepStrictEqual(plainCredentials(res(ruleType, whole)), []);
    });
  }
});
