/**
 * Lab (real pulumi CLI, real kube-apiservers; stand-in IKO chart and CRD): `up` of a wfh stack
 * waits until the operator reports each IrisCluster running (irisClusters[].waitReady). The lab's
 * operator runs no container, so the test plays the operator (it writes the IrisCluster's status
 * through the status subresource) and the kubelet (it writes a pod's container status: a pod bound
 * to a node no kubelet or kwok runs, with ErrImagePull, as a kubelet reports a missing image).
 * The real operator and a real missing image are the kind tier's (test/kind/wfh.test.ts).
 */
import * as assert from "assert";
import { Clients, labClients, labKubeconfigPath, maybe, waitFor } from "./kube";
import { PulumiCli } from "./pulumi-cli";
import { LabStack } from "./stacks";

const IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";
const GROUP = { group: "intersystems.com", version: "v1alpha1", namespace: "default", plural: "irisclusters" };

describe("lab: up waits for each IrisCluster to run, and fails fast when its pods cannot pull (real pulumi)", function () {
  this.timeout(15 * 60_000);
  let cli: PulumiCli;
  let stack: LabStack;
  let work: Clients;
  const irisClusters = (names: string[]) =>
    names.map((name) => ({ name, image: IMAGE, serviceType: "ClusterIP", waitReady: true, readyTimeoutSeconds: 300 }));
  const setIrisClusters = (names: string[]) =>
    stack.edit((c) => {
      c["iko-plus:irisClusters"] = irisClusters(names);
    });
  const exists = (name: string) => maybe(() => work.custom.getNamespacedCustomObject({ ...GROUP, name }));

  before(async () => {
    cli = new PulumiCli();
    work = labClients("ikowork");
    stack = new LabStack(cli, "labtest-iris-ready", "Pulumi.lab-wfh.yaml", {
      "iko-plus:home": { name: "ikohome", kubeconfigPath: labKubeconfigPath("ikohome") },
      "iko-plus:work": { name: "ikowork", kubeconfigPath: labKubeconfigPath("ikowork") },
      "iko-plus:irisClusters": irisClusters(["iris-ready"]),
    });
    await stack.init();
  });

  after(async () => {
    await work.core.deleteNamespacedPod({ name: "iris-pull-data-0", namespace: "default" }).catch(() => undefined);
    await stack?.destroy().catch(() => undefined);
    await stack?.remove();
    cli?.dispose();
  });

  it("up does not return while the IrisCluster has no status, and returns once the operator reports it Running", async () => {
    let settled = false;
    const up = stack.up().finally(() => {
      settled = true;
    });
    const obj = (await waitFor("the IrisCluster at work", () => exists("iris-ready"), 180_000)) as Record<
      string,
      unknown
    >;
    await new Promise((r) => setTimeout(r, 8000));
    assert.strictEqual(settled, false, "up still waits: nothing has reported the IrisCluster running");
    await work.custom.replaceNamespacedCustomObjectStatus({
      ...GROUP,
      name: "iris-ready",
      body: { ...obj, status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] } },
    });
    const res = await up;
    assert.match(res.stdout, /IrisClusterReady +iriscluster-default-iris-ready-ready +created/);
  });

  it("a pod of a new IrisCluster that cannot pull its image fails up within about half a minute, naming the pod, the image and the kubelet's error", async () => {
    setIrisClusters(["iris-ready", "iris-pull"]);
    const up = cli.run(["up", "--yes", "--skip-preview", "--stack", stack.name]);
    await waitFor("the second IrisCluster at work", () => exists("iris-pull"), 180_000);
    // What a kubelet reports for an image the registry does not have.
    const image = IMAGE; // the image its spec names, which (the kubelet says) the registry lacks
    const pod = await work.core.createNamespacedPod({
      namespace: "default",
      body: {
        metadata: { name: "iris-pull-data-0" },
        spec: { nodeName: "no-kubelet-here", containers: [{ name: "iris", image }] },
      },
    });
    const t0 = Date.now();
    await work.core.replaceNamespacedPodStatus({
      name: "iris-pull-data-0",
      namespace: "default",
      body: {
        ...pod,
        status: {
          phase: "Pending",
          containerStatuses: [
            {
              name: "iris",
              image,
              imageID: "",
              ready: false,
              restartCount: 0,
              state: {
                waiting: { reason: "ErrImagePull", message: `failed to pull and unpack image "${image}": not found` },
              },
            },
          ],
        },
      },
    });
    const res = await up;
    const took = (Date.now() - t0) / 1000;
    assert.notStrictEqual(res.code, 0, "up fails");
    assert.ok(
      took < 75,
      `failed ${took.toFixed(0)} s after the pull error (the grace is 30 s), not after the 300 s timeout`,
    );
    const out = res.stdout + res.stderr;
    assert.match(
      out,
      new RegExp(
        `IrisCluster default/iris-pull on ikowork cannot start: pod iris-pull-data-0 \\(container iris\\) cannot pull ${image.replace(/[.:/]/g, "\\$&")}: ErrImagePull: failed to pull and unpack image`,
      ),
    );
    assert.match(out, /check that \S+ exists and that ikowork can reach its registry/);
    await work.core.deleteNamespacedPod({ name: "iris-pull-data-0", namespace: "default" });
  });

  it("the IrisCluster it could not start taken out of the config: up converges", async () => {
    setIrisClusters(["iris-ready"]);
    await stack.up();
    assert.strictEqual(await exists("iris-pull"), undefined);
    await stack.preview(["--expect-no-changes"]);
  });
});
