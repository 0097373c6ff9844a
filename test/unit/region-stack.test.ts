/**
 * The region (DR) stack under Pulumi mocks: the StackReference it reads, the Karmada kubeconfig
 * kept secret, the member's Cluster with region and zones, and what the join waits for. Also the
 * DR policy builders: region affinities, spec.failover and the not-ready ClusterTaintPolicy.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Registered, fakeKubeconfig, installMocks, one, resolve, stackOutputs, unwrapSecret } from "./mocks";

const registered: Registered[] = installMocks();
import {
  FAILOVER_DEFAULTS,
  clusterAffinity,
  failoverBehavior,
  notReadyTaintPolicy,
  placement,
  propagationPolicy,
} from "../../components/karmada";
import {
  RegionConfig,
  fleetKarmadaKubeconfig,
  missingFleetOutputMessage,
  regionStack,
  validateConfig,
} from "../../stacks";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const KARMADA_KUBECONFIG = fakeKubeconfig("karmada", "https://karmada.example:5443");

function regionCfg(name: string, fleetStack: string, region: string): RegionConfig {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "iko-region-")), "kubeconfig");
  fs.writeFileSync(file, fakeKubeconfig(name, "https://10.1.2.3:6443"));
  const cfg = validateConfig(
    {
      program: "region",
      fleetStack,
      region,
      zones: [`${region}-a`],
      member: { name, kubeconfigPath: file, provider: "lab", labels: { dr: "iris" } },
      iko: { chartPath: CHART, crdManifestPath: CRD },
    },
    [],
    `dr-${region}`,
  );
  if (cfg.program !== "region") throw new Error("region");
  return cfg;
}

async function settleAll(): Promise<void> {
  await new Promise((r) => setTimeout(r, 500));
}

describe("region stack under mocks", () => {
  it("reads the fleet stack named in config, joins the member with region, zones, provider and labels, after IKO and the CRD", async () => {
    stackOutputs.set("organization/iko-plus/dr-fleet", {
      outputs: { karmadaKubeconfig: KARMADA_KUBECONFIG },
      secretOutputNames: ["karmadaKubeconfig"],
    });
    const n = registered.length;
    const out = regionStack(regionCfg("iris-us-central1", "organization/iko-plus/dr-fleet", "us-central1"), {
      secrets: {},
    });
    await settleAll();
    const mine = registered.slice(n);
    const ref = one(mine, "pulumi:pulumi:StackReference", "fleet");
    assert.strictEqual(
      ref.inputs.name,
      "organization/iko-plus/dr-fleet",
      "the StackReference names the configured fleet stack",
    );

    const provider = one(mine, "pulumi:providers:kubernetes", "karmada-karmada-api");
    const kc = unwrapSecret(provider.inputs.kubeconfig);
    assert.ok(kc.secret, "the Karmada provider gets the kubeconfig as a secret");
    assert.strictEqual(kc.value, KARMADA_KUBECONFIG, "the fleet's output, unchanged");

    const cluster = one(mine, "kubernetes:cluster.karmada.io/v1alpha1:Cluster", "iris-us-central1-member-cluster");
    assert.ok(cluster.provider.includes("::karmada-karmada-api::"), "the Cluster goes into the fleet's Karmada");
    const spec = cluster.inputs.spec as Record<string, unknown>;
    assert.deepStrictEqual(
      [spec.region, spec.zones, spec.provider, spec.syncMode, spec.apiEndpoint, spec.id],
      [
        "us-central1",
        ["us-central1-a"],
        "lab",
        "Push",
        "https://10.1.2.3:6443",
        "uid-of-iris-us-central1-member-kube-system",
      ],
    );
    assert.deepStrictEqual((cluster.inputs.metadata as { labels?: unknown }).labels, { dr: "iris" });
    for (const dep of [
      "iris-us-central1-iko-iko",
      "iris-us-central1-iriscluster-crd-crd",
      "iris-us-central1-member-karmada-secret",
      "iris-us-central1-member-karmada-impersonator-secret",
    ]) {
      assert.ok(
        cluster.dependencies.some((d) => d.endsWith(`::${dep}`)),
        `the Cluster waits for ${dep}: ${cluster.dependencies.join(" ")}`,
      );
    }
    assert.ok(
      one(mine, "kubernetes:helm.sh/v3:Release", "iris-us-central1-iko-iko").provider.includes(
        "::iris-us-central1-k8s::",
      ),
      "IKO on the member",
    );
    assert.ok(
      one(
        mine,
        "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition",
        "iris-us-central1-iriscluster-crd-crd",
      ).provider.includes("::iris-us-central1-k8s::"),
      "the CRD on the member",
    );
    assert.strictEqual(
      mine.filter((r) => r.type === "kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy").length,
      0,
      "policies belong to the fleet stack",
    );

    assert.deepStrictEqual(
      [out.joinedMember, out.memberRegion, out.memberZones, out.fleetStack],
      ["iris-us-central1", "us-central1", ["us-central1-a"], "organization/iko-plus/dr-fleet"],
    );
    assert.ok((await resolve(out.memberKubeconfig)).secret, "memberKubeconfig is a secret output");
  });

  it("keeps the Karmada kubeconfig secret even when the fleet stack exported it in plain text", async () => {
    stackOutputs.set("plain-fleet", { outputs: { karmadaKubeconfig: KARMADA_KUBECONFIG }, secretOutputNames: [] });
    const n = registered.length;
    regionStack(regionCfg("iris-europe-west1", "plain-fleet", "europe-west1"), { secrets: {} });
    await settleAll();
    const provider = one(registered.slice(n), "pulumi:providers:kubernetes", "karmada-karmada-api");
    assert.deepStrictEqual(unwrapSecret(provider.inputs.kubeconfig), { value: KARMADA_KUBECONFIG, secret: true });
  });

  it("a fleet stack without karmadaKubeconfig fails with one message naming it and the fix", async () => {
    stackOutputs.set("wfh-stack", { outputs: { program: "wfh" } });
    const ref = new pulumi.StackReference("not-a-fleet", { name: "wfh-stack" });
    const kc = fleetKarmadaKubeconfig(ref, "wfh-stack");
    const err = await new Promise<unknown>((res) => {
      kc.apply((v) => {
        res(v);
        return v;
      });
      (kc as unknown as { promise(): Promise<unknown> }).promise().catch(res);
    });
    assert.ok(err instanceof pulumi.RunError, String(err));
    assert.strictEqual((err as Error).message, missingFleetOutputMessage("wfh-stack"));
    assert.strictEqual(
      missingFleetOutputMessage("wfh-stack"),
      'iko-plus:fleetStack: "wfh-stack" has no output karmadaKubeconfig; run `pulumi up` on that fleet stack first (fleet before regions), or name a fleet stack',
    );
  });
});

describe("DR policy builders", () => {
  it("region affinities become field selectors, primary group first", () => {
    assert.deepStrictEqual(clusterAffinity({ regions: ["us-central1"] }), {
      fieldSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["us-central1"] }] },
    });
    assert.deepStrictEqual(
      placement({
        affinities: [
          { name: "primary", regions: ["us-central1"] },
          { name: "dr", regions: ["europe-west1"], labels: { dr: "iris" } },
        ],
        spreadConstraints: [{ spreadByField: "cluster", maxGroups: 1 }],
      }),
      {
        clusterAffinities: [
          {
            affinityName: "primary",
            fieldSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["us-central1"] }] },
          },
          {
            affinityName: "dr",
            labelSelector: { matchLabels: { dr: "iris" } },
            fieldSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["europe-west1"] }] },
          },
        ],
        spreadConstraints: [{ spreadByField: "cluster", maxGroups: 1 }],
      },
    );
  });

  it("spec.failover with Karmada's defaults written out; application failover turns propagateDeps on", () => {
    assert.deepStrictEqual(failoverBehavior({ application: {} }), {
      application: {
        decisionConditions: { tolerationSeconds: FAILOVER_DEFAULTS.tolerationSeconds },
        purgeMode: "Gracefully",
        gracePeriodSeconds: FAILOVER_DEFAULTS.gracePeriodSeconds,
      },
    });
    assert.deepStrictEqual(
      failoverBehavior({
        application: { tolerationSeconds: 60, purgeMode: "Directly" },
        cluster: { purgeMode: "Directly" },
      }),
      {
        application: { decisionConditions: { tolerationSeconds: 60 }, purgeMode: "Directly" },
        cluster: { purgeMode: "Directly" },
      },
    );
    const base = {
      name: "p",
      namespace: "default",
      resourceSelectors: [{ apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster", name: "iris-dr" }],
      placement: { regions: ["us-central1"] },
    };
    const withApp = propagationPolicy({ ...base, failover: { application: { tolerationSeconds: 120 } } })
      .spec as Record<string, unknown>;
    assert.strictEqual(withApp.propagateDeps, true);
    assert.deepStrictEqual(withApp.failover, {
      application: { decisionConditions: { tolerationSeconds: 120 }, purgeMode: "Gracefully", gracePeriodSeconds: 600 },
    });
    const clusterOnly = propagationPolicy({ ...base, failover: { cluster: {} } }).spec as Record<string, unknown>;
    assert.deepStrictEqual([clusterOnly.failover, clusterOnly.propagateDeps], [{ cluster: {} }, undefined]);
    assert.strictEqual((propagationPolicy(base).spec as Record<string, unknown>).failover, undefined);
  });

  it("the not-ready ClusterTaintPolicy: NoExecute while Ready is not True, removed when True", () => {
    assert.deepStrictEqual(notReadyTaintPolicy({ name: "iko-plus-not-ready", target: { labels: { dr: "iris" } } }), {
      apiVersion: "policy.karmada.io/v1alpha1",
      kind: "ClusterTaintPolicy",
      metadata: { name: "iko-plus-not-ready" },
      spec: {
        targetClusters: { labelSelector: { matchLabels: { dr: "iris" } } },
        addOnConditions: [{ conditionType: "Ready", operator: "NotIn", statusValues: ["True"] }],
        removeOnConditions: [{ conditionType: "Ready", operator: "In", statusValues: ["True"] }],
        taints: [{ key: "cluster.karmada.io/not-ready", effect: "NoExecute" }],
      },
    });
    assert.strictEqual(
      (notReadyTaintPolicy({ name: "all" }).spec as Record<string, unknown>).targetClusters,
      undefined,
      "no target: every Cluster",
    );
  });
});
