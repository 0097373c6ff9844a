/** components/iris holds the IrisCluster manifest and its TLS; the old import paths keep working. */
import * as assert from "assert";
import * as iris from "../../components/iris";
import * as tls from "../../components/tls";
import * as config from "../../stacks/config";

describe("components/iris", () => {
  it("is where the IrisCluster manifest, its TLS and the license rule live; stacks/config and components/tls re-export them", () => {
    assert.strictEqual(config.irisClusterManifest, iris.irisClusterManifest);
    assert.strictEqual(tls.withIrisTls, iris.withIrisTls);
    assert.strictEqual(iris.isLicensedIrisImage("containers.intersystems.com/intersystems/iris:2025.1"), true);
  });

  it("builds the IrisCluster with its license key Secret, service type, mirroring and spec, then spec.tls over it", () => {
    const m = iris.irisClusterManifest({
      name: "a",
      namespace: "iris",
      image: "containers.intersystems.com/intersystems/iris:2025.1",
      licenseKeySecret: "a-key",
      serviceType: "NodePort",
      mirrored: true,
      spec: { storageClassName: "fast" },
    });
    assert.deepStrictEqual(m, {
      apiVersion: "intersystems.com/v1alpha1",
      kind: "IrisCluster",
      metadata: { name: "a", namespace: "iris" },
      spec: {
        topology: { data: { image: "containers.intersystems.com/intersystems/iris:2025.1", mirrored: true } },
        licenseKeySecret: { name: "a-key" },
        serviceTemplate: { spec: { type: "NodePort" } },
        storageClassName: "fast",
      },
    });
    const volume = { secret: { secretName: "a-tls" } };
    assert.deepStrictEqual((iris.withIrisTls(m, { mirror: volume }).spec as Record<string, unknown>).tls, {
      mirror: volume,
    });
    assert.strictEqual((m.spec as Record<string, unknown>).tls, undefined, "the input is not changed");
  });
});

describe("components/iris license wiring", () => {
  it("names a federated IrisCluster's license Secret and the key in it", () => {
    assert.strictEqual(iris.licenseSecretName("federated-iris"), "federated-iris-license");
    assert.strictEqual(iris.IRIS_LICENSE_KEY, "iris.key");
    assert.deepStrictEqual(iris.licenseKeySecretRef("k"), { name: "k" });
  });
});
