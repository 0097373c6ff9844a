import * as assert from "assert";
import { isIrisClusterType, isLicensedIrisImage, missingLicenseKeys } from "../../policy/rules/license";
import { PolicyResource, SecretValue, UNKNOWN } from "../../policy/rules/values";

const IRIS_TYPE = "kubernetes:intersystems.com/v1alpha1:IrisCluster";
const iris = (name: string, image: string, licenseKeySecret?: PolicyResource["props"][string], provider = "urn:work", namespace?: string): PolicyResource => ({
  type: IRIS_TYPE, name, urn: `urn:${name}`, provider,
  props: { metadata: { name, ...(namespace ? { namespace } : {}) }, spec: { ...(licenseKeySecret !== undefined ? { licenseKeySecret } : {}), topology: { data: { image } } } },
});
const secret = (name: string, namespace?: string, provider = "urn:work"): PolicyResource => ({
  type: "kubernetes:core/v1:Secret", name: `${name}-secret`, urn: `urn:s:${name}`, provider,
  props: { metadata: { name, ...(namespace ? { namespace } : {}) }, stringData: new SecretValue({ "iris.key": "k" }) },
});

describe("policy licensed-iris-needs-license-key", () => {
  it("knows licensed images and IrisCluster types", () => {
    for (const i of ["containers.intersystems.com/intersystems/iris:2025.1", "containers.intersystems.com/intersystems/irishealth:2025.1",
      "registry.example/intersystems/iris@sha256:00", "intersystems/iris"]) assert.strictEqual(isLicensedIrisImage(i), true, i);
    for (const i of ["containers.intersystems.com/intersystems/iris-community:2025.1", "containers.intersystems.com/intersystems/irishealth-community:2025.1",
      "containers.intersystems.com/intersystems/webgateway:2025.1", "example/iris:1"]) assert.strictEqual(isLicensedIrisImage(i), false, i);
    assert.strictEqual(isIrisClusterType(IRIS_TYPE), true);
    assert.strictEqual(isIrisClusterType("kubernetes:intersystems.com/v1beta1:IrisCluster"), true);
    assert.strictEqual(isIrisClusterType("kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition"), false);
  });
  it("fires when a licensed IrisCluster names no Secret", () => {
    assert.deepStrictEqual(missingLicenseKeys([iris("a", "containers.intersystems.com/intersystems/iris:2025.1")]), [{
      urn: "urn:a",
      message: "kubernetes:intersystems.com/v1alpha1:IrisCluster \"a\" (IrisCluster default/a) runs the licensed image spec.topology.data.image \"containers.intersystems.com/intersystems/iris:2025.1\" but spec.licenseKeySecret.name is not set; set it to a Secret holding the license key (iris.key) declared in this stack (config irisClusters[].licenseKeySecret or federatedIrisClusters[].licenseKeyConfig), or use an iris-community image",
    }]);
  });
  it("fires when the named Secret is not in the stack, in that namespace, on that cluster", () => {
    const ic = iris("b", "containers.intersystems.com/intersystems/irishealth:2025.1", { name: "key" }, "urn:work", "iris");
    const expected = [{
      urn: "urn:b",
      message: "kubernetes:intersystems.com/v1alpha1:IrisCluster \"b\" (IrisCluster iris/b) runs the licensed image spec.topology.data.image \"containers.intersystems.com/intersystems/irishealth:2025.1\" and spec.licenseKeySecret.name is \"key\", but no Secret iris/key is declared in this stack on the same cluster; declare it (from a secret config value) in this stack, or use an iris-community image",
    }];
    assert.deepStrictEqual(missingLicenseKeys([ic]), expected);
    assert.deepStrictEqual(missingLicenseKeys([ic, secret("key")]), expected, "wrong namespace");
    assert.deepStrictEqual(missingLicenseKeys([ic, secret("key", "iris", "urn:home")]), expected, "other cluster");
    assert.deepStrictEqual(missingLicenseKeys([ic, secret("other", "iris")]), expected, "other name");
  });
  it("stays silent with the Secret declared, for community images, and while the name is unknown", () => {
    assert.deepStrictEqual(missingLicenseKeys([iris("c", "containers.intersystems.com/intersystems/iris:2025.1", { name: "key" }), secret("key")]), []);
    assert.deepStrictEqual(missingLicenseKeys([iris("d", "containers.intersystems.com/intersystems/iris-community:2025.1")]), []);
    assert.deepStrictEqual(missingLicenseKeys([iris("e", "containers.intersystems.com/intersystems/iris:2025.1", UNKNOWN)]), []);
    assert.deepStrictEqual(missingLicenseKeys([iris("f", "containers.intersystems.com/intersystems/iris:2025.1", { name: UNKNOWN })]), []);
  });
});
