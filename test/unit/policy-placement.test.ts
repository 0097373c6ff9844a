import * as assert from "assert";
import { placedClusterNames, unjoinedPlacements } from "../../policy/rules/placement";
import { PolicyResource, UNKNOWN } from "../../policy/rules/values";

const KARMADA = "urn:karmada";
const cluster = (name: string, provider = KARMADA, labels?: Record<string, string>): PolicyResource => ({
  type: "kubernetes:cluster.karmada.io/v1alpha1:Cluster",
  name: `${name}-cluster`,
  urn: `urn:c:${name}`,
  provider,
  props: { metadata: labels ? { name, labels } : { name } },
});
const policy = (kind: string, name: string, spec: PolicyResource["props"], provider = KARMADA): PolicyResource => ({
  type: `kubernetes:policy.karmada.io/v1alpha1:${kind}`,
  name,
  urn: `urn:p:${name}`,
  provider,
  props: { metadata: { name, namespace: "default" }, spec },
});

describe("policy placement-names-joined-clusters", () => {
  it("reads names from placements (affinity and ordered affinities) and overrides (rules and target)", () => {
    assert.deepStrictEqual(
      placedClusterNames(
        policy("PropagationPolicy", "p", {
          placement: {
            clusterAffinity: { clusterNames: ["a"] },
            clusterAffinities: [{ affinityName: "x", clusterNames: ["b", "c"] }],
          },
        }),
      ).map((n) => `${n.path}=${n.name}`),
      [
        "spec.placement.clusterAffinity.clusterNames[0]=a",
        "spec.placement.clusterAffinities[0].clusterNames[0]=b",
        "spec.placement.clusterAffinities[0].clusterNames[1]=c",
      ],
    );
    assert.deepStrictEqual(
      placedClusterNames(
        policy("ClusterOverridePolicy", "o", {
          targetCluster: { clusterNames: ["d"] },
          overrideRules: [{ targetCluster: { clusterNames: ["e"] } }, { targetCluster: { labelSelector: {} } }],
        }),
      ).map((n) => `${n.path}=${n.name}`),
      ["spec.targetCluster.clusterNames[0]=d", "spec.overrideRules[0].targetCluster.clusterNames[0]=e"],
    );
    assert.deepStrictEqual(placedClusterNames(cluster("a")), []);
  });
  it("fires on each name not joined in the stack, naming the joined ones", () => {
    assert.deepStrictEqual(
      unjoinedPlacements([
        cluster("ikoclone"),
        cluster("ikogke"),
        policy("ClusterPropagationPolicy", "p", {
          placement: { clusterAffinity: { clusterNames: ["ikoclone", "ikoghost"] } },
        }),
      ]),
      [
        {
          urn: "urn:p:p",
          message:
            'kubernetes:policy.karmada.io/v1alpha1:ClusterPropagationPolicy "p" (default/p): spec.placement.clusterAffinity.clusterNames[1] is "ikoghost", which is not a Karmada Cluster joined in this stack through the same Karmada (joined: ikoclone, ikogke); join that cluster in this stack (clusters[].join) or remove the name',
        },
      ],
    );
  });
  it("says so when no Cluster is joined, and counts only Clusters of the same Karmada", () => {
    const p = policy("OverridePolicy", "o", { overrideRules: [{ targetCluster: { clusterNames: ["ikoclone"] } }] });
    const message =
      'kubernetes:policy.karmada.io/v1alpha1:OverridePolicy "o" (default/o): spec.overrideRules[0].targetCluster.clusterNames[0] is "ikoclone", which is not a Karmada Cluster joined in this stack through the same Karmada (no Cluster is joined in this stack); join that cluster in this stack (clusters[].join) or remove the name';
    assert.deepStrictEqual(unjoinedPlacements([p]), [{ urn: "urn:p:o", message }]);
    assert.deepStrictEqual(unjoinedPlacements([cluster("ikoclone", "urn:other-karmada"), p]), [
      { urn: "urn:p:o", message },
    ]);
    assert.deepStrictEqual(unjoinedPlacements([cluster("ikoclone"), p]), []);
  });
  it("unit: judges label selectors with the stack's own logic: set-based values, bad expressions, and selectors that select no joined Cluster", () => {
    const head = 'kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy "p" (default/p): ';
    const clusters = [
      cluster("ikoclone", KARMADA, { region: "a" }),
      cluster("ikogke", KARMADA, { region: "b", dr: "" }),
    ];
    const pp = (clusterAffinity: PolicyResource["props"]) =>
      unjoinedPlacements([...clusters, policy("PropagationPolicy", "p", { placement: { clusterAffinity } })]).map(
        (f) => f.message,
      );
    assert.deepStrictEqual(pp({ labelSelector: { matchLabels: { region: "in (a,c)" } } }), [
      `${head}spec.placement.clusterAffinity.labelSelector.matchLabels.region is "in (a,c)", which is a set-based selector written as a label value, which selects nothing; write it as matchExpressions: [{key: region, operator: In, values: [a, c]}]`,
    ]);
    assert.deepStrictEqual(
      pp({
        labelSelector: {
          matchExpressions: [
            { key: "region", operator: "in", values: ["a"] },
            { key: "dr", operator: "Exists", values: ["x"] },
          ],
        },
      }),
      [
        `${head}spec.placement.clusterAffinity.labelSelector.matchExpressions[0].operator is "in", which is not allowed; use one of: In, NotIn, Exists, DoesNotExist`,
        `${head}spec.placement.clusterAffinity.labelSelector.matchExpressions[1].values is ["x"], which must be left out with operator Exists, which tests only whether the key is set`,
      ],
    );
    assert.deepStrictEqual(
      pp({ labelSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["a", "c"] }] } }),
      [],
      "region In [a, c] selects ikoclone",
    );
    assert.deepStrictEqual(
      pp({ labelSelector: { matchLabels: { region: "b" }, matchExpressions: [{ key: "dr", operator: "Exists" }] } }),
      [],
      "region=b and dr selects ikogke",
    );
    assert.deepStrictEqual(
      pp({
        clusterNames: ["ikoclone"],
        labelSelector: { matchExpressions: [{ key: "region", operator: "NotIn", values: ["a"] }] },
      }),
      [
        `${head}spec.placement.clusterAffinity selects no Karmada Cluster joined in this stack through the same Karmada (joined: ikoclone {region=a}; ikogke {region=b, dr=}), so it places nothing; fix its labelSelector (matchLabels, matchExpressions) or join a cluster with those labels (clusters[].join.labels)`,
      ],
      "the names and the expressions together select nothing",
    );
    const o = unjoinedPlacements([
      ...clusters,
      policy("OverridePolicy", "o", {
        overrideRules: [
          {
            targetCluster: { labelSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["c"] }] } },
          },
        ],
      }),
    ]);
    assert.deepStrictEqual(
      o.map((f) => f.message),
      [
        'kubernetes:policy.karmada.io/v1alpha1:OverridePolicy "o" (default/o): spec.overrideRules[0].targetCluster selects no Karmada Cluster joined in this stack through the same Karmada (joined: ikoclone {region=a}; ikogke {region=b, dr=}), so it places nothing; fix its labelSelector (matchLabels, matchExpressions) or join a cluster with those labels (clusters[].join.labels)',
      ],
    );
  });
  it("unit: does not judge selection where it cannot know: no Cluster in the stack (region stacks join them), or a value unknown in preview", () => {
    const p = policy("PropagationPolicy", "p", {
      placement: {
        clusterAffinity: { labelSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["c"] }] } },
      },
    });
    assert.deepStrictEqual(unjoinedPlacements([p]), []);
    assert.deepStrictEqual(unjoinedPlacements([cluster("ikoclone", "urn:other-karmada", { region: "a" }), p]), []);
    assert.deepStrictEqual(
      unjoinedPlacements([{ ...cluster("ikoclone"), props: { metadata: { name: "ikoclone", labels: UNKNOWN } } }, p]),
      [],
    );
    assert.deepStrictEqual(
      unjoinedPlacements([
        cluster("ikoclone", KARMADA, { region: "a" }),
        policy("PropagationPolicy", "q", {
          placement: { clusterAffinity: { labelSelector: { matchLabels: { region: UNKNOWN } } } },
        }),
      ]),
      [],
    );
  });
});
