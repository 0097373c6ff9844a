/**
 * The IrisCluster ResourceInterpreterCustomization's Lua, run offline by the lab's karmadactl
 * (`karmadactl interpret`) on real inputs: the same Lua engine the Karmada controllers use.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { irisClusterInterpreter } from "../../components/karmada";
import { labBinDir } from "./pulumi-cli";

const IRIS = {
  apiVersion: "intersystems.com/v1alpha1",
  kind: "IrisCluster",
  metadata: { name: "federated-iris", namespace: "iris" },
  spec: {
    licenseKeySecret: { name: "iris-key" },
    configSource: { name: "iris-cpf" },
    imagePullSecrets: [{ name: "pull" }, { name: "iris-key" }],
    tls: { common: { secret: { secretName: "iris-tls" } }, mirror: { secret: { secretName: "iris-tls" } } },
    topology: { data: { image: "containers.intersystems.com/intersystems/iris-community:2025.1" } },
  },
};

describe("lab: IrisCluster interpreter Lua under karmadactl interpret", () => {
  let dir: string;
  const write = (name: string, obj: unknown, multi = false) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, multi ? (obj as unknown[]).map((o) => YAML.stringify(o)).join("---\n") : YAML.stringify(obj));
    return file;
  };
  /** Runs one operation and returns the YAML document it prints. */
  const interpret = (operation: string, args: Record<string, string>): unknown => {
    const flags = Object.entries(args).flatMap(([k, v]) => [`--${k}`, v]);
    const out = child.execFileSync(path.join(labBinDir(), "karmadactl"), ["interpret", "-f", path.join(dir, "customization.yaml"), "--operation", operation, ...flags], { encoding: "utf8" });
    const body = out.split("\n").filter((l) => !l.startsWith("---") && !l.startsWith("#")).join("\n");
    return YAML.parse(body);
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-lua-"));
    write("customization.yaml", irisClusterInterpreter());
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("passes karmadactl's schema and syntax check", () => {
    const out = child.execFileSync(path.join(labBinDir(), "karmadactl"), ["interpret", "-f", path.join(dir, "customization.yaml"), "--check"], { encoding: "utf8" });
    for (const rule of ["InterpretStatus", "AggregateStatus", "InterpretHealth", "InterpretDependency"]) {
      assert.match(out, new RegExp(`${rule}:\\s+PASS`), out);
    }
  });

  it("reports health from the status the operator writes", () => {
    const health = (status: unknown) => interpret("interpretHealth", { "observed-file": write("observed.yaml", { ...IRIS, status }) });
    assert.strictEqual(health({ phase: "Running" }), true);
    assert.strictEqual(health(undefined), true, "not reconciled yet is not a failure");
    assert.strictEqual(health({ phase: "Failed" }), false);
    assert.strictEqual(health({ phase: "degraded" }), false);
    assert.strictEqual(health({ phase: "Running", conditions: [{ type: "Ready", status: "False" }] }), false);
  });

  it("lists the Secrets and ConfigMaps an IrisCluster references, once each", () => {
    const deps = interpret("interpretDependency", { "observed-file": write("observed.yaml", IRIS) }) as { kind: string; name: string; namespace: string }[];
    const got = deps.map((d) => `${d.kind}/${d.namespace}/${d.name}`).sort();
    assert.deepStrictEqual(got, ["ConfigMap/iris/iris-cpf", "Secret/iris/iris-key", "Secret/iris/iris-tls", "Secret/iris/pull"]);
    const none = interpret("interpretDependency", { "observed-file": write("observed.yaml", { ...IRIS, spec: { topology: IRIS.spec.topology } }) });
    assert.ok(none === null || (Array.isArray(none) && none.length === 0), `no dependencies: ${JSON.stringify(none)}`);
  });

  it("aggregates member statuses onto the template: the worst phase wins", () => {
    const agg = (phases: string[]) => interpret("aggregateStatus", {
      "observed-file": write("observed.yaml", IRIS),
      "status-file": write("status.yaml", phases.map((phase, i) => ({ clusterName: `m${i}`, applied: true, status: { phase } })), true),
    }) as { status: { phase: string; members: { clusterName: string; phase: string }[] } };
    const mixed = agg(["Running", "Failed"]);
    assert.strictEqual(mixed.status.phase, "Failed");
    assert.deepStrictEqual(mixed.status.members, [{ clusterName: "m0", phase: "Running" }, { clusterName: "m1", phase: "Failed" }]);
    assert.strictEqual(agg(["Running", "Running"]).status.phase, "Running");
    assert.strictEqual(agg(["Running", "Pending"]).status.phase, "Pending");
  });

  it("reflects the member's status as it is", () => {
    assert.deepStrictEqual(interpret("interpretStatus", { "observed-file": write("observed.yaml", { ...IRIS, status: { phase: "Running", shards: 1 } }) }), { phase: "Running", shards: 1 });
  });
});
