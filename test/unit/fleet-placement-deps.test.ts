/**
 * A federated object waits only for the joins its placement can select, so a member that is down
 * holds back nothing placed elsewhere (issue 6: the other members converge).
 */
import * as assert from "assert";
import * as path from "path";
import {
  LabelExpression,
  PlaceableMember,
  expressionMatches,
  selectableMembers,
  targetSelects,
} from "../../components/karmada";
import { Registered, fakeKubeconfigFiles, installMocks } from "./mocks";

const registered: Registered[] = installMocks();

const MEMBERS: PlaceableMember[] = [
  { name: "ikoclone", labels: { role: "clone" }, region: "local" },
  { name: "ikogke", labels: { role: "stretched" }, region: "us-central1" },
  { name: "ikowork", region: "europe-west1" },
];

describe("placements select members", () => {
  it("by name, by labels and by region, every filter of a target at once (as Karmada ANDs them)", () => {
    assert.deepStrictEqual(selectableMembers({ clusterNames: ["ikogke"] }, MEMBERS), ["ikogke"]);
    assert.deepStrictEqual(selectableMembers({ labels: { role: "clone" } }, MEMBERS), ["ikoclone"]);
    assert.deepStrictEqual(selectableMembers({ regions: ["us-central1", "europe-west1"] }, MEMBERS), [
      "ikogke",
      "ikowork",
    ]);
    assert.deepStrictEqual(
      selectableMembers({ clusterNames: ["ikoclone", "ikogke"], labels: { role: "stretched" } }, MEMBERS),
      ["ikogke"],
    );
    assert.strictEqual(targetSelects({ labels: { role: "clone" } }, { name: "x" }), false, "a member without labels");
  });
  it("unit: by label expressions, Kubernetes' semantics (NotIn and DoesNotExist hold where the key is absent), ANDed with labels", () => {
    const members: PlaceableMember[] = [
      { name: "a", labels: { region: "a", tier: "gold" } },
      { name: "b", labels: { region: "b" } },
      { name: "c", labels: { region: "c", dr: "" } },
      { name: "none" },
    ];
    const sel = (matchExpressions: LabelExpression[], labels?: Record<string, string>) =>
      selectableMembers({ matchExpressions, labels }, members);
    assert.deepStrictEqual(sel([{ key: "region", operator: "In", values: ["a", "c"] }]), ["a", "c"]);
    assert.deepStrictEqual(sel([{ key: "region", operator: "NotIn", values: ["a", "c"] }]), ["b", "none"]);
    assert.deepStrictEqual(sel([{ key: "dr", operator: "Exists" }]), ["c"]);
    assert.deepStrictEqual(sel([{ key: "tier", operator: "DoesNotExist" }]), ["b", "c", "none"]);
    assert.deepStrictEqual(
      sel([
        { key: "region", operator: "In", values: ["a", "c"] },
        { key: "dr", operator: "DoesNotExist" },
      ]),
      ["a"],
    );
    assert.deepStrictEqual(sel([{ key: "region", operator: "In", values: ["a", "c"] }], { tier: "gold" }), ["a"]);
    assert.strictEqual(
      expressionMatches({ key: "toString", operator: "Exists" }, {}),
      false,
      "inherited object keys are not labels",
    );
  });
  it("ordered affinities select what any group selects", () => {
    assert.deepStrictEqual(
      selectableMembers(
        {
          affinities: [
            { name: "primary", regions: ["us-central1"] },
            { name: "dr", clusterNames: ["ikowork"] },
          ],
        },
        MEMBERS,
      ),
      ["ikogke", "ikowork"],
    );
  });
});

describe("fleet stack: federated objects wait only for the joins they can use", () => {
  it("unit (mocks): an IrisCluster placed on ikoclone does not wait for ikogke's join, one placed by matchExpressions on ikogke not for ikoclone's; a fleet Secret for ikogke does not wait for ikoclone's", async () => {
    const { validateConfig, fleetStack } = await import("../../stacks");
    const kc = fakeKubeconfigFiles("iko-deps-");
    const cfg = validateConfig(
      {
        program: "fleet",
        clusters: [
          { name: "ikoclone", kubeconfigPath: kc("ikoclone"), iko: false, join: { labels: { role: "clone" } } },
          { name: "ikogke", kubeconfigPath: kc("ikogke"), iko: false, join: { labels: { role: "stretched" } } },
        ],
        karmada: { mode: "existing", kubeconfigPath: kc("karmada") },
        iko: {
          chartPath: path.resolve(__dirname, "../fixtures/iko-chart/iris-operator"),
          crdManifestPath: path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml"),
        },
        federatedIrisClusters: [
          {
            name: "iris-a",
            image: "containers.intersystems.com/intersystems/iris-community:2025.1",
            placement: { labels: { role: "clone" } },
          },
          {
            name: "iris-b",
            image: "containers.intersystems.com/intersystems/iris-community:2025.1",
            placement: { matchExpressions: [{ key: "role", operator: "In", values: ["stretched", "edge"] }] },
          },
        ],
        fleetSecrets: [{ name: "s", dataKey: "sData", clusterNames: ["ikogke"] }],
        sData: { password: "p" },
      },
      ["iko-plus:sData"],
    );
    if (cfg.program !== "fleet") throw new Error("fleet");
    const n = registered.length;
    fleetStack(cfg, { secrets: {}, secretObjects: { sData: { apply: () => undefined } as never } });
    await new Promise((r) => setTimeout(r, 500));
    const mine = registered.slice(n);
    const deps = (type: string, name: string) => {
      const r = mine.find((x) => x.type === type && x.name === name);
      assert.ok(r, `${name} registered`);
      return r.dependencies.map((d) => d.split("::").pop() as string);
    };
    const template = deps("kubernetes:intersystems.com/v1alpha1:IrisCluster", "default-iris-a-template");
    assert.ok(
      template.includes("ikoclone-member-cluster"),
      `the template waits for ikoclone's join: ${template.join(" ")}`,
    );
    assert.ok(!template.some((d) => d.startsWith("ikogke-")), `and for nothing of ikogke's: ${template.join(" ")}`);
    const byExpression = deps("kubernetes:intersystems.com/v1alpha1:IrisCluster", "default-iris-b-template");
    assert.ok(
      byExpression.includes("ikogke-member-cluster") && !byExpression.some((d) => d.startsWith("ikoclone-")),
      `an IrisCluster placed by matchExpressions (role In [stretched, edge]) waits for ikogke's join only: ${byExpression.join(" ")}`,
    );
    const secret = deps("kubernetes:core/v1:Secret", "default-s-secret");
    assert.ok(
      secret.includes("ikogke-member-cluster") && !secret.some((d) => d.startsWith("ikoclone-")),
      `the fleet Secret waits for ikogke's join only: ${secret.join(" ")}`,
    );
  });
});
