/**
 * The policy pack's bridge to @pulumi/policy 1.21 (policy/sdk.ts), run through the SDK's own
 * analyzer RPC handler with a request shaped as the engine sends it: secrets keep their marker,
 * unknowns become UNKNOWN, and nothing throws "can't run during preview".
 */
import * as assert from "assert";
import { PolicyResource, SecretValue, UNKNOWN } from "../../policy/rules/values";
import { keepSecretMarkers, policyResource, unknownSentinels } from "../../policy/sdk";

/* eslint-disable @typescript-eslint/no-require-imports -- internal modules of @pulumi/policy and protobuf classes without typings here */
const server = require("@pulumi/policy/server") as {
  makeAnalyzeRpcFun: (
    name: string,
    version: string,
    level: string,
    policies: unknown[],
  ) => (call: unknown, cb: (err: unknown, res: unknown) => void) => Promise<void>;
};
const analyzerProto = require("@pulumi/pulumi/proto/analyzer_pb") as Record<
  string,
  new () => Record<string, (...a: unknown[]) => unknown>
>;
const { Struct } = require("google-protobuf/google/protobuf/struct_pb") as {
  Struct: { fromJavaScript(v: unknown): unknown };
};
/* eslint-enable @typescript-eslint/no-require-imports */

const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const UNKNOWN_STRING = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Runs one resource through the SDK's Analyze handler with one policy; returns what the policy saw. */
async function analyze(
  props: Record<string, unknown>,
  protect = false,
): Promise<{ seen: PolicyResource; sdkRead: unknown; diagnostics: number }> {
  let seen: PolicyResource | undefined;
  let sdkRead: unknown;
  const policy = {
    name: "probe",
    description: "probe",
    enforcementLevel: "mandatory",
    validateResource: (args: {
      type: string;
      name: string;
      urn: string;
      props: Record<string, unknown>;
      opts: { protect: boolean };
    }) => {
      seen = policyResource(args);
      sdkRead = (args.props.data as Record<string, unknown> | undefined)?.kubeconfig; // a plain read through the SDK's proxies
    },
  };
  const req = new analyzerProto.AnalyzeRequest();
  req.setType("kubernetes:core/v1:ConfigMap");
  req.setUrn("urn:pulumi:s::p::kubernetes:core/v1:ConfigMap::cm");
  req.setName("cm");
  req.setProperties(Struct.fromJavaScript(props));
  const options = new analyzerProto.AnalyzerResourceOptions();
  options.setProtect(protect);
  req.setOptions(options);
  const res = await new Promise<Record<string, (...a: unknown[]) => unknown>>((resolve, reject) => {
    void server.makeAnalyzeRpcFun("t", "1.0.0", "mandatory", [policy])({ request: req }, (err, r) =>
      err ? reject(err) : resolve(r as Record<string, (...a: unknown[]) => unknown>),
    );
  });
  assert.ok(seen, "the policy ran");
  return { seen, sdkRead, diagnostics: (res.getDiagnosticsList() as unknown[]).length };
}

describe("policy pack: @pulumi/policy bridge (policy/sdk.ts)", () => {
  it("keepSecretMarkers makes deserialisation keep secrets, once, and fails loudly on another SDK shape", () => {
    const calls: boolean[] = [];
    const mod = {
      deserializeProperties: (_p: unknown, proxySecrets: boolean) => {
        calls.push(proxySecrets);
        return {};
      },
    };
    keepSecretMarkers(mod);
    const patched = mod.deserializeProperties;
    keepSecretMarkers(mod);
    assert.strictEqual(mod.deserializeProperties, patched, "idempotent");
    mod.deserializeProperties({}, false);
    assert.deepStrictEqual(calls, [true]);
    assert.throws(
      () => keepSecretMarkers({} as never),
      /no deserializeProperties; the no-plain-credentials rule cannot tell secret inputs apart/,
    );
  });

  it("reads @pulumi/policy's unknown sentinels", () => {
    assert.ok(unknownSentinels().has(UNKNOWN_STRING));
    assert.strictEqual(unknownSentinels().size, 7);
  });

  it("through the SDK's Analyze handler: secrets keep their marker, unknowns become UNKNOWN, plain reads still work", async () => {
    keepSecretMarkers();
    const { seen, sdkRead, diagnostics } = await analyze({
      metadata: { name: "cm", uid: UNKNOWN_STRING },
      data: {
        kubeconfig: { ...SECRET_SIG, value: "apiVersion: v1" },
        note: "plain",
        list: [{ ...SECRET_SIG, value: { a: 1 } }],
      },
    });
    assert.deepStrictEqual(seen, {
      type: "kubernetes:core/v1:ConfigMap",
      name: "cm",
      urn: "urn:pulumi:s::p::kubernetes:core/v1:ConfigMap::cm",
      provider: undefined,
      protect: false,
      props: {
        metadata: { name: "cm", uid: UNKNOWN },
        data: { kubeconfig: new SecretValue("apiVersion: v1"), note: "plain", list: [new SecretValue({ a: 1 })] },
      },
    });
    assert.strictEqual(sdkRead, "apiVersion: v1", "other policies still read secrets as plain values");
    assert.strictEqual(diagnostics, 0, 'no "can\'t run during preview" advisory for the unknown uid');
  });

  it("through the SDK's Analyze handler: the resource's protect option reaches the rules", async () => {
    assert.strictEqual((await analyze({}, true)).seen.protect, true);
    assert.strictEqual((await analyze({}, false)).seen.protect, false);
  });
});
