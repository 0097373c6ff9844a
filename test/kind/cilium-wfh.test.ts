/**
 * Real Cilium (CILIUM_VERSION, 1.18.6) on kind: `pulumi up` of the wfh stack with `cilium.enabled: true` on both
 * clusters, the real chart from Cilium's Go module, and the agent, operator and
 * clustermesh-apiserver images built here from that module (testbed/kind-tier/cilium-images.sh) and
 * pulled through the tier's mirror. home keeps kube-proxy; work runs without it
 * (`kubeProxyMode: none`) and Cilium replaces it. No Envoy (not buildable here): the values
 * turn it and the L7 proxy off (`cilium.moduleImages`). Where the host's capability bounding set
 * lacks CAP_SYS_RESOURCE, the agent is not given it (`cilium.dropCapabilities`): containerd in
 * the kind nodes would fail every container that asks for it.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as k8s from "@kubernetes/client-node";
import { CILIUM_VERSION } from "../../components/cilium";
import { Clients, clientsFromText, maybe, waitFor } from "../lab/kube";
import { PulumiCli } from "../lab/pulumi-cli";
import { LabStack } from "../lab/stacks";
import { ciliumChartDir } from "../unit/cilium-chart";
import {
  containersNamed,
  hostLacksCapabilities,
  kindWfhConfig,
  sh,
  standinImages,
  tierEnv,
  kindPulumiCli,
} from "./tier";

const HOME = process.env.IKO_CILIUM_HOME ?? "cilk-home";
const WORK = process.env.IKO_CILIUM_WORK ?? "cilk-work";
const STACK = "kindtest-cilium-wfh";
const IRIS = "iris-at-work";
const POD_SUBNET = { [HOME]: "10.244.0.0/16", [WORK]: "10.245.0.0/16" };
const AGENT_IMAGE = `quay.io/cilium/cilium:v${CILIUM_VERSION}`;
const env = tierEnv();

/** Whether an IPv4 address is inside a CIDR. */
function inCidr(ip: string, cidr: string): boolean {
  const n = (a: string) => a.split(".").reduce((acc, o) => acc * 256 + Number(o), 0);
  const [base, bits] = cidr.split("/");
  const size = 2 ** (32 - Number(bits));
  return Math.floor(n(ip) / size) === Math.floor(n(base) / size);
}

describe(`kind tier: wfh with real Cilium ${CILIUM_VERSION} (images built from its Go module), kube-proxy on home, replaced by Cilium on work`, function () {
  let cli: PulumiCli;
  const clients: Record<string, Clients> = {};
  const kubeconfigFiles: Record<string, string> = {};
  let stack: LabStack;
  let upStart = 0;
  let tmp = "";
  const kind = (...args: string[]) => sh(env.KIND_BIN, args);
  const kubectl = (cluster: string, ...args: string[]) =>
    sh(env.KUBECTL_BIN, ["--kubeconfig", kubeconfigFiles[cluster], ...args]);
  const agentPods = async (cluster: string) =>
    (await clients[cluster].core.listNamespacedPod({ namespace: "kube-system", labelSelector: "k8s-app=cilium" }))
      .items;

  before(async () => {
    cli = kindPulumiCli(env);
    for (const name of [HOME, WORK]) kind("delete", "cluster", "--name", name);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-cilium-test-"));
    const chartPath = ciliumChartDir();
    const config = kindWfhConfig(HOME, WORK, IRIS, env);
    const withCilium = (key: string, name: string, clusterId: number, extra: Record<string, unknown>) => {
      config[key] = {
        ...(config[key] as Record<string, unknown>),
        podSubnet: POD_SUBNET[name],
        cilium: { enabled: true, clusterId, chartPath, moduleImages: true, dropCapabilities: hostLacksCapabilities() },
        ...extra,
      };
    };
    withCilium("iko-plus:home", HOME, 1, {});
    withCilium("iko-plus:work", WORK, 2, { kubeProxyMode: "none" });
    stack = new LabStack(cli, STACK, "Pulumi.dev.yaml", config);
    await stack.init();
  });

  after(async () => {
    if (stack) {
      await cli.run(["destroy", "--yes", "--skip-preview", "--stack", STACK]);
      await stack.remove();
    }
    for (const name of [HOME, WORK]) kind("delete", "cluster", "--name", name);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    cli?.dispose();
  });

  it("up: every node Ready through Cilium (NetworkUnavailable=False by CiliumIsUp), no kindnet, the agent image from the mirror", async () => {
    upStart = Date.now();
    await stack.up();
    const upSeconds = (Date.now() - upStart) / 1000;
    for (const [name, key] of [
      [HOME, "homeKubeconfig"],
      [WORK, "workKubeconfig"],
    ] as const) {
      const text = await stack.output(key);
      clients[name] = clientsFromText(text);
      kubeconfigFiles[name] = path.join(tmp, `${name}.kubeconfig`);
      fs.writeFileSync(kubeconfigFiles[name], text, { mode: 0o600 });
    }
    for (const name of [HOME, WORK]) {
      const c = clients[name];
      const nodes = (await c.core.listNode()).items;
      assert.deepStrictEqual(nodes.map((n) => n.metadata?.name).sort(), [`${name}-control-plane`, `${name}-worker`]);
      for (const n of nodes) {
        assert.strictEqual(
          n.status?.conditions?.find((x) => x.type === "Ready")?.status,
          "True",
          `${n.metadata?.name} Ready`,
        );
        const net = n.status?.conditions?.find((x) => x.type === "NetworkUnavailable");
        assert.deepStrictEqual(
          [net?.status, net?.reason],
          ["False", "CiliumIsUp"],
          `${n.metadata?.name}: the network is Cilium's`,
        );
      }
      const ds = (await c.apps.listNamespacedDaemonSet({ namespace: "kube-system" })).items
        .map((d) => d.metadata?.name)
        .sort();
      assert.ok(!ds.includes("kindnet"), `no kindnet on ${name}: ${ds.join(", ")}`);
      assert.strictEqual(ds.includes("kube-proxy"), name === HOME, `kube-proxy on ${name}: ${ds.join(", ")}`);
      // CiliumCni's gate: its probe DaemonSet (a pause pod per node on the pod network) was Ready
      // on every node when up returned.
      const probe = await c.apps.readNamespacedDaemonSet({ name: "iko-plus-cni-probe", namespace: "kube-system" });
      assert.deepStrictEqual(
        [probe.status?.desiredNumberScheduled, probe.status?.numberReady],
        [2, 2],
        `${name}: the CNI probe Ready on both nodes`,
      );
      const agents = await agentPods(name);
      assert.strictEqual(agents.length, 2);
      for (const p of agents)
        assert.strictEqual(p.spec?.containers.find((x) => x.name === "cilium-agent")?.image, AGENT_IMAGE);
      const readyAt = Math.max(
        ...agents.map((p) =>
          Date.parse(String(p.status?.conditions?.find((x) => x.type === "Ready")?.lastTransitionTime)),
        ),
      );
      console.log(
        `      ${name}: every Cilium agent Ready ${((readyAt - upStart) / 1000).toFixed(0)} s after up started (up took ${upSeconds.toFixed(0)} s)`,
      );
      for (const n of nodes) {
        const cni = sh("docker", ["exec", n.metadata?.name as string, "ls", "/etc/cni/net.d"])
          .stdout.split("\n")
          .filter((l) => l.length > 0);
        assert.deepStrictEqual(cni, ["05-cilium.conflist"], `${n.metadata?.name}: Cilium's CNI config only`);
      }
    }
  });

  it("every pod that is not on the host network has an address from its node's Cilium pod range and a CiliumEndpoint", async () => {
    for (const name of [HOME, WORK]) {
      const c = clients[name];
      const podCidr = new Map(
        (await c.core.listNode()).items.map((n) => [n.metadata?.name as string, n.spec?.podCIDR as string]),
      );
      for (const cidr of podCidr.values())
        assert.ok(inCidr(cidr.split("/")[0], POD_SUBNET[name]), `${name}: node range ${cidr} in ${POD_SUBNET[name]}`);
      const pods = (await c.core.listPodForAllNamespaces()).items.filter(
        (p) => !p.spec?.hostNetwork && p.status?.phase === "Running",
      );
      assert.ok(pods.length >= 3, `${name}: pods on the pod network: ${pods.map((p) => p.metadata?.name).join(", ")}`);
      const endpoints = (await c.custom.listClusterCustomObject({
        group: "cilium.io",
        version: "v2",
        plural: "ciliumendpoints",
      })) as {
        items: {
          metadata: { namespace: string; name: string };
          status?: { networking?: { addressing?: { ipv4?: string }[] } };
        }[];
      };
      const byPod = new Map(
        endpoints.items.map((e) => [
          `${e.metadata.namespace}/${e.metadata.name}`,
          e.status?.networking?.addressing?.[0]?.ipv4,
        ]),
      );
      for (const p of pods) {
        const id = `${p.metadata?.namespace}/${p.metadata?.name}`;
        const ip = p.status?.podIP as string;
        assert.ok(
          inCidr(ip, podCidr.get(p.spec?.nodeName as string) as string),
          `${name} ${id}: ${ip} in its node's ${podCidr.get(p.spec?.nodeName as string)}`,
        );
        assert.strictEqual(byPod.get(id), ip, `${name} ${id}: Cilium's endpoint has the pod's address`);
      }
    }
  });

  it("cilium-dbg status in every agent pod: OK; kube-proxy replacement True on work only", async () => {
    for (const name of [HOME, WORK]) {
      for (const p of await agentPods(name)) {
        const brief = kubectl(
          name,
          "-n",
          "kube-system",
          "exec",
          p.metadata?.name as string,
          "-c",
          "cilium-agent",
          "--",
          "cilium-dbg",
          "status",
          "--brief",
        );
        assert.deepStrictEqual(
          [brief.code, brief.stdout.trim()],
          [0, "OK"],
          `${name} ${p.metadata?.name}: ${brief.stdout}${brief.stderr}`,
        );
        const full = kubectl(
          name,
          "-n",
          "kube-system",
          "exec",
          p.metadata?.name as string,
          "-c",
          "cilium-agent",
          "--",
          "cilium-dbg",
          "status",
        );
        assert.match(
          full.stdout,
          new RegExp(`^Cilium:\\s+Ok\\s+${CILIUM_VERSION.replace(/\./g, "\\.")}\\s`, "m"),
          full.stdout,
        );
        assert.match(
          full.stdout,
          new RegExp(`^KubeProxyReplacement:\\s+${name === WORK ? "True" : "False"}`, "m"),
          full.stdout,
        );
      }
    }
  });

  it("work without kube-proxy: a pod reaches the kubernetes Service by its DNS name (CoreDNS and the ClusterIP served by Cilium)", async () => {
    const pod = "cil-svc-probe";
    const res = kubectl(
      WORK,
      "run",
      pod,
      "--restart=Never",
      `--image=${AGENT_IMAGE}`,
      "--command",
      "--",
      "bash",
      "-c",
      "for i in $(seq 30); do exec 3<>/dev/tcp/kubernetes.default.svc.cluster.local/443 && { echo connected; exit 0; }; sleep 2; done; exit 1",
    );
    assert.strictEqual(res.code, 0, res.stderr);
    try {
      const phase = await waitFor(
        `${pod} done`,
        async () => {
          const p = await maybe(() => clients[WORK].core.readNamespacedPod({ name: pod, namespace: "default" }));
          return p?.status?.phase === "Succeeded" || p?.status?.phase === "Failed" ? p.status.phase : undefined;
        },
        180_000,
        2000,
      );
      const logs = kubectl(WORK, "logs", pod).stdout;
      assert.deepStrictEqual([phase, logs.trim()], ["Succeeded", "connected"], logs);
    } finally {
      kubectl(WORK, "delete", "pod", pod, "--wait=false");
    }
  });

  it("the IKO stand-in on home still reconciles an IrisCluster on work across the two Cilium clusters", async () => {
    const status = await waitFor(
      `IrisCluster ${IRIS} Running and Ready on work`,
      async () => {
        const obj = (await maybe(() =>
          clients[WORK].custom.getNamespacedCustomObject({
            group: "intersystems.com",
            version: "v1alpha1",
            namespace: "default",
            plural: "irisclusters",
            name: IRIS,
          }),
        )) as { status?: { phase?: string; conditions?: { type: string; status: string }[] } } | undefined;
        const s = obj?.status;
        return s?.phase === "Running" && s.conditions?.some((x) => x.type === "Ready" && x.status === "True")
          ? s
          : undefined;
      },
      300_000,
      2000,
    );
    assert.strictEqual(status.phase, "Running");
    const pod = await clients[WORK].core.readNamespacedPod({ name: `${IRIS}-data-0`, namespace: "default" });
    assert.strictEqual(pod.spec?.containers[0].image, standinImages(env).iris);
    assert.ok(inCidr(pod.status?.podIP as string, POD_SUBNET[WORK]));
    const op = (
      await clients[HOME].core.listNamespacedPod({ namespace: "iko", labelSelector: "app=iris-operator-amd" })
    ).items.filter((p: k8s.V1Pod) => !p.metadata?.deletionTimestamp);
    assert.strictEqual(op.length, 1);
    assert.ok(
      inCidr(op[0].status?.podIP as string, POD_SUBNET[HOME]),
      "the operator pod's address is Cilium's on home",
    );
  });

  it("destroy leaves no kind container of either cluster", async () => {
    await stack.destroy();
    assert.deepStrictEqual(containersNamed([`${HOME}-`, `${WORK}-`]), []);
  });
});
