/**
 * Pieces shared by member clusters and the Karmada control plane: etcd, kube-apiserver,
 * kube-controller-manager and the per-cluster PKI, each started and awaited.
 */
import * as fs from "fs";
import * as path from "path";
import { LabConfig } from "./config";
import { CertFiles, KUBERNETES_SVC_NAMES, makeCa, makeCert, makeServiceAccountKeys } from "./pki";
import { freePort, http200, httpGet, startProcess, waitFor } from "./proc";
import { ProcessRecord } from "./state";

/** What starting code needs from the lab run: settings, binaries, recording and progress output. */
export interface Ctx {
  cfg: LabConfig;
  bin(name: string): string;
  /** Records a started process in state.json at once (so a failed `up` or `down` can stop it). */
  record(rec: ProcessRecord): void;
  log(msg: string): void;
}

export const SA_ISSUER = "https://kubernetes.default.svc.cluster.local";

export interface ClusterPki {
  ca: CertFiles;
  apiserver: CertFiles;
  admin: CertFiles;
  sa: { key: string; pub: string };
}

/** CA, apiserver serving cert (127.0.0.1, localhost, kubernetes.*), admin client (O=system:masters), SA keys. */
export async function clusterPki(name: string, pkiDir: string, extraDns: string[] = []): Promise<ClusterPki> {
  const ca = await makeCa(pkiDir, "ca", `${name}-ca`);
  const [apiserver, admin, sa] = await Promise.all([
    makeCert(ca, pkiDir, "apiserver", {
      cn: "kube-apiserver",
      dns: ["localhost", ...KUBERNETES_SVC_NAMES, ...extraDns],
      ips: ["127.0.0.1", "10.96.0.1"],
    }),
    makeCert(ca, pkiDir, "admin", { cn: `${name}-admin`, org: "system:masters" }),
    makeServiceAccountKeys(pkiDir),
  ]);
  return { ca, apiserver, admin, sa };
}

export interface EtcdHandle {
  url: string;
  rec: ProcessRecord;
}

/** etcd with all four URLs on 127.0.0.1, no fsync (lab data is disposable), a 1 GiB quota. */
export async function startEtcd(ctx: Ctx, owner: string, dir: string): Promise<EtcdHandle> {
  const [client, peer] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const rec = startProcess({
    owner,
    component: "etcd",
    bin: ctx.bin("etcd"),
    args: [
      `--name=${owner}`,
      `--data-dir=${path.join(dir, "etcd")}`,
      `--listen-client-urls=${url}`,
      `--advertise-client-urls=${url}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=${owner}=${peerUrl}`,
      `--initial-cluster-token=${owner}`,
      "--unsafe-no-fsync=true",
      "--quota-backend-bytes=1073741824",
      "--auto-compaction-mode=periodic",
      "--auto-compaction-retention=10m",
      "--log-level=warn",
    ],
    logFile: path.join(dir, "logs", "etcd.log"),
    ports: { client, peer },
  });
  ctx.record(rec);
  await waitFor(`etcd health at ${url}/health`, rec, ctx.cfg.timeoutMs, async () => {
    const r = await httpGet(`${url}/health`);
    return r.status === 200 && r.body.includes('"true"') ? true : `HTTP ${r.status} ${r.body.trim()}`;
  });
  return { url, rec };
}

export interface ApiserverHandle {
  server: string;
  port: number;
  rec: ProcessRecord;
}

/** kube-apiserver on 127.0.0.1 (RBAC, SA issuer/keys, no endpoint reconciler); waits for /readyz. */
export async function startApiserver(
  ctx: Ctx,
  owner: string,
  dir: string,
  pki: ClusterPki,
  etcdUrl: string,
  extraArgs: string[] = [],
  port?: number,
): Promise<ApiserverHandle> {
  port = port ?? (await freePort());
  const server = `https://127.0.0.1:${port}`;
  const genDir = path.join(dir, "pki", "generated");
  fs.mkdirSync(genDir, { recursive: true });
  const rec = startProcess({
    owner,
    component: "kube-apiserver",
    bin: ctx.bin("kube-apiserver"),
    args: [
      `--etcd-servers=${etcdUrl}`,
      "--bind-address=127.0.0.1",
      "--advertise-address=127.0.0.1",
      `--secure-port=${port}`,
      "--endpoint-reconciler-type=none",
      `--cert-dir=${genDir}`,
      `--tls-cert-file=${pki.apiserver.crt}`,
      `--tls-private-key-file=${pki.apiserver.key}`,
      `--client-ca-file=${pki.ca.crt}`,
      "--authorization-mode=Node,RBAC",
      "--allow-privileged=true",
      `--service-account-issuer=${SA_ISSUER}`,
      `--service-account-key-file=${pki.sa.pub}`,
      `--service-account-signing-key-file=${pki.sa.key}`,
      "--profiling=false",
      ...extraArgs,
    ],
    logFile: path.join(dir, "logs", "kube-apiserver.log"),
    ports: { secure: port },
  });
  ctx.record(rec);
  const tls = { ca: pki.ca.crt, cert: pki.admin.crt, key: pki.admin.key };
  await waitFor(`kube-apiserver ${server}/readyz`, rec, ctx.cfg.timeoutMs, http200(`${server}/readyz`, tls), 500);
  return { server, port, rec };
}

/** kube-controller-manager with the SA private key and root CA (token Secrets get token + ca.crt). */
export function startKcm(
  ctx: Ctx,
  owner: string,
  dir: string,
  pki: ClusterPki,
  kubeconfig: string,
  port: number,
  extraArgs: string[],
): ProcessRecord {
  const rec = startProcess({
    owner,
    component: "kube-controller-manager",
    bin: ctx.bin("kube-controller-manager"),
    args: [
      `--kubeconfig=${kubeconfig}`,
      "--bind-address=127.0.0.1",
      `--secure-port=${port}`,
      `--cert-dir=${path.join(dir, "pki", "generated")}`,
      "--leader-elect=false",
      `--service-account-private-key-file=${pki.sa.key}`,
      `--root-ca-file=${pki.ca.crt}`,
      `--cluster-signing-cert-file=${pki.ca.crt}`,
      `--cluster-signing-key-file=${pki.ca.key}`,
      `--cluster-name=${owner}`,
      "--profiling=false",
      ...extraArgs,
    ],
    logFile: path.join(dir, "logs", "kube-controller-manager.log"),
    ports: { secure: port },
  });
  ctx.record(rec);
  return rec;
}

/** Waits for https://127.0.0.1:<port>/healthz of a component with a self-signed serving cert. */
export function waitHealthz(ctx: Ctx, rec: ProcessRecord, url: string): Promise<void> {
  return waitFor(url, rec, ctx.cfg.timeoutMs, http200(url), 500);
}
