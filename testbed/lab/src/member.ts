/**
 * A member cluster: etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok with
 * simulated Nodes (label type=kwok, annotation kwok.x-k8s.io/node=fake, no taints), so Deployments,
 * DaemonSets and Jobs become Ready/Complete without a kubelet.
 */
import * as fs from "fs";
import * as path from "path";
import { Ctx, clusterPki, startApiserver, startEtcd, startKcm, waitHealthz } from "./controlplane";
import { KubeClient, KubeObject, hasCondition, writeKubeconfig } from "./kube";
import { moduleFile } from "./modules";
import { freePort, startProcess, waitFor } from "./proc";
import { MemberInfo } from "./state";

/** kwok's "fast" Stages (what kwokctl installs); kwok v0.8.0 refuses to start without Stages. */
const KWOK_STAGES = [
  "kustomize/stage/node/fast/node-initialize.yaml",
  "kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
  "kustomize/stage/pod/fast/pod-ready.yaml",
  "kustomize/stage/pod/fast/pod-complete.yaml",
  "kustomize/stage/pod/fast/pod-delete.yaml",
];

/** kwok's config file: the Stages, read from the kwok module pinned in testbed/lab/tools/kwok. */
export function writeKwokConfig(file: string): void {
  const docs = KWOK_STAGES.map((rel) => fs.readFileSync(moduleFile("kwok", "sigs.k8s.io/kwok", rel), "utf8").trim());
  fs.writeFileSync(file, docs.join("\n---\n") + "\n");
}

export function kwokNode(name: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      annotations: { "kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0" },
      labels: {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/role": "agent",
        "node-role.kubernetes.io/agent": "",
        type: "kwok",
      },
    },
    spec: {},
  };
}

/** Starts one member cluster and waits until its Nodes are Ready and it can run workloads. */
export async function startMember(ctx: Ctx, name: string): Promise<MemberInfo> {
  const t0 = Date.now();
  const dir = path.join(ctx.cfg.labDir, name);
  const pkiDir = path.join(dir, "pki");
  fs.mkdirSync(path.join(dir, "logs"), { recursive: true });
  const pki = await clusterPki(name, pkiDir);
  const kubeconfigPath = path.join(dir, "kubeconfig");

  const etcd = await startEtcd(ctx, name, dir);
  const api = await startApiserver(ctx, name, dir, pki, etcd.url, ["--service-cluster-ip-range=10.96.0.0/16"]);
  writeKubeconfig(kubeconfigPath, {
    name,
    server: api.server,
    caFile: pki.ca.crt,
    certFile: pki.admin.crt,
    keyFile: pki.admin.key,
  });
  ctx.log(`${name}: kube-apiserver ready at ${api.server} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);

  const [kcmPort, schedPort] = [await freePort(), await freePort()];
  const kcm = startKcm(ctx, name, dir, pki, kubeconfigPath, kcmPort, [
    "--node-monitor-period=10s",
    "--node-monitor-grace-period=2m",
  ]);
  const sched = startProcess({
    owner: name,
    component: "kube-scheduler",
    bin: ctx.bin("kube-scheduler"),
    args: [
      `--kubeconfig=${kubeconfigPath}`,
      "--bind-address=127.0.0.1",
      `--secure-port=${schedPort}`,
      `--cert-dir=${path.join(pkiDir, "generated")}`,
      "--leader-elect=false",
      "--profiling=false",
    ],
    logFile: path.join(dir, "logs", "kube-scheduler.log"),
    ports: { secure: schedPort },
  });
  ctx.record(sched);

  const kwokDir = path.join(dir, "kwok");
  fs.mkdirSync(kwokDir, { recursive: true });
  const kwokConfig = path.join(kwokDir, "kwok.yaml");
  writeKwokConfig(kwokConfig);
  const kwok = startProcess({
    owner: name,
    component: "kwok",
    bin: ctx.bin("kwok"),
    args: [
      `--kubeconfig=${kubeconfigPath}`,
      `--config=${kwokConfig}`,
      "--manage-all-nodes=false",
      "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
      "--cidr=10.244.0.0/16",
      "--node-ip=10.0.0.1",
      "--node-lease-duration-seconds=40",
    ],
    // kwok also reads $KWOK_WORKDIR/kwok.yaml: keep it away from ~/.kwok.
    env: { KWOK_WORKDIR: kwokDir },
    logFile: path.join(dir, "logs", "kwok.log"),
    ports: {},
  });
  ctx.record(kwok);

  const client = new KubeClient(name, { server: api.server, ca: pki.ca.crt, cert: pki.admin.crt, key: pki.admin.key });
  try {
    const nodes = Array.from({ length: ctx.cfg.nodesPerMember }, (_, i) => `kwok-node-${i}`);
    for (const n of nodes) await client.apply(kwokNode(n));
    await Promise.all([
      waitHealthz(ctx, kcm, `https://127.0.0.1:${kcmPort}/healthz`),
      waitHealthz(ctx, sched, `https://127.0.0.1:${schedPort}/healthz`),
    ]);
    for (const n of nodes) {
      await waitFor(`Node ${n} Ready (set by kwok)`, kwok, ctx.cfg.timeoutMs, async () => {
        const node = await client.getJson(`/api/v1/nodes/${n}`);
        return hasCondition(node, "Ready") ? true : "not Ready yet";
      });
    }
    // KCM's serviceaccount controller creates "default" ServiceAccounts; Pods need them.
    await waitFor("ServiceAccount default/default (kube-controller-manager)", kcm, ctx.cfg.timeoutMs, async () =>
      (await client.getJson("/api/v1/namespaces/default/serviceaccounts/default")) ? true : "not created yet",
    );
    ctx.log(`${name}: ready (${nodes.length} kwok node(s), ${((Date.now() - t0) / 1000).toFixed(1)}s)`);
    return { name, dir, kubeconfigPath, server: api.server, context: name, caFile: pki.ca.crt, etcd: etcd.url, nodes };
  } finally {
    client.close();
  }
}
