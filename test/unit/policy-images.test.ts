import * as assert from "assert";
import { imageProblem, unpinnedImages } from "../../policy/rules/images";
import { PolicyResource, SecretValue, UNKNOWN } from "../../policy/rules/values";

const res = (type: string, name: string, props: PolicyResource["props"]): PolicyResource => ({
  type,
  name,
  urn: `urn:${name}`,
  props,
});
const pod = (containers: PolicyResource["props"][]) => ({ spec: { template: { spec: { containers } } } });

describe("policy pinned-images", () => {
  it("judges references: untagged, latest, tagged, digest, registry ports", () => {
    assert.strictEqual(imageProblem("nginx"), "untagged");
    assert.strictEqual(imageProblem("nginx:"), "untagged");
    assert.strictEqual(imageProblem("registry.local:5000/team/app"), "untagged");
    assert.strictEqual(imageProblem("nginx:latest"), "latest");
    assert.strictEqual(imageProblem("registry.local:5000/team/app:latest"), "latest");
    assert.strictEqual(imageProblem("registry.local:5000/team/app:1.2"), undefined);
    assert.strictEqual(imageProblem("containers.intersystems.com/intersystems/iris-community:2025.1"), undefined);
    assert.strictEqual(imageProblem("nginx@sha256:0123456789abcdef"), undefined);
    assert.strictEqual(imageProblem("nginx:latest@sha256:0123456789abcdef"), undefined);
  });
  it("names the resource, the input, the image and the fix", () => {
    assert.deepStrictEqual(
      unpinnedImages(
        res(
          "kubernetes:apps/v1:StatefulSet",
          "db",
          pod([
            { name: "a", image: "postgres" },
            { name: "b", image: "postgres:16.4" },
            { name: "c", image: "redis:latest" },
          ]),
        ),
      ),
      [
        'kubernetes:apps/v1:StatefulSet "db": input spec.template.spec.containers[0].image is "postgres", which has no tag (an untagged image means latest); pin a version tag or a digest, e.g. "postgres:<version>" or "…@sha256:<digest>"',
        'kubernetes:apps/v1:StatefulSet "db": input spec.template.spec.containers[2].image is "redis:latest", which uses the tag "latest"; pin a version tag or a digest, e.g. "redis:<version>" or "…@sha256:<digest>"',
      ],
    );
  });
  it("looks at pods, cron jobs, IrisCluster topologies and *Image fields", () => {
    const messages = [
      ...unpinnedImages(
        res("kubernetes:core/v1:Pod", "p", {
          spec: { initContainers: [{ image: "busybox" }], containers: [{ image: "x:1" }] },
        }),
      ),
      ...unpinnedImages(
        res("kubernetes:batch/v1:CronJob", "cj", {
          spec: { jobTemplate: { spec: { template: { spec: { containers: [{ image: "alpine:latest" }] } } } } },
        }),
      ),
      ...unpinnedImages(
        res("kubernetes:intersystems.com/v1alpha1:IrisCluster", "ic", {
          spec: {
            topology: {
              data: { image: "containers.intersystems.com/intersystems/iris-community" },
              webgateway: { image: "containers.intersystems.com/intersystems/webgateway:2025.1" },
            },
          },
        }),
      ),
      ...unpinnedImages(res("pulumi-nodejs:dynamic/kind:Cluster", "k", { nodeImage: "kindest/node:latest" })),
    ];
    assert.deepStrictEqual(
      messages.map((m) => m.split(": input ")[1].split(",")[0]),
      [
        'spec.initContainers[0].image is "busybox"',
        'spec.jobTemplate.spec.template.spec.containers[0].image is "alpine:latest"',
        'spec.topology.data.image is "containers.intersystems.com/intersystems/iris-community"',
        'nodeImage is "kindest/node:latest"',
      ],
    );
  });
  it("checks Helm values: image strings and {repository, tag} objects with a tag", () => {
    assert.deepStrictEqual(
      unpinnedImages(
        res("kubernetes:helm.sh/v3:Release", "iko", {
          chart: "iris-operator",
          values: {
            operator: {
              registry: "containers.intersystems.com",
              repository: "intersystems/iris-operator-amd",
              tag: "latest",
            },
            sidecar: { repository: "busybox", tag: "" },
            chartDefault: { repository: "nginx" },
            pinned: { repository: "nginx", tag: "1.27.3" },
            job: { image: "bitnami/kubectl" },
          },
        }),
      ),
      [
        'kubernetes:helm.sh/v3:Release "iko": input values.job.image is "bitnami/kubectl", which has no tag (an untagged image means latest); pin a version tag or a digest, e.g. "bitnami/kubectl:<version>" or "…@sha256:<digest>"',
        'kubernetes:helm.sh/v3:Release "iko": input values.operator.tag is "latest" for image "containers.intersystems.com/intersystems/iris-operator-amd", which uses the tag "latest"; set values.operator.tag to a version tag (not "latest")',
        'kubernetes:helm.sh/v3:Release "iko": input values.sidecar.tag is "" for image "busybox", which has no tag (an untagged image means latest); set values.sidecar.tag to a version tag (not "latest")',
      ],
    );
  });
  it("skips unknown images, imagePullPolicy, ConfigMap/Secret data, and hides secret images", () => {
    assert.deepStrictEqual(
      unpinnedImages(res("kubernetes:apps/v1:Deployment", "d", pod([{ image: UNKNOWN, imagePullPolicy: "Always" }]))),
      [],
    );
    assert.deepStrictEqual(unpinnedImages(res("kubernetes:core/v1:ConfigMap", "cm", { data: { image: "nginx" } })), []);
    assert.deepStrictEqual(
      unpinnedImages(
        res("kubernetes:apps/v1:Deployment", "d", pod([{ image: new SecretValue("private.example/app") }])),
      ),
      [
        'kubernetes:apps/v1:Deployment "d": input spec.template.spec.containers[0].image is [secret], which has no tag (an untagged image means latest); pin a version tag or a digest, e.g. "<repository>:<version>" or "…@sha256:<digest>"',
      ],
    );
  });
  it("unit: {repository, tag} objects in lists, tags that are unknown, secret, numbers or null, and which keys are images", () => {
    const found = unpinnedImages(
      res("kubernetes:helm.sh/v3:Release", "r", {
        chart: "c",
        values: {
          sidecars: [
            { repository: "a", tag: "latest" },
            { repository: "b", tag: "1.0" },
          ],
          noRepo: { repository: 5, tag: "latest" },
          noTagKey: { repository: "nginx" },
          unknownTag: { repository: "c", tag: UNKNOWN },
          secretTag: { repository: "d", tag: new SecretValue("latest") },
          numberTag: { repository: "e", tag: 7 },
          nullTag: { registry: "", repository: "f", tag: null },
          baseImage: "alpine:latest",
          images: "alpine:latest",
          imageName: "alpine:latest",
          emptyImage: "",
        },
      }),
    );
    assert.deepStrictEqual(
      found.map((m) => m.split(": input ")[1].split(", which")[0]),
      [
        'values.baseImage is "alpine:latest"',
        'values.sidecars[0].tag is "latest" for image "a"',
        'values.nullTag.tag is null for image "f"',
      ],
    );
  });
  it("unit: only core ConfigMaps and Secrets (and their patches) count as free-form data", () => {
    const data = { data: { image: "nginx" } };
    assert.deepStrictEqual(unpinnedImages(res("kubernetes:core/v1:SecretPatch", "s", data)), []);
    assert.strictEqual(unpinnedImages(res("kubernetes:core/v1:ConfigMapList", "l", data)).length, 1);
    assert.strictEqual(unpinnedImages(res("kubernetes:example.com/v1:ConfigMap", "x", data)).length, 1);
    assert.strictEqual(unpinnedImages(res("mykubernetes:core/v1:Secret", "y", data)).length, 1);
  });
});
