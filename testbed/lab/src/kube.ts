/**
 * A minimal Kubernetes REST client over Node https with a client certificate (enough for the lab's
 * bootstrap: create, server-side apply, get), and the admin kubeconfig writer.
 */
import * as fs from "fs";
import * as https from "https";
import * as YAML from "yaml";
import { LabError } from "./config";
import { checkAborted } from "./proc";

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [k: string]: unknown };
  [k: string]: unknown;
}

/** Kinds the lab creates: plural and whether namespaced. */
const KINDS: Record<string, { plural: string; namespaced: boolean }> = {
  Namespace: { plural: "namespaces", namespaced: false },
  Node: { plural: "nodes", namespaced: false },
  Service: { plural: "services", namespaced: true },
  CustomResourceDefinition: { plural: "customresourcedefinitions", namespaced: false },
  APIService: { plural: "apiservices", namespaced: false },
  MutatingWebhookConfiguration: { plural: "mutatingwebhookconfigurations", namespaced: false },
  ValidatingWebhookConfiguration: { plural: "validatingwebhookconfigurations", namespaced: false },
  ClusterRole: { plural: "clusterroles", namespaced: false },
  ClusterRoleBinding: { plural: "clusterrolebindings", namespaced: false },
};

export interface ClientFiles {
  server: string;
  ca: string;
  cert: string;
  key: string;
}

export interface Response {
  status: number;
  body: string;
}

export class KubeClient {
  private readonly agent: https.Agent;

  constructor(
    readonly name: string,
    private readonly files: ClientFiles,
  ) {
    this.agent = new https.Agent({
      ca: fs.readFileSync(files.ca),
      cert: fs.readFileSync(files.cert),
      key: fs.readFileSync(files.key),
      keepAlive: true,
      maxSockets: 4,
    });
  }

  request(
    method: string,
    path: string,
    body?: string,
    contentType = "application/json",
    timeoutMs = 15000,
  ): Promise<Response> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        new URL(path, this.files.server),
        {
          method,
          agent: this.agent,
          timeout: timeoutMs,
          headers: { Accept: "application/json", ...(body !== undefined ? { "Content-Type": contentType } : {}) },
        },
        (res) => {
          let data = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (data += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: data }));
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${method} ${path}: timeout after ${timeoutMs} ms`)));
      req.on("error", reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  async getJson<T = Record<string, unknown>>(path: string): Promise<T | undefined> {
    const r = await this.request("GET", path);
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw new LabError(`${this.name}: GET ${path}: HTTP ${r.status} ${brief(r.body)}`);
    return JSON.parse(r.body) as T;
  }

  /** Server-side apply (field manager iko-lab, forced). */
  async apply(obj: KubeObject): Promise<void> {
    const path = `${objectPath(obj)}?fieldManager=iko-lab&force=true`;
    const r = await this.request("PATCH", path, JSON.stringify(obj), "application/apply-patch+yaml");
    if (r.status !== 200 && r.status !== 201) {
      throw new LabError(`${this.name}: apply ${obj.kind} ${obj.metadata.name}: HTTP ${r.status} ${brief(r.body)}`);
    }
  }

  /** Applies objects in order, retrying each briefly (e.g. while a webhook or API group comes up). */
  async applyAll(objs: KubeObject[], timeoutMs = 30000): Promise<void> {
    for (const o of objs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          await this.apply(o);
          break;
        } catch (e) {
          checkAborted();
          if (Date.now() > deadline) throw e;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

function brief(body: string): string {
  try {
    const s = JSON.parse(body) as { message?: string };
    if (s.message) return s.message;
  } catch {
    /* not JSON */
  }
  return body.slice(0, 300).replace(/\s+/g, " ");
}

/** The REST path of an object of a known kind. */
export function objectPath(obj: KubeObject): string {
  const k = KINDS[obj.kind];
  if (!k) throw new LabError(`lab client: unknown kind ${obj.kind}`);
  const base = obj.apiVersion.includes("/") ? `/apis/${obj.apiVersion}` : `/api/${obj.apiVersion}`;
  const ns = k.namespaced ? `/namespaces/${obj.metadata.namespace ?? "default"}` : "";
  return `${base}${ns}/${k.plural}/${encodeURIComponent(obj.metadata.name)}`;
}

/** True when an object's status.conditions has `type` with status "True". */
export function hasCondition(obj: unknown, type: string): boolean {
  const conds = (obj as { status?: { conditions?: { type: string; status: string }[] } } | undefined)?.status
    ?.conditions;
  return Boolean(conds?.some((c) => c.type === type && c.status === "True"));
}

export interface KubeconfigSpec {
  name: string;
  server: string;
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** Writes an admin kubeconfig with embedded CA/cert/key data, mode 0600; cluster/context/user = name. */
export function writeKubeconfig(file: string, spec: KubeconfigSpec): void {
  const b64 = (f: string): string => fs.readFileSync(f).toString("base64");
  const doc = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: spec.name, cluster: { server: spec.server, "certificate-authority-data": b64(spec.caFile) } }],
    users: [
      {
        name: spec.name,
        user: { "client-certificate-data": b64(spec.certFile), "client-key-data": b64(spec.keyFile) },
      },
    ],
    contexts: [{ name: spec.name, context: { cluster: spec.name, user: spec.name } }],
    "current-context": spec.name,
    preferences: {},
  };
  fs.writeFileSync(file, YAML.stringify(doc), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}
