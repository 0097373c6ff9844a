/**
 * Reading the lab's clusters back with @kubernetes/client-node.
 */
import * as child from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as k8s from "@kubernetes/client-node";
import { REPO, labBinDir } from "./pulumi-cli";

/** The lab's folder (npm run lab:up writes it). */
export function labDir(): string {
  return process.env.IKO_LAB_DIR ?? path.join(REPO, ".lab");
}

/** The admin kubeconfig file of a lab cluster (a member name, or "karmada"). */
export function labKubeconfigPath(name: string): string {
  const file = path.join(labDir(), name, "kubeconfig");
  if (!fs.existsSync(file)) throw new Error(`no lab kubeconfig at ${file}: start the lab with \`npm run lab:up\``);
  return file;
}

/**
 * The lab's `kubectl` against a lab cluster; returns its stdout, throws with its stderr. For
 * manifests the typed client would change: client-node's models drop keys they have no field for,
 * such as a CRD schema's `x-kubernetes-preserve-unknown-fields`.
 */
export function labKubectl(name: string, args: string[]): string {
  return child.execFileSync(path.join(labBinDir(), "kubectl"), ["--kubeconfig", labKubeconfigPath(name), ...args], {
    encoding: "utf8",
  });
}

export interface Clients {
  config: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  rbac: k8s.RbacAuthorizationV1Api;
  crds: k8s.ApiextensionsV1Api;
  admission: k8s.AdmissionregistrationV1Api;
  apiregistration: k8s.ApiregistrationV1Api;
  authz: k8s.AuthorizationV1Api;
  custom: k8s.CustomObjectsApi;
}

export function clientsFromText(text: string): Clients {
  const config = new k8s.KubeConfig();
  config.loadFromString(text);
  return {
    config,
    core: config.makeApiClient(k8s.CoreV1Api),
    apps: config.makeApiClient(k8s.AppsV1Api),
    rbac: config.makeApiClient(k8s.RbacAuthorizationV1Api),
    crds: config.makeApiClient(k8s.ApiextensionsV1Api),
    admission: config.makeApiClient(k8s.AdmissionregistrationV1Api),
    apiregistration: config.makeApiClient(k8s.ApiregistrationV1Api),
    authz: config.makeApiClient(k8s.AuthorizationV1Api),
    custom: config.makeApiClient(k8s.CustomObjectsApi),
  };
}

export function labClients(name: string): Clients {
  return clientsFromText(fs.readFileSync(labKubeconfigPath(name), "utf8"));
}

/** Runs a read; resolves undefined on 404, rethrows anything else. */
export async function maybe<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 500,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v as T;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
