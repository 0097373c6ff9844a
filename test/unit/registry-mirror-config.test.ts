import * as assert from "assert";
import * as path from "path";
import { validateWfhConfig } from "../../stacks";
import { problemsOf } from "./config-problems";
import { definedOutputs } from "../../stacks/program";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const base = (extra: Record<string, unknown>) => ({
  program: "wfh",
  iko: { chartPath: CHART, crdManifestPath: CRD },
  ...extra,
});

describe("registryMirror config (unit)", () => {
  it("is read into the stack config; leaving it out means no mirror", () => {
    assert.deepStrictEqual(
      validateWfhConfig(
        base({ registryMirror: { endpoint: "http://iko-plus-registry:5000", registries: ["docker.io"] } }),
      ).registryMirror,
      { endpoint: "http://iko-plus-registry:5000", registries: ["docker.io"] },
    );
    assert.strictEqual(validateWfhConfig(base({})).registryMirror, undefined);
  });

  it("reports KindCluster's own mirror rules under the config key, one line each", () => {
    assert.deepStrictEqual(
      problemsOf(
        base({
          registryMirror: { endpoint: "iko-plus-registry:5000", registries: ["docker.io", "docker.io"], mirror: true },
        }),
      ),
      [
        "iko-plus:registryMirror.mirror: true is not a known key; use one of: endpoint, registries",
        'iko-plus:registryMirror.endpoint: "iko-plus-registry:5000" is not an http:// or https:// address with a host and an optional port and no path; use e.g. "http://iko-plus-registry:5000"',
        'iko-plus:registryMirror.registries: "docker.io" is listed twice; list each registry once',
      ],
    );
    assert.deepStrictEqual(problemsOf(base({ registryMirror: {} })), [
      "iko-plus:registryMirror.endpoint: (not set) is required; set the mirror as kind nodes reach it, e.g. http://iko-plus-registry:5000",
    ]);
    assert.deepStrictEqual(
      problemsOf(base({ registryMirror: { endpoint: "http://r:5000", registries: "docker.io" } })),
      [
        'iko-plus:registryMirror.registries: "docker.io" must be a list of registry host names, e.g. [docker.io, quay.io]',
      ],
    );
  });

  it("definedOutputs keeps only the outputs the program made (no 'Undefined value' warnings)", () => {
    assert.deepStrictEqual(
      definedOutputs({
        program: "wfh",
        homeKubeconfig: "k",
        karmadaKubeconfig: undefined,
        fleetTls: undefined,
        irisClusters: [],
      }),
      { program: "wfh", homeKubeconfig: "k", irisClusters: [] },
    );
  });
});
