/**
 * Karmada's API objects for a loopback control plane, read from the karmada module pinned in
 * testbed/lab/tools/karmada (never copied into the repo) and rewritten for 127.0.0.1 endpoints:
 * CRDs (+ conversion webhook patches), webhook configurations, aggregated API registration.
 */
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { LabError } from "./config";
import { KubeObject } from "./kube";
import { moduleDir } from "./modules";

const KARMADA_MODULE = "github.com/karmada-io/karmada";

function karmadaDir(): string {
  return moduleDir("karmada", KARMADA_MODULE);
}

function parseDocs(text: string, source: string): KubeObject[] {
  return YAML.parseAllDocuments(text)
    .map((d) => {
      if (d.errors.length) throw new LabError(`${source}: ${d.errors[0].message}`);
      return d.toJS() as KubeObject | null;
    })
    .filter((o): o is KubeObject => Boolean(o && o.kind));
}

/** Replaces {{caBundle}} and the in-cluster webhook Service URL with the loopback webhook. */
function rewriteWebhookText(text: string, webhookBase: string, caBundleB64: string): string {
  return text
    .split("{{caBundle}}")
    .join(caBundleB64)
    .split("https://karmada-webhook.karmada-system.svc:443")
    .join(webhookBase)
    .split("https://{{name}}.{{namespace}}.svc:443")
    .join(webhookBase);
}

export function namespaces(): KubeObject[] {
  return ["karmada-system", "karmada-cluster"].map((name) => ({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name },
  }));
}

/**
 * The CRDs listed in charts/karmada/_crds/kustomization.yaml, with the kustomize patches
 * (conversion strategy Webhook) merged in and their URL pointing at `webhookBase`/convert.
 */
export function crds(webhookBase: string, caBundleB64: string): KubeObject[] {
  const crdDir = path.join(karmadaDir(), "charts", "karmada", "_crds");
  const kustomization = YAML.parse(fs.readFileSync(path.join(crdDir, "kustomization.yaml"), "utf8")) as {
    resources?: string[];
    patches?: { path: string }[];
    patchesStrategicMerge?: string[];
  };
  const objs = (kustomization.resources ?? []).flatMap((rel) =>
    parseDocs(fs.readFileSync(path.join(crdDir, rel), "utf8"), rel),
  );
  if (objs.length === 0) throw new LabError(`no CRDs found via ${path.join(crdDir, "kustomization.yaml")}`);
  const patchFiles = [
    ...(kustomization.patches ?? []).map((p) => p.path),
    ...(kustomization.patchesStrategicMerge ?? []),
  ];
  for (const rel of patchFiles) {
    const text = rewriteWebhookText(fs.readFileSync(path.join(crdDir, rel), "utf8"), webhookBase, caBundleB64);
    for (const patch of parseDocs(text, rel)) {
      const target = objs.find((o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name);
      if (!target) throw new LabError(`CRD patch ${rel}: no CRD named ${patch.metadata.name}`);
      const spec = (patch.spec ?? {}) as Record<string, unknown>;
      target.spec = { ...(target.spec as Record<string, unknown>), ...spec };
    }
  }
  for (const o of objs) {
    if (JSON.stringify(o).includes("{{"))
      throw new LabError(`CRD ${o.metadata.name} still holds a template placeholder`);
  }
  return objs;
}

/** Mutating + validating webhook configurations with clientConfig.url = `webhookBase`/<path>. */
export function webhookConfigurations(webhookBase: string, caBundleB64: string): KubeObject[] {
  const file = path.join(karmadaDir(), "artifacts", "deploy", "webhook-configuration.yaml");
  const objs = parseDocs(rewriteWebhookText(fs.readFileSync(file, "utf8"), webhookBase, caBundleB64), file);
  for (const o of objs) {
    const text = JSON.stringify(o);
    if (text.includes("{{") || text.includes(".svc"))
      throw new LabError(`${file}: ${o.kind} ${o.metadata.name} was not fully rewritten`);
  }
  return objs;
}

/**
 * Registration of cluster.karmada.io: ExternalName Service (externalName localhost) and the
 * APIService from artifacts/deploy, with spec.service.port = the aggregated apiserver's port
 * (the aggregator dials externalName:port and checks the cert for <svc>.<ns>.svc).
 */
export function aggregatedApiRegistration(port: number, caBundleB64: string): KubeObject[] {
  const file = path.join(karmadaDir(), "artifacts", "deploy", "karmada-aggregated-apiserver-apiservice.yaml");
  const objs = parseDocs(fs.readFileSync(file, "utf8").split("{{caBundle}}").join(caBundleB64), file);
  const svc = objs.find((o) => o.kind === "Service");
  const apiService = objs.find((o) => o.kind === "APIService");
  if (!svc || !apiService) throw new LabError(`${file}: expected a Service and an APIService`);
  svc.spec = { type: "ExternalName", externalName: "localhost" };
  const spec = apiService.spec as { service: { name: string; namespace: string; port?: number } };
  spec.service.port = port;
  return [svc, apiService];
}

/** The Service name the aggregator uses as TLS ServerName: <name>.<namespace>.svc. */
export const AGGREGATED_SERVER_NAME = "karmada-aggregated-apiserver.karmada-system.svc";
