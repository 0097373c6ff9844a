/**
 * The image rules (splitting, pinning, licensed IRIS images) are written once, in
 * components/names/images.ts; config validation and the policy pack must agree on every case.
 */
import * as assert from "assert";
import {
  chartImageValues,
  checkImageRef,
  imagePinProblem,
  isLicensedIrisImage,
  splitImageRef,
} from "../../components/names";
import { chartImage } from "../../components/karmada";
import { missingLicenseKeys } from "../../policy/rules/license";
import { imageProblem } from "../../policy/rules/images";
import { PolicyResource } from "../../policy/rules/values";
import { Reader, readIrisClusters, splitImage } from "../../stacks/config";
import { Problems } from "../../stacks/problems";

const D = `sha256:${"a".repeat(64)}`;
const ICR = "containers.intersystems.com";

/** [image, licensed] */
const LICENSE_CASES: [string, boolean][] = [
  [`${ICR}/intersystems/iris:2025.1`, true],
  [`${ICR}/intersystems/iris@${D}`, true],
  [`${ICR}/intersystems/iris:2025.1@${D}`, true],
  [`${ICR}/intersystems/irishealth:2025.1`, true],
  [`${ICR}/intersystems/irishealth@${D}`, true],
  [`${ICR}/intersystems/irishealth:2025.1@${D}`, true],
  ["registry.example:5000/intersystems/iris:2025.1", true],
  [`registry.example/mirror/intersystems/irishealth@${D}`, true],
  ["intersystems/iris:2025.1", true],
  [`${ICR}/intersystems/iris-community:2025.1`, false],
  [`${ICR}/intersystems/iris-community@${D}`, false],
  [`${ICR}/intersystems/irishealth-community:2025.1@${D}`, false],
  [`${ICR}/intersystems/webgateway:2025.1`, false],
  [`${ICR}/intersystems/iris-operator-amd:3.8.42.100`, false],
  ["registry.example/iris:2025.1", false],
  [`registry.example/other/iris@${D}`, false],
  ["registry.example/intersystems/iris/sidecar:1", false],
];

const iris = (name: string, image: string): PolicyResource => ({
  type: "kubernetes:intersystems.com/v1alpha1:IrisCluster",
  name,
  urn: `urn:${name}`,
  provider: "urn:work",
  props: { metadata: { name }, spec: { topology: { data: { image } } } },
});

function configProblems(image: string): string[] {
  const problems = new Problems("iko-plus");
  readIrisClusters(new Reader(problems), [{ name: "iris-a", image }]);
  return problems.list;
}

describe("image rules (components/names/images.ts)", () => {
  for (const [image, licensed] of LICENSE_CASES) {
    it(`${licensed ? "licensed" : "not licensed"}: ${image}`, () => {
      assert.strictEqual(isLicensedIrisImage(image), licensed);
    });
  }

  it("config validation and the policy pack agree on every licensed-image case", () => {
    for (const [image, licensed] of LICENSE_CASES) {
      const config = configProblems(image);
      const expected = licensed
        ? [
            `iko-plus:irisClusters[0].licenseKeySecret: (not set) is required for the licensed image ${JSON.stringify(image)}; name the Secret holding iris.key, or use an iris-community image`,
          ]
        : [];
      assert.deepStrictEqual(config, expected, `config: ${image}`);
      assert.strictEqual(missingLicenseKeys([iris("a", image)]).length, licensed ? 1 : 0, `policy: ${image}`);
    }
  });

  it("splits name, tag and digest; a registry port is not a tag", () => {
    assert.deepStrictEqual(splitImageRef("nginx"), { name: "nginx" });
    assert.deepStrictEqual(splitImageRef("nginx:"), { name: "nginx", tag: "" });
    assert.deepStrictEqual(splitImageRef("registry.local:5000/team/app"), { name: "registry.local:5000/team/app" });
    assert.deepStrictEqual(splitImageRef("registry.local:5000/team/app:1.2"), {
      name: "registry.local:5000/team/app",
      tag: "1.2",
    });
    assert.deepStrictEqual(splitImageRef(`a.io/b/c@${D}`), { name: "a.io/b/c", digest: D });
    assert.deepStrictEqual(splitImageRef(`a.io/b/c:1@${D}`), { name: "a.io/b/c", tag: "1", digest: D });
  });

  it("splits into chart values the same way for IKO and Karmada, keeping a digest with its tag", () => {
    const cases: [string, { registry: string; repository: string; tag: string } | undefined][] = [
      [
        `${ICR}/intersystems/iris-operator-amd:3.8.42.100`,
        { registry: ICR, repository: "intersystems/iris-operator-amd", tag: "3.8.42.100" },
      ],
      [
        "registry.local:5000/team/kubectl:1.33",
        { registry: "registry.local:5000", repository: "team/kubectl", tag: "1.33" },
      ],
      [
        `docker.io/bitnamilegacy/kubectl:1.33.4@${D}`,
        { registry: "docker.io", repository: "bitnamilegacy/kubectl", tag: `1.33.4@${D}` },
      ],
      [`docker.io/bitnamilegacy/kubectl@${D}`, undefined],
      ["kubectl:1.33", undefined],
      ["registry.local:5000/team/kubectl", undefined],
    ];
    for (const [ref, expected] of cases) {
      assert.deepStrictEqual(chartImageValues(ref), expected, ref);
      assert.deepStrictEqual(splitImage(ref), expected, `iko ${ref}`);
      if (expected) assert.deepStrictEqual(chartImage(ref), expected, `karmada ${ref}`);
      else
        assert.throws(
          () => chartImage(ref),
          new RegExp(`image "${ref.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}" must be registry/repository:tag`),
        );
    }
  });

  it("pins the same way in config validation and in the policy pack", () => {
    const cases: [string, "untagged" | "latest" | undefined][] = [
      ["busybox", "untagged"],
      ["registry.local:5000/team/app", "untagged"],
      ["repo/iris:latest", "latest"],
      ["registry.local:5000/team/app:1.2", undefined],
      [`busybox@${D}`, undefined],
      [`busybox:latest@${D}`, undefined],
    ];
    for (const [ref, problem] of cases) {
      assert.strictEqual(imagePinProblem(ref), problem, ref);
      assert.strictEqual(imageProblem(ref), problem, `policy ${ref}`);
      const text = checkImageRef(ref);
      assert.strictEqual(
        text === undefined
          ? undefined
          : text.startsWith("has no tag")
            ? "untagged"
            : text.startsWith('uses the tag "latest"')
              ? "latest"
              : text,
        problem,
        `config ${ref}`,
      );
    }
  });
});
