/**
 * The Karmada control plane as loopback processes (lab-recipe.md §2): etcd, karmada-apiserver
 * (kube-apiserver), its kube-controller-manager, karmada-aggregated-apiserver (cluster.karmada.io via
 * ExternalName Service + APIService port), karmada-webhook (configs rewritten to 127.0.0.1),
 * karmada-controller-manager and karmada-scheduler.
 */
import * as fs from "fs";
import * as path from "path";
import { KARMADA_NAME } from "./config";
import { Ctx, clusterPki, startApiserver, startEtcd, startKcm, waitHealthz } from "./controlplane";
import {
  AGGREGATED_SERVER_NAME,
  aggregatedApiRegistration,
  crds,
  namespaces,
  webhookConfigurations,
} from "./karmada-manifests";
import { KubeClient, hasCondition, writeKubeconfig } from "./kube";
import { makeCert } from "./pki";
import { freePort, http200, startProcess, waitFor } from "./proc";
import { KarmadaInfo } from "./state";

const KCM_CONTROLLERS = [
  "namespace",
  "garbagecollector",
  "serviceaccount-token",
  "ttl-after-finished",
  "bootstrapsigner",
  "tokencleaner",
  "csrcleaner",
  "csrsigning",
  "clusterrole-aggregation",
];

export async function startKarmada(ctx: Ctx): Promise<KarmadaInfo> {
  const t0 = Date.now();
  const since = (): string => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const name = KARMADA_NAME;
  const dir = path.join(ctx.cfg.labDir, name);
  const pkiDir = path.join(dir, "pki");
  fs.mkdirSync(path.join(dir, "logs"), { recursive: true });

  // One CA signs everything (deploy-karmada.sh does the same), front-proxy client included.
  const pki = await clusterPki(name, pkiDir, [
    "karmada-apiserver",
    "karmada-apiserver.karmada-system.svc",
    "karmada-apiserver.karmada-system.svc.cluster.local",
  ]);
  const webhookDir = path.join(pkiDir, "webhook");
  const [frontProxy, aggregated] = await Promise.all([
    makeCert(pki.ca, pkiDir, "front-proxy-client", { cn: "front-proxy-client" }),
    makeCert(pki.ca, pkiDir, "aggregated-apiserver", {
      cn: "karmada-aggregated-apiserver",
      dns: [AGGREGATED_SERVER_NAME, `${AGGREGATED_SERVER_NAME}.cluster.local`, "localhost"],
      ips: ["127.0.0.1"],
    }),
    makeCert(pki.ca, webhookDir, "tls", {
      cn: "karmada-webhook",
      dns: ["localhost", "karmada-webhook.karmada-system.svc"],
      ips: ["127.0.0.1"],
    }),
  ]);
  const caB64 = fs.readFileSync(pki.ca.crt).toString("base64");

  const ports = {
    webhook: await freePort(),
    aggregated: await freePort(),
    kcm: await freePort(),
    controllerHealth: await freePort(),
    schedulerHealth: await freePort(),
  };
  const webhookBase = `https://127.0.0.1:${ports.webhook}`;
  const kubeconfigPath = path.join(dir, "kubeconfig");

  const etcd = await startEtcd(ctx, name, dir);
  const api = await startApiserver(ctx, name, dir, pki, etcd.url, [
    "--service-cluster-ip-range=10.96.0.0/12",
    "--disable-admission-plugins=StorageObjectInUseProtection,ServiceAccount",
    `--proxy-client-cert-file=${frontProxy.crt}`,
    `--proxy-client-key-file=${frontProxy.key}`,
    `--requestheader-client-ca-file=${pki.ca.crt}`,
    "--requestheader-allowed-names=front-proxy-client",
    "--requestheader-extra-headers-prefix=X-Remote-Extra-",
    "--requestheader-group-headers=X-Remote-Group",
    "--requestheader-username-headers=X-Remote-User",
    "--tls-min-version=VersionTLS13",
  ]);
  writeKubeconfig(kubeconfigPath, {
    name,
    server: api.server,
    caFile: pki.ca.crt,
    certFile: pki.admin.crt,
    keyFile: pki.admin.key,
  });
  ctx.log(`karmada: karmada-apiserver ready at ${api.server} (${since()})`);

  const client = new KubeClient(name, { server: api.server, ca: pki.ca.crt, cert: pki.admin.crt, key: pki.admin.key });
  try {
    await client.applyAll(namespaces());
    const crdObjs = crds(webhookBase, caB64);
    await client.applyAll(crdObjs);
    await waitFor(`${crdObjs.length} Karmada CRDs Established`, api.rec, ctx.cfg.timeoutMs, async () => {
      for (const c of crdObjs) {
        const got = await client.getJson(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${c.metadata.name}`);
        if (!hasCondition(got, "Established")) return `${c.metadata.name} not Established`;
      }
      return true;
    });
    ctx.log(`karmada: ${crdObjs.length} CRDs established (${since()})`);

    const kcm = startKcm(ctx, name, dir, pki, kubeconfigPath, ports.kcm, [
      `--controllers=${KCM_CONTROLLERS.join(",")}`,
    ]);
    const agg = startProcess({
      owner: name,
      component: "karmada-aggregated-apiserver",
      bin: ctx.bin("karmada-aggregated-apiserver"),
      args: [
        `--kubeconfig=${kubeconfigPath}`,
        `--authentication-kubeconfig=${kubeconfigPath}`,
        `--authorization-kubeconfig=${kubeconfigPath}`,
        `--etcd-servers=${etcd.url}`,
        "--bind-address=127.0.0.1",
        `--secure-port=${ports.aggregated}`,
        `--cert-dir=${path.join(pkiDir, "generated")}`,
        `--tls-cert-file=${aggregated.crt}`,
        `--tls-private-key-file=${aggregated.key}`,
        "--tls-min-version=VersionTLS13",
      ],
      logFile: path.join(dir, "logs", "karmada-aggregated-apiserver.log"),
      ports: { secure: ports.aggregated },
    });
    ctx.record(agg);
    const webhook = startProcess({
      owner: name,
      component: "karmada-webhook",
      bin: ctx.bin("karmada-webhook"),
      args: [
        `--kubeconfig=${kubeconfigPath}`,
        "--bind-address=127.0.0.1",
        `--secure-port=${ports.webhook}`,
        `--cert-dir=${webhookDir}`,
        "--metrics-bind-address=0",
        "--health-probe-bind-address=0",
        // Lets a ClusterTaintPolicy put NoExecute taints on not-ready Clusters (cluster failover, test/lab/dr.test.ts).
        "--allow-no-execute-taint-policy=true",
      ],
      logFile: path.join(dir, "logs", "karmada-webhook.log"),
      ports: { secure: ports.webhook },
    });
    ctx.record(webhook);

    await waitFor(
      `karmada-webhook ${webhookBase}/readyz/`,
      webhook,
      ctx.cfg.timeoutMs,
      http200(`${webhookBase}/readyz/`, { ca: pki.ca.crt }),
      500,
    );
    await client.applyAll(webhookConfigurations(webhookBase, caB64));
    await waitFor(
      `karmada-aggregated-apiserver https://127.0.0.1:${ports.aggregated}/readyz`,
      agg,
      ctx.cfg.timeoutMs,
      http200(`https://127.0.0.1:${ports.aggregated}/readyz`, { ca: pki.ca.crt }),
      500,
    );
    await client.applyAll(aggregatedApiRegistration(ports.aggregated, caB64));
    await waitFor(
      "APIService v1alpha1.cluster.karmada.io Available",
      agg,
      ctx.cfg.timeoutMs,
      async () => {
        const s = await client.getJson("/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.cluster.karmada.io");
        if (!hasCondition(s, "Available")) {
          const c = (s as { status?: { conditions?: { message?: string }[] } } | undefined)?.status?.conditions?.[0];
          return `not Available: ${c?.message ?? "no status yet"}`;
        }
        const list = await client.request("GET", "/apis/cluster.karmada.io/v1alpha1/clusters");
        return list.status === 200 ? true : `GET clusters: HTTP ${list.status}`;
      },
      500,
    );
    await waitHealthz(ctx, kcm, `https://127.0.0.1:${ports.kcm}/healthz`);
    ctx.log(
      `karmada: webhook, aggregated apiserver (cluster.karmada.io) and kube-controller-manager ready (${since()})`,
    );

    const cm = startProcess({
      owner: name,
      component: "karmada-controller-manager",
      bin: ctx.bin("karmada-controller-manager"),
      args: [
        `--kubeconfig=${kubeconfigPath}`,
        "--leader-elect=false",
        "--cluster-status-update-frequency=10s",
        // As the Helm mode (components/karmada/values.ts): no unified auth, which would write RBAC
        // on members; KarmadaMember grants scoped access by default.
        "--controllers=*,-unifiedAuth",
        // Cluster failover (off by default): the Failover gate starts the taint manager and the
        // ClusterTaintPolicy controller; NoExecute taints then evict bindings. Inert without a
        // ClusterTaintPolicy or a NoExecute taint, so other tests see no change.
        "--feature-gates=Failover=true",
        "--enable-no-execute-taint-eviction=true",
        "--metrics-bind-address=0",
        `--health-probe-bind-address=127.0.0.1:${ports.controllerHealth}`,
      ],
      logFile: path.join(dir, "logs", "karmada-controller-manager.log"),
      ports: { health: ports.controllerHealth },
    });
    ctx.record(cm);
    const sched = startProcess({
      owner: name,
      component: "karmada-scheduler",
      bin: ctx.bin("karmada-scheduler"),
      args: [
        `--kubeconfig=${kubeconfigPath}`,
        "--leader-elect=false",
        "--metrics-bind-address=0",
        `--health-probe-bind-address=127.0.0.1:${ports.schedulerHealth}`,
      ],
      logFile: path.join(dir, "logs", "karmada-scheduler.log"),
      ports: { health: ports.schedulerHealth },
    });
    ctx.record(sched);
    await Promise.all([
      waitFor(
        "karmada-controller-manager /healthz",
        cm,
        ctx.cfg.timeoutMs,
        http200(`http://127.0.0.1:${ports.controllerHealth}/healthz`),
        500,
      ),
      waitFor(
        "karmada-scheduler /healthz",
        sched,
        ctx.cfg.timeoutMs,
        http200(`http://127.0.0.1:${ports.schedulerHealth}/healthz`),
        500,
      ),
    ]);
    ctx.log(`karmada: controller-manager and scheduler ready (${since()})`);
    return {
      name,
      dir,
      kubeconfigPath,
      server: api.server,
      context: name,
      caFile: pki.ca.crt,
      etcd: etcd.url,
      aggregatedApiserver: `https://127.0.0.1:${ports.aggregated}`,
      webhook: webhookBase,
    };
  } finally {
    client.close();
  }
}
