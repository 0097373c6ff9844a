/**
 * Cilium ClusterMesh on kind, declared by the wfh stack program (`mesh: {clusters: [mesh-a,
 * mesh-b]}`): two one-node kind clusters with real Cilium, installed at the version it upgrades
 * from (CILIUM_UPGRADE_SOURCES, 1.18.0; chart and images as in cilium-wfh.test.ts), unique Cilium
 * ids, names, pod and service ranges. The stack gives each
 * cluster the clustermesh-apiserver behind NodePort 32379 on the kind network, certificates from
 * one CA generated in the stack, and the other's endpoint. Then, with workloads applied by kubectl
 * (not part of the stack):
 *   (a) a global Service in mesh-a with no pods of its own answers from a pod in mesh-a, by its
 *       cluster DNS name, from the pods behind its twin in mesh-b;
 *   (b) an IRIS-mirror-shaped pair (an IRIS stand-in pod in each cluster, plus a probe container)
 *       reach each other's superserver port through global Services: ClusterIP only, no
 *       LoadBalancer, no host port, no host network;
 *   (upgrade) the chart moved to CILIUM_VERSION (1.18.6) in the stack's config and `up`: the
 *       preview updates, replaces nothing; a client in mesh-a calls the global Service (answered
 *       from mesh-b) all through the agents' roll, and none of its requests fails; no node,
 *       cluster or workload pod is replaced; every agent runs the new version and the mesh
 *       carries; (c) and (d) run on the upgraded mesh;
 *   (c) a second `up` with mesh-b taken out of the mesh: both stop answering;
 *   (d) a third with mesh-b back at an address mesh-a cannot reach: `up` fails within
 *       `mesh.readyTimeoutSeconds`, naming mesh-a's agent and mesh-b (ClusterMeshReady).
 */
import * as assert from "assert";
import * as k8s from "@kubernetes/client-node";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as child from "child_process";
import { CILIUM_UPGRADE_SOURCES, CILIUM_VERSION } from "../../components/cilium";
import { MESH_PROBE_SERVICE, serviceBackends } from "../../components/cilium/mesh-ready";
import { Clients, clientsFromText, waitFor } from "../lab/kube";
import { PulumiCli } from "../lab/pulumi-cli";
import { LabStack } from "../lab/stacks";
import { ciliumChartDir } from "../unit/cilium-chart";
import {
  containersNamed,
  docker,
  hostLacksCapabilities,
  kindWfhConfig,
  sh,
  standinImages,
  tierEnv,
  kindPulumiCli,
  printMeshDiagnostics,
} from "./tier";

const A = "mesh-a";
const B = "mesh-b";
const STACK = "kindtest-cilium-mesh";
const NS = "meshtest";
/** The version the mesh is installed at, then upgraded from. */
const FROM = CILIUM_UPGRADE_SOURCES[0];
/** The agent image of FROM, also the probe containers' image (bash and /dev/tcp). */
const AGENT_IMAGE = `quay.io/cilium/cilium:v${FROM}`;
const env = tierEnv();

/** A Service, global across the mesh; `selector` app label. */
function globalService(name: string, port: number): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: NS, annotations: { "service.cilium.io/global": "true" } },
    spec: { type: "ClusterIP", selector: { app: name }, ports: [{ name: "p", port, targetPort: port }] },
  };
}

/** A pod of the IRIS stand-in (superserver 1972, web 52773) with a probe container beside it. */
function standinPod(name: string, app: string, image: string): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: NS, labels: { app } },
    spec: {
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: "iris",
          image,
          ports: [{ containerPort: 1972 }, { containerPort: 52773 }],
          readinessProbe: { tcpSocket: { port: 1972 }, periodSeconds: 2 },
        },
        { name: "probe", image: AGENT_IMAGE, imagePullPolicy: "IfNotPresent", command: ["sleep", "infinity"] },
      ],
    },
  };
}

const list = (...items: Record<string, unknown>[]) => JSON.stringify({ apiVersion: "v1", kind: "List", items });
const namespace = { apiVersion: "v1", kind: "Namespace", metadata: { name: NS } };

describe(`kind tier: Cilium ClusterMesh between two kind clusters, declared by the wfh stack (mesh), upgraded ${FROM} -> ${CILIUM_VERSION}`, function () {
  let cli: PulumiCli;
  const clients: Record<string, Clients> = {};
  const kubeconfigFiles: Record<string, string> = {};
  let stack: LabStack;
  let tmp = "";
  let upReturned = 0;
  const kind = (...args: string[]) => sh(env.KIND_BIN, args);
  const kubectl = (cluster: string, args: string[], input?: string) =>
    sh(env.KUBECTL_BIN, ["--kubeconfig", kubeconfigFiles[cluster], ...args], { input });
  /** One TCP exchange from a container: the first line answered, or undefined. */
  const ask = (cluster: string, pod: string, host: string, port: number, http: boolean) => {
    const send = http ? "printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && tail -n 1 <&3" : "head -n 1 <&3";
    const res = kubectl(cluster, [
      "-n",
      NS,
      "exec",
      pod,
      "-c",
      "probe",
      "--",
      "timeout",
      "4",
      "bash",
      "-c",
      `exec 3<>/dev/tcp/${host}/${port} && ${send}`,
    ]);
    return res.code === 0 && res.stdout.trim() !== "" ? res.stdout.trim() : undefined;
  };
  const agents = async (cluster: string) =>
    (
      await clients[cluster].core.listNamespacedPod({ namespace: "kube-system", labelSelector: "k8s-app=cilium" })
    ).items.map((p) => p.metadata?.name as string);
  const agent = async (cluster: string) => (await agents(cluster))[0];

  // A failed step (a global Service not carried across) prints what each side's agents and
  // clustermesh-apiserver hold, before the clusters go.
  afterEach(function () {
    if (this.currentTest?.state === "failed") printMeshDiagnostics([A, B]);
  });

  before(async () => {
    cli = kindPulumiCli(env);
    for (const name of [A, B]) kind("delete", "cluster", "--name", name);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-mesh-test-"));
    const chartPath = ciliumChartDir(`v${FROM}`);
    const config = kindWfhConfig(A, B, "unused", env);
    const cilium = (clusterId: number) => ({
      enabled: true,
      clusterId,
      chartPath,
      moduleImages: true,
      dropCapabilities: hostLacksCapabilities(),
    });
    config["iko-plus:home"] = {
      ...(config["iko-plus:home"] as object),
      workers: 0,
      podSubnet: "10.245.0.0/16",
      serviceSubnet: "10.97.0.0/16",
      cilium: cilium(21),
    };
    config["iko-plus:work"] = {
      ...(config["iko-plus:work"] as object),
      workers: 0,
      podSubnet: "10.246.0.0/16",
      serviceSubnet: "10.98.0.0/16",
      cilium: cilium(22),
    };
    config["iko-plus:irisClusters"] = [];
    config["iko-plus:mesh"] = { clusters: [A, B] };
    stack = new LabStack(cli, STACK, "Pulumi.dev.yaml", config);
    await stack.init();
  });

  after(async () => {
    if (stack) {
      await cli.run(["destroy", "--yes", "--skip-preview", "--stack", STACK]);
      await stack.remove();
    }
    for (const name of [A, B]) kind("delete", "cluster", "--name", name);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    cli?.dispose();
  });

  it("up: the clustermesh-apiserver on each behind NodePort 32379, our certificate Secrets, the peer's endpoint, no key in plain text in the state", async () => {
    const start = Date.now();
    await stack.up();
    upReturned = Date.now();
    console.log(`      up (two clusters, Cilium with the mesh, IKO): ${((upReturned - start) / 1000).toFixed(0)} s`);
    for (const [name, key] of [
      [A, "homeKubeconfig"],
      [B, "workKubeconfig"],
    ] as const) {
      const text = await stack.output(key);
      clients[name] = clientsFromText(text);
      kubeconfigFiles[name] = path.join(tmp, `${name}.kubeconfig`);
      fs.writeFileSync(kubeconfigFiles[name], text, { mode: 0o600 });
    }
    const meshOut = JSON.parse(await stack.output("clusterMesh")) as { members: string[]; caCertificate: string };
    assert.deepStrictEqual(meshOut.members, [A, B]);
    for (const [name, peer] of [
      [A, B],
      [B, A],
    ]) {
      const c = clients[name];
      const svc = await c.core.readNamespacedService({ name: "clustermesh-apiserver", namespace: "kube-system" });
      assert.deepStrictEqual(
        [svc.spec?.type, svc.spec?.ports?.[0].port, svc.spec?.ports?.[0].nodePort],
        ["NodePort", 2379, 32379],
      );
      const secrets = (await c.core.listNamespacedSecret({ namespace: "kube-system" })).items;
      const byName = new Map(secrets.map((s) => [s.metadata?.name, s]));
      for (const kind of ["server", "admin", "local", "remote"]) {
        const s = byName.get(`clustermesh-apiserver-${kind}-cert`);
        assert.strictEqual(s?.type, "kubernetes.io/tls", `${name}: ${kind} certificate Secret`);
        assert.strictEqual(s?.metadata?.labels?.["app.kubernetes.io/managed-by"], "iko-plus");
        assert.strictEqual(
          Buffer.from(s?.data?.["ca.crt"] ?? "", "base64").toString(),
          meshOut.caCertificate,
          `${name}: ${kind} carries the mesh CA`,
        );
      }
      const mesh = byName.get("cilium-clustermesh");
      const peerCfg = Buffer.from(mesh?.data?.[peer] ?? "", "base64").toString();
      assert.match(
        peerCfg,
        /clustermesh-apiserver\.kube-system\.svc:2379/,
        `${name}: agents reach ${peer} through the local KVStoreMesh`,
      );
      const kvs = Buffer.from(byName.get("cilium-kvstoremesh")?.data?.[peer] ?? "", "base64").toString();
      assert.match(
        kvs,
        new RegExp(`https://${peer}-control-plane:32379`),
        `${name}: KVStoreMesh reaches ${peer} at its NodePort on the kind network`,
      );
      // The chart's own cilium-ca (Hubble's, generated by Helm) is not the mesh CA: its key stays in the stack.
      assert.notStrictEqual(
        Buffer.from(byName.get("cilium-ca")?.data?.["ca.crt"] ?? "", "base64").toString(),
        meshOut.caCertificate,
        `${name}: no mesh CA key in the cluster`,
      );
    }
    // What `up` returning means for the mesh (ClusterMeshReady): right now, with no wait, every
    // agent of each cluster holds the other cluster's backend of the global probe Service, as
    // Cilium's own load-balancing table shows it.
    const own: Record<string, string[]> = {};
    for (const name of [A, B]) {
      const slices = await clients[name].config.makeApiClient(k8s.DiscoveryV1Api).listNamespacedEndpointSlice({
        namespace: "kube-system",
        labelSelector: `kubernetes.io/service-name=${MESH_PROBE_SERVICE}`,
      });
      own[name] = slices.items.flatMap((sl) => sl.endpoints.flatMap((e) => e.addresses)).sort();
      assert.strictEqual(own[name].length, 1, `${name}: the probe is backed by its clustermesh-apiserver`);
    }
    for (const [name, peer] of [
      [A, B],
      [B, A],
    ]) {
      for (const pod of await agents(name)) {
        const res = kubectl(name, [
          "-n",
          "kube-system",
          "exec",
          pod,
          "-c",
          "cilium-agent",
          "--",
          "cilium-dbg",
          "service",
          "list",
          "-o",
          "json",
        ]);
        const holds = serviceBackends(JSON.parse(res.stdout), { namespace: "kube-system", name: MESH_PROBE_SERVICE });
        assert.deepStrictEqual(
          holds,
          [...own[A], ...own[B]].sort(),
          `${name}'s agent ${pod} holds its own and ${peer}'s probe backend when up returns`,
        );
      }
    }
    const state = await stack.exportState();
    assert.doesNotMatch(state, /BEGIN (RSA )?PRIVATE KEY/, "no private key in plain text in the state");
  });

  it("(a) a global Service in mesh-a with no pods of its own answers from a pod in mesh-a, by its DNS name, from mesh-b's pods", async () => {
    const iris = standinImages(env).iris;
    const echo = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "echo", namespace: NS },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: "echo" } },
        template: { metadata: { labels: { app: "echo" } }, spec: standinPod("echo", "echo", iris).spec },
      },
    };
    const applied = [
      kubectl(
        B,
        ["apply", "-f", "-"],
        list(
          namespace,
          globalService("echo", 52773),
          globalService("mirror-a", 1972),
          globalService("mirror-b", 1972),
          echo,
          standinPod("mirror-b", "mirror-b", iris),
        ),
      ),
      kubectl(
        A,
        ["apply", "-f", "-"],
        list(
          namespace,
          globalService("echo", 52773),
          globalService("mirror-a", 1972),
          globalService("mirror-b", 1972),
          standinPod("client", "client", iris),
          standinPod("mirror-a", "mirror-a", iris),
        ),
      ),
    ];
    for (const r of applied) assert.strictEqual(r.code, 0, r.stderr);
    for (const [c, pods] of [
      [A, ["client", "mirror-a"]],
      [B, ["mirror-b"]],
    ] as const) {
      for (const p of pods)
        assert.strictEqual(
          kubectl(c, ["-n", NS, "wait", "--for=condition=Ready", `pod/${p}`, "--timeout=180s"]).code,
          0,
          `${c}/${p} Ready`,
        );
    }
    const echoPod = (await clients[B].core.listNamespacedPod({ namespace: NS, labelSelector: "app=echo" })).items[0]
      .metadata?.name as string;
    const slices = await clients[A].core.readNamespacedEndpoints({ name: "echo", namespace: NS });
    assert.deepStrictEqual(slices.subsets ?? [], [], "echo has no endpoints of its own in mesh-a");
    const answer = await waitFor(
      "mesh-a's client answered by echo in mesh-b",
      async () => ask(A, "client", `echo.${NS}.svc.cluster.local`, 52773, true),
      240_000,
      1000,
    );
    console.log(
      `      first cross-cluster answer ${((Date.now() - upReturned) / 1000).toFixed(0)} s after up returned (workloads applied and Ready in between)`,
    );
    assert.strictEqual(answer, `IRIS STAND-IN ${echoPod}`);
    const status = kubectl(A, [
      "-n",
      "kube-system",
      "exec",
      await agent(A),
      "-c",
      "cilium-agent",
      "--",
      "cilium-dbg",
      "status",
    ]);
    assert.match(status.stdout, /^ClusterMesh:\s+1\/1 remote clusters ready, [1-9]\d* global-services/m, status.stdout);
  });

  it("(b) an IRIS-mirror-shaped pair talks across the clusters by global Services: no LoadBalancer, no host port, no host network", async () => {
    const fromA = await waitFor(
      "mirror-a reaches mirror-b",
      async () => ask(A, "mirror-a", `mirror-b.${NS}.svc.cluster.local`, 1972, false),
      120_000,
      1000,
    );
    const fromB = await waitFor(
      "mirror-b reaches mirror-a",
      async () => ask(B, "mirror-b", `mirror-a.${NS}.svc.cluster.local`, 1972, false),
      120_000,
      1000,
    );
    assert.deepStrictEqual(
      [fromA, fromB],
      ["IRIS STAND-IN mirror-b superserver", "IRIS STAND-IN mirror-a superserver"],
    );
    for (const c of [A, B]) {
      const services = (await clients[c].core.listServiceForAllNamespaces()).items;
      assert.deepStrictEqual(
        services.filter((s) => s.spec?.type === "LoadBalancer").map((s) => s.metadata?.name),
        [],
        `${c}: no LoadBalancer`,
      );
      const pods = (await clients[c].core.listNamespacedPod({ namespace: NS })).items;
      for (const p of pods) {
        assert.ok(!p.spec?.hostNetwork, `${c}/${p.metadata?.name}: not on the host network`);
        assert.ok(
          p.spec?.containers.every((x) => (x.ports ?? []).every((port) => port.hostPort === undefined)),
          `${c}/${p.metadata?.name}: no host port`,
        );
      }
    }
    assert.deepStrictEqual(containersNamed([`${A}-`, `${B}-`]), [`${A}-control-plane`, `${B}-control-plane`]);
  });

  it("(b') a Service made global after up (annotated in both clusters) answers from mesh-a by mesh-b's pod", async () => {
    const iris = standinImages(env).iris;
    const late = { ...globalService("late", 52773) } as { metadata: { annotations?: Record<string, string> } };
    late.metadata = { ...late.metadata, annotations: {} };
    assert.strictEqual(kubectl(B, ["apply", "-f", "-"], list(late, standinPod("late-b", "late", iris))).code, 0);
    assert.strictEqual(kubectl(A, ["apply", "-f", "-"], list(late)).code, 0);
    assert.strictEqual(
      kubectl(B, ["-n", NS, "wait", "--for=condition=Ready", "pod/late-b", "--timeout=180s"]).code,
      0,
      "late-b Ready",
    );
    // Not global yet: mesh-a's Service has no backend at all.
    assert.strictEqual(ask(A, "client", `late.${NS}.svc.cluster.local`, 52773, true), undefined);
    const annotated = Date.now();
    for (const c of [A, B])
      assert.strictEqual(
        kubectl(c, ["-n", NS, "annotate", "service", "late", "service.cilium.io/global=true"]).code,
        0,
        `${c}: annotated`,
      );
    const answer = await waitFor(
      "mesh-a's client answered by late-b in mesh-b",
      async () => ask(A, "client", `late.${NS}.svc.cluster.local`, 52773, true),
      120_000,
      1000,
    );
    assert.strictEqual(answer, "IRIS STAND-IN late-b");
    console.log(`      answered across ${((Date.now() - annotated) / 1000).toFixed(0)} s after the annotation`);
  });

  it(`(upgrade) Cilium ${FROM} -> ${CILIUM_VERSION} by the chart in the config and up: updates only; a client calling the global Service across all through the roll loses no request; no node, cluster or pod replaced`, async () => {
    const node = (name: string) => docker("inspect", "--format", "{{.Id}}", `${name}-control-plane`).stdout.trim();
    const podIds = async (name: string) =>
      (await clients[name].core.listNamespacedPod({ namespace: NS })).items
        .map(
          (p) =>
            `${p.metadata?.name} ${p.metadata?.uid} ${p.status?.containerStatuses?.map((c) => c.restartCount).join(",")}`,
        )
        .sort();
    const before = {
      nodes: [node(A), node(B)],
      kubeSystem: await Promise.all(
        [A, B].map(async (c) => (await clients[c].core.readNamespace({ name: "kube-system" })).metadata?.uid),
      ),
      pods: [await podIds(A), await podIds(B)],
    };
    const to = ciliumChartDir(`v${CILIUM_VERSION}`);
    stack.edit((c) => {
      for (const key of ["iko-plus:home", "iko-plus:work"])
        (c[key] as { cilium: Record<string, unknown> }).cilium.chartPath = to;
    });
    const preview = await stack.preview(["--json"]);
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps;
    const ops = steps.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.urn.split("::").pop()}`);
    assert.deepStrictEqual(
      ops.filter((o) => !o.startsWith("update ")),
      [],
      `the preview only updates: ${JSON.stringify(ops)}`,
    );
    for (const release of [`${A}-cni-cilium`, `${B}-cni-cilium`])
      assert.ok(
        ops.some((o) => o === `update ${release}`),
        `the preview updates ${release}'s chart: ${JSON.stringify(ops)}`,
      );

    // The client: one request to the global Service every 0.2 s from mesh-a (answered only by
    // mesh-b's echo pod), each with 2 s to answer, until told to stop; every failure is printed.
    const calls = [
      "rm -f /tmp/stop-calls; sent=0; failed=0",
      "while [ ! -e /tmp/stop-calls ]; do",
      "  sent=$((sent + 1))",
      `  r=$(timeout 2 bash -c 'exec 3<>/dev/tcp/echo.${NS}.svc.cluster.local/52773 && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && tail -n 1 <&3' 2>&1)`,
      '  case "$r" in "IRIS STAND-IN "*) ;; *) failed=$((failed + 1)); echo "FAILED $(date +%s.%N) ${r:-no answer}" ;; esac',
      "  sleep 0.2",
      "done",
      'echo "SENT $sent FAILED $failed"',
    ].join("\n");
    const client = child.spawn(env.KUBECTL_BIN, [
      "--kubeconfig",
      kubeconfigFiles[A],
      "-n",
      NS,
      "exec",
      "client",
      "-c",
      "probe",
      "--",
      "bash",
      "-c",
      calls,
    ]);
    let out = "";
    client.stdout.on("data", (d: Buffer) => (out += d.toString()));
    client.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const ended = new Promise<number>((resolve) => client.on("close", (code) => resolve(code ?? 1)));
    await new Promise((r) => setTimeout(r, 5000));
    const start = Date.now();
    try {
      await stack.up();
    } finally {
      const upSecs = (Date.now() - start) / 1000;
      console.log(`      up (both clusters' Cilium ${FROM} -> ${CILIUM_VERSION}): ${upSecs.toFixed(0)} s`);
      // A little longer: the last agent's endpoints settle after the rollout is reported done.
      await new Promise((r) => setTimeout(r, 10_000));
      kubectl(A, ["-n", NS, "exec", "client", "-c", "probe", "--", "touch", "/tmp/stop-calls"]);
    }
    const code = await ended;
    const m = /SENT (\d+) FAILED (\d+)/.exec(out);
    assert.ok(m, `the client's report (exit ${code}): ${out}`);
    const [sent, failed] = [Number(m[1]), Number(m[2])];
    console.log(`      client in ${A} -> global Service (backends in ${B}): ${sent} requests sent, ${failed} failed`);
    assert.ok(sent >= 100, `the client called all through the upgrade: ${sent} requests`);
    assert.strictEqual(failed, 0, out);

    // Nothing replaced: the same node containers, clusters and workload pods, none restarted.
    assert.deepStrictEqual(
      {
        nodes: [node(A), node(B)],
        kubeSystem: await Promise.all(
          [A, B].map(async (c) => (await clients[c].core.readNamespace({ name: "kube-system" })).metadata?.uid),
        ),
        pods: [await podIds(A), await podIds(B)],
      },
      before,
    );
    for (const c of [A, B]) {
      for (const pod of await agents(c)) {
        const p = await clients[c].core.readNamespacedPod({ name: pod, namespace: "kube-system" });
        assert.strictEqual(
          p.spec?.containers.find((x) => x.name === "cilium-agent")?.image,
          `quay.io/cilium/cilium:v${CILIUM_VERSION}`,
          `${c}/${pod} runs the new agent`,
        );
        const status = kubectl(c, [
          "-n",
          "kube-system",
          "exec",
          pod,
          "-c",
          "cilium-agent",
          "--",
          "cilium-dbg",
          "status",
        ]);
        assert.match(
          status.stdout,
          new RegExp(`^Cilium:\\s+Ok\\s+${CILIUM_VERSION.replace(/\./g, "\\.")}`, "m"),
          status.stdout,
        );
        assert.match(status.stdout, /^ClusterMesh:\s+1\/1 remote clusters ready/m, status.stdout);
      }
    }
    await stack.preview(["--expect-no-changes"]);
  });

  it("(c) a second up with mesh-b out of the mesh: the global Service and the pair stop answering across", async () => {
    stack.edit((c) => {
      c["iko-plus:mesh"] = { clusters: [A] };
    });
    const start = Date.now();
    await stack.up();
    const returned = Date.now();
    console.log(`      second up (mesh-b leaves): ${((returned - start) / 1000).toFixed(0)} s`);
    assert.deepStrictEqual(JSON.parse(await stack.output("clusterMesh")).members, [A]);
    const deployments = (await clients[B].apps.listNamespacedDeployment({ namespace: "kube-system" })).items.map(
      (d) => d.metadata?.name,
    );
    assert.ok(
      !deployments.includes("clustermesh-apiserver"),
      `no clustermesh-apiserver on mesh-b: ${deployments.join(", ")}`,
    );
    await waitFor(
      "mesh-a's client no longer answered by echo",
      async () => ask(A, "client", `echo.${NS}.svc.cluster.local`, 52773, true) === undefined,
      240_000,
      2000,
    );
    console.log(
      `      stopped answering ${((Date.now() - returned) / 1000).toFixed(0)} s after the second up returned`,
    );
    await waitFor(
      "mirror-a no longer reaches mirror-b",
      async () => ask(A, "mirror-a", `mirror-b.${NS}.svc.cluster.local`, 1972, false) === undefined,
      120_000,
      2000,
    );
    await waitFor(
      "mirror-b no longer reaches mirror-a",
      async () => ask(B, "mirror-b", `mirror-a.${NS}.svc.cluster.local`, 1972, false) === undefined,
      120_000,
      2000,
    );
    // Each pod still answers in its own cluster: only the mesh is gone.
    assert.strictEqual(
      ask(A, "client", `mirror-a.${NS}.svc.cluster.local`, 1972, false),
      "IRIS STAND-IN mirror-a superserver",
    );
  });

  it("(d) a member the others cannot reach: up fails within mesh.readyTimeoutSeconds, naming the agent and the member it lacks", async () => {
    // mesh-b comes back with an address mesh-a's KVStoreMesh cannot resolve: mesh-a's agent never
    // gets mesh-b's backend (mesh-b's own, freshly installed, may or may not have mesh-a's by then).
    stack.edit((c) => {
      c["iko-plus:mesh"] = {
        clusters: [A, { name: B, address: "mesh-b-unreachable.invalid" }],
        readyTimeoutSeconds: 40,
      };
    });
    const start = Date.now();
    const res = await cli.run(["up", "--yes", "--skip-preview", "--stack", STACK]);
    const secs = (Date.now() - start) / 1000;
    console.log(`      up with an unreachable member failed after ${secs.toFixed(0)} s`);
    assert.notStrictEqual(res.code, 0, "up does not succeed over a mesh that does not carry global Services");
    assert.match(
      res.stdout + res.stderr,
      new RegExp(
        `the Cilium ClusterMesh did not carry the global Service kube-system/${MESH_PROBE_SERVICE} between its members within 40 s: ${A}'s agent cilium-[a-z0-9]+ holds no backend of ${B} \\(lacks [0-9.]+\\)`,
      ),
    );
  });

  it("destroy leaves no kind container of either cluster", async () => {
    await stack.destroy();
    assert.deepStrictEqual(containersNamed([`${A}-`, `${B}-`]), []);
  });
});
