/**
 * Unit (real schemas): every Karmada object the pure builders return validates against the CRDs
 * of every supported Karmada version, v1.18.2 (the default) and v1.16.0 (the upgrade source)
 * (test/fixtures/karmada-crds/<version>, copied from the Go modules), with every object
 * schema closed to unknown fields: the API server prunes a misspelt field silently, so a field
 * the CRD does not know is a bug here.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import Ajv from "ajv";
import * as YAML from "yaml";
import { Manifest } from "../../components/cluster";
import {
  irisClusterInterpreter,
  notReadyTaintPolicy,
  overridePolicy,
  propagationPolicy,
  KARMADA_CHART_VERSION,
  KARMADA_SUPPORTED_CHART_VERSIONS,
} from "../../components/karmada";

const CRDS_ROOT = path.resolve(__dirname, "../fixtures/karmada-crds");

type Schema = Record<string, unknown>;

/** A copy of `s` in which every object schema with properties refuses other fields. */
function closedSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(closedSchema);
  if (typeof s !== "object" || s === null) return s;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s))
    out[k] = k === "properties" ? mapValues(v as Schema, closedSchema) : closedSchema(v);
  if (
    out.type === "object" &&
    out.properties !== undefined &&
    out.additionalProperties === undefined &&
    out["x-kubernetes-preserve-unknown-fields"] !== true
  ) {
    out.additionalProperties = false;
  }
  return out;
}

function mapValues(o: Schema, f: (v: unknown) => unknown): Schema {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}

/** The v1alpha1 schema of the CRD file for `kind` in `CRDS`, closed. */
function validatorFor(CRDS: string, kind: string): (m: unknown) => string[] {
  const file = fs.readdirSync(CRDS).find((f) => {
    if (!f.endsWith(".yaml")) return false;
    const crd = YAML.parse(fs.readFileSync(path.join(CRDS, f), "utf8")) as { spec: { names: { kind: string } } };
    return crd.spec.names.kind === kind;
  });
  assert.ok(file, `a CRD for ${kind} in ${CRDS}`);
  const crd = YAML.parse(fs.readFileSync(path.join(CRDS, file), "utf8")) as {
    spec: { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
  };
  const version = crd.spec.versions.find((v) => v.name === "v1alpha1");
  assert.ok(version, `${kind} serves v1alpha1`);
  const ajv = new Ajv({ allErrors: true });
  // Kubernetes' integer formats, as the API server reads them.
  ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  const validate = ajv.compile(closedSchema(version.schema.openAPIV3Schema) as object);
  return (m) =>
    validate(m) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message} ${JSON.stringify(e.params)}`);
}

const targets = {
  names: { clusterNames: ["ikoclone", "ikogke"] },
  labels: {
    labels: { tier: "prod" },
    matchExpressions: [
      { key: "zone", operator: "In" as const, values: ["a", "b"] },
      { key: "edge", operator: "DoesNotExist" as const },
    ],
  },
  regions: { regions: ["us-central1"] },
};
const iris = { apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster", name: "mirror" };

const CASES: [string, Manifest][] = [
  [
    "PropagationPolicy by cluster names",
    propagationPolicy({ name: "p1", namespace: "iris", resourceSelectors: [iris], placement: targets.names }),
  ],
  [
    "PropagationPolicy by labels and expressions, with dependencies and Overwrite",
    propagationPolicy({
      name: "p2",
      namespace: "iris",
      resourceSelectors: [iris, { apiVersion: "v1", kind: "Secret", name: "iris-key" }],
      placement: targets.labels,
      propagateDeps: true,
      conflictResolution: "Overwrite",
    }),
  ],
  [
    "PropagationPolicy by region with spread constraints",
    propagationPolicy({
      name: "p3",
      namespace: "iris",
      resourceSelectors: [iris],
      placement: {
        ...targets.regions,
        spreadConstraints: [{ spreadByField: "region", maxGroups: 2, minGroups: 1 }, { spreadByField: "cluster" }],
      },
    }),
  ],
  [
    "PropagationPolicy with ordered affinities and both failovers",
    propagationPolicy({
      name: "p4",
      namespace: "iris",
      resourceSelectors: [iris],
      placement: {
        affinities: [
          { name: "primary", clusterNames: ["ikoclone"] },
          { name: "backup", labels: { dr: "true" } },
        ],
      },
      failover: { application: { tolerationSeconds: 60 }, cluster: { purgeMode: "Directly" } },
    }),
  ],
  [
    "PropagationPolicy with application failover, purge Directly",
    propagationPolicy({
      name: "p5",
      namespace: "iris",
      resourceSelectors: [iris],
      placement: targets.names,
      failover: { application: { purgeMode: "Directly" }, cluster: {} },
    }),
  ],
  [
    "OverridePolicy with add, replace and remove",
    overridePolicy({
      name: "o1",
      namespace: "iris",
      resourceSelectors: [iris],
      target: targets.labels,
      plaintext: [
        { path: "/spec/storageClassName", operator: "add", value: "fast" },
        { path: "/spec/topology/data/image", operator: "replace", value: "r/iris:1" },
        { path: "/spec/x", operator: "remove" },
      ],
    }),
  ],
  ["ClusterTaintPolicy for every cluster", notReadyTaintPolicy({ name: "not-ready" })],
  ["ClusterTaintPolicy for named clusters", notReadyTaintPolicy({ name: "not-ready-some", target: targets.names })],
  ["ResourceInterpreterCustomization for IrisClusters", irisClusterInterpreter()],
];

it("has the CRDs of every supported version, the default among them", () => {
  assert.deepStrictEqual(
    fs
      .readdirSync(CRDS_ROOT)
      .filter((f) => f.startsWith("v"))
      .sort(),
    [...KARMADA_SUPPORTED_CHART_VERSIONS],
  );
  assert.ok((KARMADA_SUPPORTED_CHART_VERSIONS as readonly string[]).includes(KARMADA_CHART_VERSION));
});

for (const karmadaVersion of KARMADA_SUPPORTED_CHART_VERSIONS) {
  const CRDS = path.join(CRDS_ROOT, karmadaVersion);
  describe(`Karmada objects against the real ${karmadaVersion} CRDs (unit, real schemas)`, () => {
    const validators = new Map<string, (m: unknown) => string[]>();
    const validate = (m: Manifest) => {
      if (!validators.has(m.kind)) validators.set(m.kind, validatorFor(CRDS, m.kind));
      return (validators.get(m.kind) as (m: unknown) => string[])(m);
    };

    for (const [title, manifest] of CASES) {
      it(`${title}: valid, no field the CRD does not know`, () => {
        assert.deepStrictEqual(validate(manifest), []);
      });
    }

    it("(control) a misspelt field, a wrong enum and a missing required field are refused", () => {
      const good = propagationPolicy({
        name: "p",
        namespace: "iris",
        resourceSelectors: [iris],
        placement: targets.names,
      });
      const misspelt = JSON.parse(JSON.stringify(good)) as { spec: { placement: Record<string, unknown> } };
      misspelt.spec.placement.clusterAfinity = misspelt.spec.placement.clusterAffinity;
      delete misspelt.spec.placement.clusterAffinity;
      assert.match(
        validate(misspelt as unknown as Manifest).join("\n"),
        /should NOT have additional properties.*clusterAfinity/,
      );
      const badEnum = JSON.parse(JSON.stringify(good)) as { spec: Record<string, unknown> };
      badEnum.spec.conflictResolution = "Replace";
      assert.match(
        validate(badEnum as unknown as Manifest).join("\n"),
        /conflictResolution should be equal to one of the allowed values/,
      );
      const noSelectors = JSON.parse(JSON.stringify(good)) as { spec: Record<string, unknown> };
      delete noSelectors.spec.resourceSelectors;
      assert.match(
        validate(noSelectors as unknown as Manifest).join("\n"),
        /should have required property 'resourceSelectors'/,
      );
    });

    it("closedSchema closes object schemas with properties, and only those", () => {
      assert.deepStrictEqual(
        closedSchema({
          type: "object",
          properties: {
            a: { type: "object", properties: { b: { type: "string" } } },
            c: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: {} },
          },
        }),
        {
          type: "object",
          additionalProperties: false,
          properties: {
            a: { type: "object", additionalProperties: false, properties: { b: { type: "string" } } },
            c: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: {} },
          },
        },
      );
      assert.deepStrictEqual(closedSchema({ type: "object", additionalProperties: { type: "string" } }), {
        type: "object",
        additionalProperties: { type: "string" },
      });
    });
  });
}
