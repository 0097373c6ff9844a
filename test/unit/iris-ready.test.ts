/**
 * Unit (pure): what the IrisCluster readiness wait reads from pods and says when it gives up
 * (components/iris/ready.ts).
 */
import * as assert from "assert";
import { irisReadyTimeoutMessage, pullFailureMessage, pullFailures, specImages } from "../../components/iris";

const pod = (
  name: string,
  waiting?: { reason: string; message?: string },
  image = "iko-plus-registry:5000/x/iris:1",
) => ({
  metadata: { name },
  spec: { containers: [{ name: "iris", image }] },
  status: { containerStatuses: [{ name: "iris", image, state: waiting ? { waiting } : { running: {} } }] },
});

describe("IrisCluster readiness wait: pods that cannot pull, and the messages (components/iris/ready.ts)", () => {
  it("finds the IrisCluster's pods that cannot pull an image, and only those", () => {
    const list = {
      items: [
        pod("iris-a-data-0", { reason: "ImagePullBackOff", message: 'Back-off pulling image "x/iris:1"' }),
        pod("iris-a-data-1"),
        pod("iris-ab-data-0", { reason: "ErrImagePull" }),
        pod("other-0", { reason: "ErrImagePull" }),
        pod("iris-a-compute-0", { reason: "ContainerCreating" }),
        pod("iris-a-arbiter-0", { reason: "InvalidImageName", message: "bad" }, "UPPER/case"),
      ],
    };
    assert.deepStrictEqual(pullFailures(list, "iris-a"), [
      { pod: "iris-a-arbiter-0", container: "iris", image: "UPPER/case", reason: "InvalidImageName", message: "bad" },
      {
        pod: "iris-a-data-0",
        container: "iris",
        image: "iko-plus-registry:5000/x/iris:1",
        reason: "ImagePullBackOff",
        message: 'Back-off pulling image "x/iris:1"',
      },
    ]);
    assert.deepStrictEqual(pullFailures({}, "iris-a"), []);
    assert.deepStrictEqual(pullFailures(undefined, "iris-a"), []);
  });

  it("the pull failure names the pod, the image, the kubelet's words and the mirror to push it to", () => {
    const failures = pullFailures(
      { items: [pod("iris-a-data-0", { reason: "ErrImagePull", message: "not found" })] },
      "iris-a",
    );
    assert.strictEqual(
      pullFailureMessage(
        { clusterName: "ikowork", namespace: "default", name: "iris-a", mirror: "http://iko-plus-registry:5000" },
        failures,
      ),
      "IrisCluster default/iris-a on ikowork cannot start: pod iris-a-data-0 (container iris) cannot pull " +
        "iko-plus-registry:5000/x/iris:1: ErrImagePull: not found; ikowork pulls through the registry mirror " +
        "http://iko-plus-registry:5000: push iko-plus-registry:5000/x/iris:1 there (or fix the image in irisClusters), then run up again",
    );
    assert.match(
      pullFailureMessage({ clusterName: "ikowork", namespace: "default", name: "iris-a" }, failures),
      /; check that iko-plus-registry:5000\/x\/iris:1 exists and that ikowork can reach its registry/,
    );
  });

  it("a pod left with an image the spec no longer names (a StatefulSet stuck on a bad image): the fix is to delete it", () => {
    const spec = { spec: { topology: { data: { image: "x/iris:2" }, compute: [{ image: "x/iris:2" }] }, image: 3 } };
    assert.deepStrictEqual(specImages(spec), ["x/iris:2"]);
    assert.deepStrictEqual(specImages(undefined), []);
    const failures = pullFailures(
      { items: [pod("iris-a-data-0", { reason: "ImagePullBackOff" }, "x/iris:bad")] },
      "iris-a",
    );
    assert.strictEqual(
      pullFailureMessage({ clusterName: "ikowork", namespace: "default", name: "iris-a" }, failures, specImages(spec)),
      "IrisCluster default/iris-a on ikowork cannot start: pod iris-a-data-0 still has the image x/iris:bad, which its " +
        "spec no longer names (ImagePullBackOff); a StatefulSet does not replace a pod that never became Ready: delete it " +
        "(kubectl -n default delete pod iris-a-data-0) and run up again",
    );
    assert.match(
      pullFailureMessage({ clusterName: "ikowork", namespace: "default", name: "iris-a" }, failures, ["x/iris:bad"]),
      /cannot pull x\/iris:bad: ImagePullBackOff; check that/,
      "an image the spec names: the image is the problem",
    );
  });

  it("the timeout names the IrisCluster, its last status and where to look", () => {
    assert.strictEqual(
      irisReadyTimeoutMessage(
        { clusterName: "ikowork", namespace: "default", name: "iris-a", timeoutSeconds: 30 },
        "no status yet (no operator has reconciled it)",
      ),
      "IrisCluster default/iris-a on ikowork was not running within 30 s: no status yet (no operator has reconciled it); " +
        "check that the operator runs and reconciles that cluster (npm run status), and the IrisCluster's pods " +
        "(kubectl -n default get pods,events), then run up again",
    );
  });
});
