/**
 * kind tier: Kamino for real. `pulumi up` of the fleet stack in Helm mode on two real kind
 * clusters made by KindCluster: `ikofett` hosts Karmada installed by the real chart
 * (charts/karmada of github.com/karmada-io/karmada@v1.18.2, images built by
 * testbed/kind-tier/karmada-images.sh and pulled through the mirror), its API reached from this host
 * through the NodePort and kind's port mapping; `ikoclone` is joined in Push mode by its peer
 * endpoint. The IKO stand-in runs on both; the federated IrisCluster is reconciled on ikoclone.
 */
import * as assert from "assert";
import * as k8s from "@kubernetes/client-node";
import { Clients, clientsFromText, maybe, waitFor } from "../lab/kube";
import { PulumiCli } from "../lab/pulumi-cli";
import { LabStack } from "../lab/stacks";
import {
  containersNamed,
  docker,
  KARMADA_HOST_DEPLOYMENTS,
  KARMADA_HOST_NAMESPACE,
  karmadaTierEnv,
  kindFleetConfig,
  printKarmadaDiagnostics,
  sh,
  standinImages,
  tierEnv,
  kindPulumiCli,
} from "./tier";
import { stopAfterFirstFailure } from "../steps";

const HOST = "ikofett";
const MEMBER = "ikoclone";
const STACK = "kindtest-fleet-helm";
const env = tierEnv();
const kenv = karmadaTierEnv();
const IRIS = {
  group: "intersystems.com",
  version: "v1alpha1",
  plural: "irisclusters",
  namespace: "default",
  name: "federated-iris",
};
const LICENSE = "IRIS-LICENSE-KEY-kind-0123456789abcdef";
const SHHHH = { password: "s3cr3t-shhhh-kind-42" };
/** The release's namespace on the host (KARMADA_NAMESPACE: not karmada-system, see its note). */
const HOST_NS = KARMADA_HOST_NAMESPACE;
const KARMADA_DEPLOYMENTS = KARMADA_HOST_DEPLOYMENTS;

type Obj = Record<string, unknown> & {
  metadata?: { name?: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

function condition(
  o: { status?: { conditions?: { type: string; status: string; lastTransitionTime?: unknown }[] } } | undefined,
  type: string,
) {
  return o?.status?.conditions?.find((c) => c.type === type);
}

describe("kind tier: fleet in Helm mode (the real Karmada v1.18.2 chart on ikofett, ikoclone joined in Push mode)", function () {
  // Each step builds on the one before: the first failure ends the run (the after hook still cleans up).
  stopAfterFirstFailure(this);
  let cli: PulumiCli;
  let stack: LabStack;
  let host: Clients;
  let member: Clients;
  let karmada: Clients;
  let upStarted = 0;
  let upDone = 0;
  const kind = (...args: string[]) => sh(env.KIND_BIN, args);

  before(async () => {
    cli = kindPulumiCli(env);
    for (const name of [HOST, MEMBER]) kind("delete", "cluster", "--name", name);
    stack = new LabStack(cli, STACK, "Pulumi.fleet.yaml", kindFleetConfig(HOST, MEMBER, kenv, env));
    await stack.init();
    await cli.ok(["config", "set", "--secret", "--stack", STACK, "irisLicenseKey", LICENSE]);
    await cli.ok(["config", "set", "--secret", "--stack", STACK, "shhhhSecretData", JSON.stringify(SHHHH)]);
  });

  // A failure (e.g. the Karmada API not serving its groups in time) is read before the clusters go.
  afterEach(function () {
    if (this.currentTest?.state === "failed") printKarmadaDiagnostics(HOST);
  });

  after(async () => {
    if (stack) {
      await cli.run(["destroy", "--yes", "--skip-preview", "--continue-on-error", "--stack", STACK]);
      await stack.remove();
    }
    for (const name of [HOST, MEMBER]) kind("delete", "cluster", "--name", name);
    cli?.dispose();
  });

  it("up installs the chart: its jobs complete and every Karmada Deployment is Available", async () => {
    upStarted = Date.now();
    await stack.up();
    upDone = Date.now();
    const kcs = JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>;
    host = clientsFromText(kcs[HOST]);
    member = clientsFromText(kcs[MEMBER]);
    const jobs = (await host.config.makeApiClient(k8s.BatchV1Api).listNamespacedJob({ namespace: HOST_NS })).items;
    // The pre-install hook job is deleted by Helm once it succeeded (hook-delete-policy); the
    // static-resource job has a 10 s TTL. What remains must have succeeded.
    for (const j of jobs)
      assert.ok((j.status?.succeeded ?? 0) >= 1, `job ${j.metadata?.name} succeeded: ${JSON.stringify(j.status)}`);
    const secrets = (await host.core.listNamespacedSecret({ namespace: HOST_NS })).items.map((s) => s.metadata?.name);
    for (const s of ["karmada-cert", "karmada-webhook-cert", "karmada-kubeconfig"])
      assert.ok(secrets.includes(s), `the pre-install job wrote Secret ${s}`);
    const deployments = (await host.apps.listNamespacedDeployment({ namespace: HOST_NS })).items;
    assert.deepStrictEqual(deployments.map((d) => d.metadata?.name).sort(), KARMADA_DEPLOYMENTS);
    for (const d of deployments)
      assert.strictEqual(
        condition(d as { status?: { conditions?: { type: string; status: string }[] } }, "Available")?.status,
        "True",
        `${d.metadata?.name} Available`,
      );
    // The aggregated apiserver's Service is headless (KarmadaControlPlane's post-renderer): the
    // APIService's ExternalName resolves to its Ready pod, never through a ClusterIP.
    const aggregated = await host.core.readNamespacedService({
      name: "karmada-aggregated-apiserver",
      namespace: HOST_NS,
    });
    assert.strictEqual(aggregated.spec?.clusterIP, "None", "karmada-aggregated-apiserver is headless");
    const etcd = await host.apps.readNamespacedStatefulSet({ name: "etcd", namespace: HOST_NS });
    assert.strictEqual(etcd.status?.readyReplicas, 1, "etcd Ready");
    // Every image came from the mirror or the node image: none is a `latest`.
    const pods = (await host.core.listNamespacedPod({ namespace: HOST_NS })).items;
    for (const p of pods)
      for (const c of [...(p.spec?.containers ?? []), ...(p.spec?.initContainers ?? [])])
        assert.doesNotMatch(String(c.image), /:latest$|^[^:]+$/, `${p.metadata?.name}/${c.name} pinned`);
    // Chart install: from the release namespace's creation to the last Deployment turning Available.
    const nsCreated = Date.parse(
      String((await host.core.readNamespace({ name: HOST_NS })).metadata?.creationTimestamp),
    );
    const available = Math.max(
      ...deployments.map((d) =>
        Date.parse(
          String(
            condition(
              d as { status?: { conditions?: { type: string; status: string; lastTransitionTime?: unknown }[] } },
              "Available",
            )?.lastTransitionTime,
          ),
        ),
      ),
    );
    console.log(
      `      up (clusters, IKO, chart, join, federated objects): ${secs(upDone - upStarted)}; chart install (namespace to every Deployment Available): ${secs(available - nsCreated)}`,
    );
  });

  it("the apiserver runs with the post-renderer's readiness probe (1 s, then every 2 s; the chart says 10 and 10)", async () => {
    const d = await host.apps.readNamespacedDeployment({ name: "karmada-apiserver", namespace: HOST_NS });
    const c = d.spec?.template.spec?.containers.find((x) => x.name === "karmada-apiserver");
    const probe = c?.readinessProbe;
    assert.deepStrictEqual(
      [probe?.initialDelaySeconds, probe?.periodSeconds, probe?.httpGet?.path, c?.livenessProbe?.initialDelaySeconds],
      [1, 2, "/readyz", 10],
      `readiness probe: ${JSON.stringify(probe)}`,
    );
  });

  it("the rendered controller-manager runs with our flags and pinned image", async () => {
    const d = await host.apps.readNamespacedDeployment({ name: "karmada-controller-manager", namespace: HOST_NS });
    const c = d.spec?.template.spec?.containers[0];
    assert.ok(c?.command?.includes("--controllers=*,-unifiedAuth"), `controller flags: ${JSON.stringify(c?.command)}`);
    assert.strictEqual(c?.image, kenv.KARMADA_IMAGE_CONTROLLER_MANAGER);
    const api = await host.core.readNamespacedService({ name: "karmada-apiserver", namespace: HOST_NS });
    assert.deepStrictEqual([api.spec?.type, api.spec?.ports?.[0].nodePort], ["NodePort", 32443]);
  });

  it("karmadaKubeconfig works from this host (the NodePort through kind's port mapping, 127.0.0.1 in the SANs)", async () => {
    const text = await stack.output("karmadaKubeconfig");
    const kc = new k8s.KubeConfig();
    kc.loadFromString(text);
    assert.strictEqual(kc.getCurrentCluster()?.server, "https://127.0.0.1:32443");
    karmada = clientsFromText(text);
    const apis = await kc.makeApiClient(k8s.ApisApi).getAPIVersions();
    const groups = apis.groups.map((g) => g.name);
    for (const g of ["cluster.karmada.io", "policy.karmada.io", "work.karmada.io", "config.karmada.io"])
      assert.ok(groups.includes(g), `the Karmada API serves ${g}`);
    const state = await stack.exportState();
    const key = kc.getCurrentUser()?.keyData ?? "";
    assert.ok(key.length > 0 && !state.includes(key), "the Karmada client key is not in the state in plaintext");
  });

  it("the member joined by its peer endpoint becomes Ready", async () => {
    const c = await waitFor(
      `Cluster ${MEMBER} Ready`,
      async () => {
        const o = await maybe(
          () =>
            karmada.custom.getClusterCustomObject({
              group: "cluster.karmada.io",
              version: "v1alpha1",
              plural: "clusters",
              name: MEMBER,
            }) as Promise<Obj>,
        );
        return condition(o as { status?: { conditions?: { type: string; status: string }[] } }, "Ready")?.status ===
          "True"
          ? o
          : undefined;
      },
      180_000,
      2000,
    );
    assert.deepStrictEqual([c.spec?.syncMode, c.spec?.apiEndpoint], ["Push", `https://${MEMBER}-control-plane:6443`]);
    assert.strictEqual(c.spec?.id, (await member.core.readNamespace({ name: "kube-system" })).metadata?.uid);
    const created = Date.parse(String((c.metadata as { creationTimestamp?: string }).creationTimestamp));
    const ready = Date.parse(
      String(
        condition(
          c as { status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] } },
          "Ready",
        )?.lastTransitionTime,
      ),
    );
    console.log(`      join to Ready: ${secs(ready - created)}`);
  });

  it("the federated IrisCluster lands on ikoclone, is reconciled there by the stand-in, its status aggregated onto the template and judged healthy", async () => {
    const t0 = Date.now();
    const onMember = await waitFor(
      "federated-iris on ikoclone",
      () => maybe(() => member.custom.getNamespacedCustomObject(IRIS) as Promise<Obj>),
      180_000,
      2000,
    );
    const landed = Date.now();
    assert.strictEqual((onMember.spec?.topology as { data: { image: string } }).data.image, standinImages(env).iris);
    await waitFor(
      "the stand-in reports Running and Ready on ikoclone",
      async () => {
        const o = await maybe(() => member.custom.getNamespacedCustomObject(IRIS) as Promise<Obj>);
        return (
          o?.status?.phase === "Running" &&
          condition(o as { status?: { conditions?: { type: string; status: string }[] } }, "Ready")?.status === "True"
        );
      },
      420_000,
      3000,
    );
    const reconciled = Date.now();
    const pod = await member.core.readNamespacedPod({ name: "federated-iris-data-0", namespace: "default" });
    assert.strictEqual(pod.status?.phase, "Running");
    await waitFor(
      "Running aggregated onto the template in Karmada",
      async () => {
        const t = (await karmada.custom.getNamespacedCustomObject(IRIS)) as Obj;
        return (
          t.status?.phase === "Running" &&
          JSON.stringify(t.status?.members) === JSON.stringify([{ clusterName: MEMBER, phase: "Running" }])
        );
      },
      120_000,
      2000,
    );
    const binding = await waitFor(
      "Healthy in the ResourceBinding",
      async () => {
        const b = await maybe(
          () =>
            karmada.custom.getNamespacedCustomObject({
              group: "work.karmada.io",
              version: "v1alpha2",
              plural: "resourcebindings",
              namespace: "default",
              name: "federated-iris-iriscluster",
            }) as Promise<Obj>,
        );
        return (b?.status?.aggregatedStatus as { health?: string }[] | undefined)?.[0]?.health === "Healthy"
          ? b
          : undefined;
      },
      120_000,
      2000,
    );
    assert.strictEqual((binding.status?.aggregatedStatus as { clusterName: string }[])[0].clusterName, MEMBER);
    console.log(
      `      propagation: the IrisCluster on ikoclone ${secs(landed - upDone)} after up returned (${secs(landed - t0)} of waiting here), reconciled there ${secs(reconciled - landed)} later`,
    );
  });

  it("the license Secret and the FleetSecret arrive on ikoclone", async () => {
    const license = await waitFor(
      "the license Secret",
      () => maybe(() => member.core.readNamespacedSecret({ name: "federated-iris-license", namespace: "default" })),
      120_000,
      2000,
    );
    assert.strictEqual(Buffer.from(license.data?.["iris.key"] ?? "", "base64").toString("utf8"), LICENSE);
    const shhhh = await waitFor(
      "shhhh-secret",
      () => maybe(() => member.core.readNamespacedSecret({ name: "shhhh-secret", namespace: "default" })),
      120_000,
      2000,
    );
    assert.strictEqual(Buffer.from(shhhh.data?.password ?? "", "base64").toString("utf8"), SHHHH.password);
    assert.strictEqual(
      await maybe(() => host.core.readNamespacedSecret({ name: "shhhh-secret", namespace: "default" })),
      undefined,
      "not on the (unjoined) host",
    );
    const state = await stack.exportState();
    for (const s of [LICENSE, SHHHH.password]) assert.ok(!state.includes(s), "no plaintext secret in the state");
  });

  it("a second up changes nothing", async () => {
    await stack.preview(["--expect-no-changes"]);
    const res = await stack.up(["--expect-no-changes"]);
    assert.doesNotMatch(res.stdout, /\b(created|updated|replaced|deleted)\b/, res.stdout);
  });

  it("ikoclone replaced by a config change (workers 0 -> 1): the preview replaces the cluster and its join; afterwards it is Ready in Karmada with the new kube-system UID, the IrisCluster propagated and Running on it", async () => {
    const oldUid = (await member.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    stack.edit((c) => {
      ((c["iko-plus:clusters"] as Record<string, unknown>[])[1] as Record<string, unknown>).workers = 1;
    });
    const preview = await stack.preview(["--json"]);
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps;
    const replaced = steps
      .filter((x) => x.op === "replace" || x.op === "create-replacement")
      .map((x) => x.urn.split("::").pop());
    for (const name of [`${MEMBER}-kind`, `${MEMBER}-k8s`, `${MEMBER}-member-cluster`, `${MEMBER}-member-member-token`])
      assert.ok(replaced.includes(name), `the preview replaces ${name}: ${JSON.stringify(replaced)}`);
    for (const name of [`${HOST}-kind`, `${HOST}-k8s`])
      assert.ok(!replaced.includes(name), `the preview keeps ${name}: ${JSON.stringify(replaced)}`);
    const t0 = Date.now();
    await stack.up();
    upDone = Date.now();
    member = clientsFromText((JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>)[MEMBER]);
    const uid = (await member.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    assert.notStrictEqual(uid, oldUid, "a new member cluster");
    const c = await waitFor(
      `Cluster ${MEMBER} Ready again`,
      async () => {
        const o = (await maybe(() =>
          karmada.custom.getClusterCustomObject({
            group: "cluster.karmada.io",
            version: "v1alpha1",
            plural: "clusters",
            name: MEMBER,
          }),
        )) as Obj | undefined;
        return condition(o as { status?: { conditions?: { type: string; status: string }[] } }, "Ready")?.status ===
          "True"
          ? o
          : undefined;
      },
      180_000,
      2000,
    );
    assert.strictEqual(c.spec?.id, uid, "the Cluster carries the new cluster's kube-system UID");
    await waitFor(
      "the stand-in reports Running and Ready on the new ikoclone",
      async () => {
        const o = await maybe(() => member.custom.getNamespacedCustomObject(IRIS) as Promise<Obj>);
        return (
          o?.status?.phase === "Running" &&
          condition(o as { status?: { conditions?: { type: string; status: string }[] } }, "Ready")?.status === "True"
        );
      },
      420_000,
      3000,
    );
    console.log(
      `      replacement: up ${secs(upDone - t0)}, the IrisCluster Running on the new member ${secs(Date.now() - upDone)} later`,
    );
    await stack.preview(["--expect-no-changes"]);
  });

  it("memory of the two clusters (docker stats)", () => {
    const out = docker(
      "stats",
      "--no-stream",
      "--format",
      "{{.Name}} {{.MemUsage}}",
      ...containersNamed([`${HOST}-`, `${MEMBER}-`]),
    ).stdout.trim();
    console.log(
      out
        .split("\n")
        .map((l) => `      ${l}`)
        .join("\n"),
    );
    assert.ok(out.includes(`${HOST}-control-plane`) && out.includes(`${MEMBER}-control-plane`));
  });

  it("destroy unjoins (the Cluster goes, the member's copies with it), uninstalls the chart and leaves no container", async () => {
    const res = await stack.destroy();
    for (const line of [
      /cluster\.karmada\.io\/v1alpha1:Cluster ikoclone-member-cluster deleted/,
      /helm\.sh\/v3:Release karmada-karmada deleted/,
      /dynamic\/kind:Cluster ikofett-kind deleted/,
      /dynamic\/kind:Cluster ikoclone-kind deleted/,
    ]) {
      assert.match(res.stdout, line);
    }
    assert.deepStrictEqual(containersNamed([`${HOST}-`, `${MEMBER}-`]), []);
    assert.deepStrictEqual(
      kind("get", "clusters")
        .stdout.split("\n")
        .filter((n) => n === HOST || n === MEMBER),
      [],
    );
    const state = await stack.exportState();
    for (const t of [
      "cluster.karmada.io/v1alpha1:Cluster",
      "helm.sh/v3:Release",
      "intersystems.com/v1alpha1:IrisCluster",
    ])
      assert.ok(!state.includes(t), `no ${t} left in the state`);
  });
});
