/** components/iris holds the IrisCluster manifest and its TLS; the old import paths keep working. */
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import Ajv from "ajv";
import * as YAML from "yaml";
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
    assert.deepStrictEqual(iris.withIrisTls(m, { mirror: volume }).spec.tls, {
      mirror: volume,
    });
    assert.strictEqual(m.spec.tls, undefined, "the input is not changed");
  });
});

describe("unit: the IrisCluster manifest's given spec fields", () => {
  const IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";
  const standInCrd = YAML.parse(
    fs.readFileSync(path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml"), "utf8"),
  ) as { spec: { versions: { schema: { openAPIV3Schema: object } }[] } };
  const validate = new Ajv({ allErrors: true }).compile(standInCrd.spec.versions[0].schema.openAPIV3Schema);

  it("merges a given topology into the generated one: data.shards keeps the image and mirroring (stand-in CRD)", () => {
    const m = iris.irisClusterManifest({
      name: "a",
      namespace: "default",
      image: IMAGE,
      mirrored: true,
      spec: { topology: { data: { shards: 2 }, compute: { image: IMAGE, replicas: 1 } } },
    });
    assert.deepStrictEqual(m.spec.topology, {
      data: { image: IMAGE, mirrored: true, shards: 2 },
      compute: { image: IMAGE, replicas: 1 },
    });
    assert.ok(validate(m), JSON.stringify(validate.errors));
  });

  it("lets a given value or list replace the generated one, and leaves its inputs unchanged", () => {
    const spec = {
      topology: { data: { image: "x/iris-community:2025.2", preferredZones: ["b"] } },
      serviceTemplate: { spec: { type: "LoadBalancer" as const } },
      imagePullSecrets: [{ name: "icr" }],
    };
    const before = JSON.stringify(spec);
    const m = iris.irisClusterManifest({
      name: "a",
      namespace: "default",
      image: IMAGE,
      serviceType: "NodePort",
      spec,
    });
    assert.deepStrictEqual(m.spec, {
      topology: { data: { image: "x/iris-community:2025.2", preferredZones: ["b"] } },
      serviceTemplate: { spec: { type: "LoadBalancer" } },
      imagePullSecrets: [{ name: "icr" }],
    });
    assert.strictEqual(JSON.stringify(spec), before);
    assert.deepStrictEqual(iris.mergeOver({ a: { b: [1, 2], c: 1 }, d: 1 }, { a: { b: [3] }, e: { f: 1 } }), {
      a: { b: [3], c: 1 },
      d: 1,
      e: { f: 1 },
    });
  });
});

describe("components/iris license wiring", () => {
  it("names a federated IrisCluster's license Secret and the key in it", () => {
    assert.strictEqual(iris.licenseSecretName("federated-iris"), "federated-iris-license");
    assert.strictEqual(iris.IRIS_LICENSE_KEY, "iris.key");
    assert.deepStrictEqual(iris.licenseKeySecretRef("k"), { name: "k" });
  });
});
