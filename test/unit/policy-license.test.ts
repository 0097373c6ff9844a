import * as assert from "assert";
import { isIrisClusterType, isLicensedIrisImage, missingLicenseKeys } from "../../policy/rules/license";
import { PolicyResource, SecretValue, UNKNOWN } from "../../policy/rules/values";

const IRIS_TYPE = "kubernetes:intersystems.com/v1alpha1:IrisCluster";
const iris = (
  name: string,
  image: string,
  licenseKeySecret?: PolicyResource["props"][string],
  provider = "urn:work",
  namespace?: string,
): PolicyResource => ({
  type: IRIS_TYPE,
  name,
  urn: `urn:${name}`,
  provider,
  props: {
    metadata: { name, ...(namespace ? { namespace } : {}) },
    spec: { ...(licenseKeySecret !== undefined ? { licenseKeySecret } : {}), topology: { data: { image } } },
  },
});
const secret = (name: string, namespace?: string, provider = "urn:work"): PolicyResource => ({
  type: "kubernetes:core/v1:Secret",
  name: `${name}-secret`,
  urn: `urn:s:${name}`,
  provider,
  props: { metadata: { name, ...(namespace ? { namespace } : {}) }, stringData: new SecretValue({ "iris.key": "k" }) },
});

describe("policy licensed-iris-needs-license-key", () => {
  it("knows licensed images and IrisCluster types", () => {
    for (const i of [
      "containers.intersystems.com/intersystems/iris:2025.1",
      "containers.intersystems.com/intersystems/irishealth:2025.1",
      "registry.example/intersystems/iris@sha256:00",
      "intersystems/iris",
    ])
      assert.strictEqual(isLicensedIrisImage(i), true, i);
    for (const i of [
      "containers.intersystems.com/intersystems/iris-community:2025.1",
      "containers.intersystems.com/intersystems/irishealth-community:2025.1",
      "containers.intersystems.com/intersystems/webgateway:2025.1",
      "example/iris:1",
    ])
      assert.strictEqual(isLicensedIrisImage(i), false, i);
    assert.strictEqual(isIrisClusterType(IRIS_TYPE), true);
    assert.strictEqual(isIrisClusterType("kubernetes:intersystems.com/v1beta1:IrisCluster"), true);
    assert.strictEqual(isIrisClusterType("kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition"), false);
  });
  it("fires when a licensed IrisCluster names no Secret", () => {
    assert.deepStrictEqual(missingLicenseKeys([iris("a", "containers.intersystems.com/intersystems/iris:2025.1")]), [
      {
        urn: "urn:a",
        message:
          'kubernetes:intersystems.com/v1alpha1:IrisCluster "a" (IrisCluster default/a) runs the licensed image spec.topology.data.image "containers.intersystems.com/intersystems/iris:2025.1" but spec.licenseKeySecret.name is not set; set it to a Secret holding the license key (iris.key) declared in this stack (config irisClusters[].licenseKeySecret or federatedIrisClusters[].licenseKeyConfig), or use an iris-community image',
      },
    ]);
  });
  it("fires when the named Secret is not in the stack, in that namespace, on that cluster", () => {
    const ic = iris(
      "b",
      "containers.intersystems.com/intersystems/irishealth:2025.1",
      { name: "key" },
      "urn:work",
      "iris",
    );
    const expected = [
      {
        urn: "urn:b",
        message:
          'kubernetes:intersystems.com/v1alpha1:IrisCluster "b" (IrisCluster iris/b) runs the licensed image spec.topology.data.image "containers.intersystems.com/intersystems/irishealth:2025.1" and spec.licenseKeySecret.name is "key", but no Secret iris/key is declared in this stack on the same cluster; declare it (from a secret config value) in this stack, or use an iris-community image',
      },
    ];
    assert.deepStrictEqual(missingLicenseKeys([ic]), expected);
    assert.deepStrictEqual(missingLicenseKeys([ic, secret("key")]), expected, "wrong namespace");
    assert.deepStrictEqual(missingLicenseKeys([ic, secret("key", "iris", "urn:home")]), expected, "other cluster");
    assert.deepStrictEqual(missingLicenseKeys([ic, secret("other", "iris")]), expected, "other name");
  });
  it("stays silent with the Secret declared, for community images, and while the name is unknown", () => {
    assert.deepStrictEqual(
      missingLicenseKeys([
        iris("c", "containers.intersystems.com/intersystems/iris:2025.1", { name: "key" }),
        secret("key"),
      ]),
      [],
    );
    assert.deepStrictEqual(
      missingLicenseKeys([iris("d", "containers.intersystems.com/intersystems/iris-community:2025.1")]),
      [],
    );
    assert.deepStrictEqual(
      missingLicenseKeys([iris("e", "containers.intersystems.com/intersystems/iris:2025.1", UNKNOWN)]),
      [],
    );
    assert.deepStrictEqual(
      missingLicenseKeys([iris("f", "containers.intersystems.com/intersystems/iris:2025.1", { name: UNKNOWN })]),
      [],
    );
  });
  it("unit: judges only IrisCluster types with an object spec and string images under an image key", () => {
    const LICENSED = "containers.intersystems.com/intersystems/iris:2025.1";
    assert.strictEqual(isIrisClusterType("xkubernetes:intersystems.com/v1alpha1:IrisCluster"), false);
    assert.strictEqual(isIrisClusterType("kubernetes:intersystems.com/v1alpha1:IrisClusterList"), false);
    const other = { ...iris("o", LICENSED), type: "kubernetes:example.com/v1:IrisCluster" };
    assert.deepStrictEqual(missingLicenseKeys([other]), [], "another group's IrisCluster is not judged");
    assert.deepStrictEqual(
      missingLicenseKeys([{ ...iris("u", LICENSED), props: { metadata: { name: "u" }, spec: UNKNOWN } }]),
      [],
      "a spec unknown in preview",
    );
    const imageUnderOtherKey = iris("k", "x");
    (imageUnderOtherKey.props.spec as Record<string, unknown>).topology = { data: { baseImage: LICENSED, image: 5 } };
    assert.deepStrictEqual(missingLicenseKeys([imageUnderOtherKey]), [], "only `image` keys with string values");
  });
  it("unit: an empty Secret name counts as none; the Secret must be in the IrisCluster's namespace, through the same cluster", () => {
    const LICENSED = "containers.intersystems.com/intersystems/iris:2025.1";
    assert.match(
      missingLicenseKeys([iris("e", LICENSED, { name: "" })])[0].message,
      /spec.licenseKeySecret.name is not set/,
    );
    // No namespace on either side means "default" on both.
    assert.deepStrictEqual(missingLicenseKeys([iris("d", LICENSED, { name: "key" }), secret("key")]), []);
    assert.match(
      missingLicenseKeys([iris("n", LICENSED, { name: "key" }, "urn:work", "iris"), secret("key")])[0].message,
      /no Secret iris\/key is declared/,
    );
    assert.match(
      missingLicenseKeys([iris("p", LICENSED, { name: "key" }), secret("key", undefined, "urn:home")])[0].message,
      /no Secret default\/key is declared in this stack on the same cluster/,
    );
    assert.deepStrictEqual(
      missingLicenseKeys([
        iris("q", LICENSED, { name: "key" }),
        { ...secret("key"), type: "kubernetes:core/v1:ConfigMap" },
      ]).length,
      1,
      "a ConfigMap is no Secret",
    );
    const noProvider = { ...iris("r", LICENSED, { name: "key" }), provider: undefined };
    assert.deepStrictEqual(
      missingLicenseKeys([noProvider, secret("key", undefined, "urn:home")]),
      [],
      "a default provider matches any",
    );
    assert.deepStrictEqual(
      missingLicenseKeys([iris("s", LICENSED, { name: "key" }), { ...secret("key"), provider: undefined }]),
      [],
    );
  });
});
