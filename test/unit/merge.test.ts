// Unit (pure): the one deep merge (components/names/merge.ts) and its three users: the IKO Helm
// values' extraValues, the Cilium values' clusterMesh, and an IrisCluster's given spec.
import * as assert from "assert";
import * as pulumi from "@pulumi/pulumi";
import { ciliumValues } from "../../components/cilium";
import { ikoValues } from "../../components/iko";
import { irisClusterManifest } from "../../components/iris";
import { isPlainMapping, mergeOver } from "../../components/names";

describe("deep merge (components/names/merge.ts)", () => {
  it("merges mappings key by key and replaces lists, values and null, changing neither input", () => {
    const base = { a: { b: 1, c: [1, 2], d: { e: 1 } }, f: 1, g: { h: 1 } };
    const over = { a: { c: [3], d: { x: 2 } }, f: null, g: "flat", i: { j: 1 } };
    const [baseJson, overJson] = [JSON.stringify(base), JSON.stringify(over)];
    assert.deepStrictEqual(mergeOver(base, over), {
      a: { b: 1, c: [3], d: { e: 1, x: 2 } },
      f: null,
      g: "flat",
      i: { j: 1 },
    });
    assert.strictEqual(JSON.stringify(base), baseJson);
    assert.strictEqual(JSON.stringify(over), overJson);
  });

  it("descends only into object literals: not lists, Outputs or other class instances", () => {
    assert.strictEqual(isPlainMapping({ a: 1 }), true);
    assert.strictEqual(isPlainMapping(Object.create(null)), true);
    assert.strictEqual(isPlainMapping([1]), false);
    assert.strictEqual(isPlainMapping(null), false);
    assert.strictEqual(isPlainMapping("s"), false);
    assert.strictEqual(isPlainMapping(pulumi.output({ a: 1 })), false);
    assert.strictEqual(isPlainMapping(new Date(0)), false);
  });

  it("puts an Output given over a mapping in its place, whole (it is not merged as if its fields were values)", () => {
    const secretOperator = pulumi.secret({ registry: "r", repository: "p", tag: "t" });
    const merged = mergeOver({ operator: { tag: "old", pullPolicy: "IfNotPresent" } }, { operator: secretOperator });
    assert.strictEqual(merged.operator, secretOperator);
  });

  it("IKO values: an Output in extraValues replaces the generated mapping", () => {
    const operator = pulumi.output({ registry: "r", repository: "p", tag: "t" });
    const values = ikoValues({
      remote: false,
      image: { registry: "a", repository: "b", tag: "c" },
      extraValues: { operator },
    });
    assert.strictEqual(values.operator, operator);
  });

  it("Cilium values: an Output in clusterMesh replaces the generated mapping", () => {
    const apiserver = pulumi.output({ service: { type: "NodePort" } });
    const values = ciliumValues({ clusterName: "w", clusterId: 2, moduleImages: true, clusterMesh: { apiserver } });
    assert.strictEqual((values.clustermesh as Record<string, unknown>).apiserver, apiserver);
  });

  it("IrisCluster: an Output in the given spec replaces the generated data node", () => {
    const data = pulumi.output({ image: "x/iris-community:2025.2", shards: 2 });
    const m = irisClusterManifest({
      name: "i",
      namespace: "n",
      image: "x/iris-community:2025.2",
      spec: { topology: { data } },
    });
    assert.strictEqual(m.spec.topology.data, data);
  });
});
