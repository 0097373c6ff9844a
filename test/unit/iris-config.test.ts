/** IrisCluster entries: impossible counts in a topology given through `spec` are config problems. */
import * as assert from "assert";
import { Reader, readIrisClusters } from "../../stacks/config";
import { Problems } from "../../stacks/problems";

const IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";

function problemsFor(topology: unknown): string[] {
  const problems = new Problems("iko-plus");
  readIrisClusters(new Reader(problems), [{ name: "iris-a", image: IMAGE, spec: { topology } }]);
  return problems.list;
}

describe("IrisCluster topology counts", () => {
  const cases: [string, unknown, string][] = [
    [
      "negative compute replicas",
      { data: { image: IMAGE }, compute: { image: IMAGE, replicas: -1 } },
      "iko-plus:irisClusters[0].spec.topology.compute.replicas: -1 must be a whole number from 0 to 100",
    ],
    [
      "fractional web gateway replicas",
      { data: { image: IMAGE }, webgateway: { image: IMAGE, replicas: 1.5 } },
      "iko-plus:irisClusters[0].spec.topology.webgateway.replicas: 1.5 must be a whole number from 0 to 100",
    ],
    [
      "zero data shards",
      { data: { image: IMAGE, shards: 0 } },
      "iko-plus:irisClusters[0].spec.topology.data.shards: 0 must be a whole number from 1 to 64",
    ],
    [
      "replicas as text",
      { data: { image: IMAGE }, compute: { image: IMAGE, replicas: "two" } },
      'iko-plus:irisClusters[0].spec.topology.compute.replicas: "two" must be a whole number from 0 to 100',
    ],
    [
      "a thousand compute replicas",
      { data: { image: IMAGE }, compute: { image: IMAGE, replicas: 1000 } },
      "iko-plus:irisClusters[0].spec.topology.compute.replicas: 1000 must be a whole number from 0 to 100",
    ],
  ];
  for (const [title, topology, expected] of cases) {
    it(`rejects ${title}`, () => assert.deepStrictEqual(problemsFor(topology), [expected]));
  }

  it("accepts possible counts at both ends of each range", () => {
    assert.deepStrictEqual(
      problemsFor({
        data: { image: IMAGE, shards: 1 },
        compute: { image: IMAGE, replicas: 0 },
        webgateway: { image: IMAGE, replicas: 100 },
      }),
      [],
    );
    assert.deepStrictEqual(
      problemsFor({ data: { image: IMAGE, shards: 64 }, compute: { image: IMAGE, replicas: 100 } }),
      [],
    );
  });
});
