/**
 * Unit: the pack's wiring (policy/policies.ts): each policy by name runs its own rule on the
 * resource or stack @pulumi/policy hands it, and reports every message, stack findings on their
 * resource's URN.
 */
import * as assert from "assert";
import {
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { ikoPlusPolicies } from "../../policy/policies";
import { CILIUM_MESH_UNIQUE_CLUSTERS } from "../../policy/rules/cilium-mesh";
import { NO_PLAIN_CREDENTIALS } from "../../policy/rules/credentials";
import { ENVIRONMENT_TAG, PRODUCTION_GKE_DELETION_PROTECTION } from "../../policy/rules/gke";
import { PINNED_IMAGES } from "../../policy/rules/images";
import { REMOTE_IKO_WEBHOOKS_OFF } from "../../policy/rules/iko-webhooks";
import { LICENSED_IRIS_NEEDS_LICENSE_KEY } from "../../policy/rules/license";
import { PLACEMENT_NAMES_JOINED_CLUSTERS } from "../../policy/rules/placement";
import { CLUSTERS_PROTECTED, PRODUCTION_CLUSTERS_PROTECTED } from "../../policy/rules/protection";
import { fakeKubeconfig } from "./mocks";

type Props = Record<string, unknown>;
const NO_TAGS = new Map<string, string>();

function byName(name: string): ResourceValidationPolicy & StackValidationPolicy {
  const p = ikoPlusPolicies().find((x) => x.name === name);
  assert.ok(p, `policy ${name}`);
  return p as ResourceValidationPolicy & StackValidationPolicy;
}

/** The violations one resource policy reports for a resource. */
function resourceViolations(
  name: string,
  type: string,
  props: Props,
  stackTags = NO_TAGS,
  opts: { protect?: boolean } = {},
): string[] {
  const out: string[] = [];
  const report: ReportViolation = (message) => {
    out.push(message);
  };
  const args = {
    type,
    name: "r",
    urn: `urn:pulumi:s::p::${type}::r`,
    props,
    stackTags,
    opts,
  } as unknown as ResourceValidationArgs; // only the fields the rules read
  const validate = byName(name).validateResource;
  assert.ok(typeof validate === "function", `${name} validates resources`);
  void validate(args, report);
  return out;
}

/** The violations one stack policy reports, as [message, urn]. */
function stackViolations(
  name: string,
  resources: { type: string; name: string; props: Props }[],
): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  const report: ReportViolation = (message, urn) => {
    out.push([message, urn]);
  };
  const args = {
    resources: resources.map((r) => ({ ...r, urn: `urn:pulumi:s::p::${r.type}::${r.name}` })),
  } as unknown as StackValidationArgs; // only the fields the rules read
  const validate = byName(name).validateStack;
  assert.ok(typeof validate === "function", `${name} validates the stack`);
  void validate(args, report);
  return out;
}

describe("policy pack wiring (unit)", () => {
  it("has the nine policies, each described, each of one kind; all mandatory but clusters-protected (advisory)", () => {
    const policies = ikoPlusPolicies();
    assert.deepStrictEqual(
      policies.map((p) => p.name),
      [
        NO_PLAIN_CREDENTIALS,
        PINNED_IMAGES,
        LICENSED_IRIS_NEEDS_LICENSE_KEY,
        PLACEMENT_NAMES_JOINED_CLUSTERS,
        REMOTE_IKO_WEBHOOKS_OFF,
        PRODUCTION_GKE_DELETION_PROTECTION,
        CLUSTERS_PROTECTED,
        PRODUCTION_CLUSTERS_PROTECTED,
        CILIUM_MESH_UNIQUE_CLUSTERS,
      ],
    );
    const kinds = policies.map((p) => ("validateStack" in p ? "stack" : "resource"));
    assert.deepStrictEqual(kinds, [
      "resource",
      "resource",
      "stack",
      "stack",
      "resource",
      "resource",
      "resource",
      "resource",
      "stack",
    ]);
    assert.deepStrictEqual(
      policies.filter((p) => p.enforcementLevel !== undefined).map((p) => [p.name, p.enforcementLevel]),
      [[CLUSTERS_PROTECTED, "advisory"]],
      "the others take the pack's level (mandatory)",
    );
    for (const p of policies) assert.ok((p.description ?? "").length > 20, `${p.name} says what it checks`);
  });

  it(`${NO_PLAIN_CREDENTIALS}: a kubeconfig in plain ConfigMap data is reported; a secret one is not`, () => {
    const kubeconfig = fakeKubeconfig("kind-ikowork", "https://127.0.0.1:6443");
    const found = resourceViolations(NO_PLAIN_CREDENTIALS, "kubernetes:core/v1:ConfigMap", {
      metadata: { name: "cm" },
      data: { kubeconfig },
    });
    assert.strictEqual(found.length, 1);
    assert.match(found[0], /data\.kubeconfig/);
    assert.deepStrictEqual(
      resourceViolations(NO_PLAIN_CREDENTIALS, "kubernetes:core/v1:ConfigMap", {
        metadata: { name: "cm" },
        data: { note: "hello" },
      }),
      [],
    );
  });

  it(`${PINNED_IMAGES}: an image tagged latest is reported, a pinned one is not`, () => {
    const pod = (image: string) => ({ metadata: { name: "p" }, spec: { containers: [{ name: "c", image }] } });
    const found = resourceViolations(PINNED_IMAGES, "kubernetes:core/v1:Pod", pod("docker.io/library/nginx:latest"));
    assert.strictEqual(found.length, 1);
    assert.match(found[0], /nginx:latest/);
    assert.deepStrictEqual(
      resourceViolations(PINNED_IMAGES, "kubernetes:core/v1:Pod", pod("docker.io/library/nginx:1.27.0")),
      [],
    );
  });

  it(`${REMOTE_IKO_WEBHOOKS_OFF}: a remote IKO release with a webhook on is reported`, () => {
    const release = (on: boolean) => ({
      name: "iko",
      chart: "./chart/iris-operator",
      postrender: "./.iko-plus/postrender/x.sh",
      values: { apiserver: { enableMutatingWebhook: on, enableValidatingWebhook: false } },
    });
    assert.strictEqual(
      resourceViolations(REMOTE_IKO_WEBHOOKS_OFF, "kubernetes:helm.sh/v3:Release", release(true)).length,
      1,
    );
    assert.deepStrictEqual(
      resourceViolations(REMOTE_IKO_WEBHOOKS_OFF, "kubernetes:helm.sh/v3:Release", release(false)),
      [],
    );
  });

  it(`${PRODUCTION_GKE_DELETION_PROTECTION}: the stack tags reach the rule`, () => {
    const gke = { name: "g", deletionProtection: false };
    const production = new Map([[ENVIRONMENT_TAG, "production"]]);
    assert.strictEqual(
      resourceViolations(PRODUCTION_GKE_DELETION_PROTECTION, "gcp:container/cluster:Cluster", gke, production).length,
      1,
    );
    assert.deepStrictEqual(
      resourceViolations(PRODUCTION_GKE_DELETION_PROTECTION, "gcp:container/cluster:Cluster", gke),
      [],
    );
  });

  it(`${CLUSTERS_PROTECTED} and ${PRODUCTION_CLUSTERS_PROTECTED}: the protect option and the stack tags reach the rule`, () => {
    const kind = { name: "ikowork", configYaml: "" };
    const type = "pulumi-nodejs:dynamic/kind:Cluster";
    const production = new Map([[ENVIRONMENT_TAG, "production"]]);
    assert.strictEqual(resourceViolations(CLUSTERS_PROTECTED, type, kind).length, 1);
    assert.deepStrictEqual(resourceViolations(CLUSTERS_PROTECTED, type, kind, NO_TAGS, { protect: true }), []);
    assert.deepStrictEqual(resourceViolations(CLUSTERS_PROTECTED, type, kind, production), []);
    assert.strictEqual(resourceViolations(PRODUCTION_CLUSTERS_PROTECTED, type, kind, production).length, 1);
    assert.deepStrictEqual(resourceViolations(PRODUCTION_CLUSTERS_PROTECTED, type, kind), []);
  });

  it(`${LICENSED_IRIS_NEEDS_LICENSE_KEY}: the finding is reported on the IrisCluster's URN`, () => {
    const iris = {
      type: "kubernetes:intersystems.com/v1alpha1:IrisCluster",
      name: "iris",
      props: {
        metadata: { name: "iris" },
        spec: { topology: { data: { image: "containers.intersystems.com/intersystems/iris:2025.1" } } },
      },
    };
    const found = stackViolations(LICENSED_IRIS_NEEDS_LICENSE_KEY, [iris]);
    assert.strictEqual(found.length, 1);
    assert.match(found[0][0], /licenseKeySecret/);
    assert.strictEqual(found[0][1], "urn:pulumi:s::p::kubernetes:intersystems.com/v1alpha1:IrisCluster::iris");
  });

  it(`${PLACEMENT_NAMES_JOINED_CLUSTERS}: a placement naming a cluster not joined is reported on the policy's URN`, () => {
    const cluster = {
      type: "kubernetes:cluster.karmada.io/v1alpha1:Cluster",
      name: "c",
      props: { metadata: { name: "ikoclone" } },
    };
    const policy = {
      type: "kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy",
      name: "pp",
      props: {
        metadata: { name: "pp", namespace: "default" },
        spec: { placement: { clusterAffinity: { clusterNames: ["ikoghost"] } } },
      },
    };
    const found = stackViolations(PLACEMENT_NAMES_JOINED_CLUSTERS, [cluster, policy]);
    assert.strictEqual(found.length, 1);
    assert.match(found[0][0], /"ikoghost", which is not a Karmada Cluster joined/);
    assert.strictEqual(found[0][1], "urn:pulumi:s::p::kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy::pp");
  });
  it(`${CILIUM_MESH_UNIQUE_CLUSTERS}: a second mesh member with the same id is reported on its release`, () => {
    const cilium = (name: string, id: number) => ({
      type: "kubernetes:helm.sh/v3:Release",
      name: `${name}-cilium`,
      props: { chart: "cilium", values: { cluster: { name, id }, clustermesh: { useAPIServer: true } } },
    });
    const found = stackViolations(CILIUM_MESH_UNIQUE_CLUSTERS, [cilium("a", 1), cilium("b", 1)]);
    assert.strictEqual(found.length, 1);
    assert.match(found[0][0], /values\.cluster\.id 1/);
    assert.strictEqual(found[0][1], "urn:pulumi:s::p::kubernetes:helm.sh/v3:Release::b-cilium");
  });
});
