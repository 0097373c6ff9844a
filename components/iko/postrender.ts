/**
 * The Helm post-renderer that turns the stock IKO chart into a "works from home" operator
 * without forking it: the operator container gets the target kubeconfig Secret as a read-only
 * volume and `--kubeconfig=<path>`, and the pod template a checksum of that kubeconfig, so a new
 * kubeconfig rolls the operator.
 */
import * as crypto from "crypto";
import * as path from "path";
import * as YAML from "yaml";
import type { PostRenderPatch } from "../postrender/wrapper";
// This module is what the post-renderer runs (copied beside its wrapper with postrender/cli, see
// postrender/wrapper.ts): it may import only Node's modules and "yaml" (a type import is erased).

/** Parameters of the post-render patch. None of them is secret. */
export interface RemoteKubeconfigPatch {
  /** Secret holding the target kubeconfig, in the release namespace. */
  secretName: string;
  /** Key of the kubeconfig in that Secret. */
  secretKey: string;
  /** Absolute path of the kubeconfig file inside the operator container. */
  kubeconfigPath: string;
  /** Checksum of the kubeconfig; a change rolls the operator. */
  checksum: string;
  /** Name of the operator container. */
  containerName: string;
}

export const VOLUME_NAME = "iko-plus-target-kubeconfig";
export const CHECKSUM_ANNOTATION = "iko-plus.io/target-kubeconfig-checksum";

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const asList = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** A short, non-reversible checksum of a kubeconfig (for the pod template annotation). */
export function kubeconfigChecksum(kubeconfig: string): string {
  return crypto.createHash("sha256").update(kubeconfig).digest("hex").slice(0, 16);
}

/** Patches one Deployment object in place; returns whether it had the operator container. */
export function patchDeployment(deployment: Obj, p: RemoteKubeconfigPatch): boolean {
  const template = asObj(asObj(deployment.spec).template);
  const podSpec = asObj(template.spec);
  const containers = asList(podSpec.containers);
  const container = containers.find((c) => c.name === p.containerName);
  if (!container) return false;
  const mountDir = path.posix.dirname(p.kubeconfigPath);
  const fileName = path.posix.basename(p.kubeconfigPath);

  const volumes = asList(podSpec.volumes).filter((v) => v.name !== VOLUME_NAME);
  volumes.push({
    name: VOLUME_NAME,
    secret: { secretName: p.secretName, items: [{ key: p.secretKey, path: fileName }], defaultMode: 0o440 },
  });
  podSpec.volumes = volumes;

  const mounts = asList(container.volumeMounts).filter((m) => m.name !== VOLUME_NAME);
  mounts.push({ name: VOLUME_NAME, mountPath: mountDir, readOnly: true });
  container.volumeMounts = mounts;

  // Drop any kubeconfig flag the chart may carry (both `--kubeconfig=x` and `--kubeconfig x`).
  const args = Array.isArray(container.args) ? (container.args as unknown[]).map(String) : [];
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--kubeconfig") {
      i++;
      continue;
    }
    if (args[i].startsWith("--kubeconfig=")) continue;
    kept.push(args[i]);
  }
  kept.push(`--kubeconfig=${p.kubeconfigPath}`);
  container.args = kept;

  const metadata = asObj(template.metadata);
  metadata.annotations = { ...asObj(metadata.annotations), [CHECKSUM_ANNOTATION]: p.checksum };
  template.metadata = metadata;
  template.spec = podSpec;
  (deployment.spec as Obj).template = template;
  return true;
}

/**
 * Patches the rendered chart (a multi-document YAML stream): the Deployment that has the operator
 * container is changed, every other document is passed through. Throws when no Deployment has
 * that container, so a wrong chart fails the install instead of running an operator at home.
 */
export function patchOperatorManifest(manifest: string, p: RemoteKubeconfigPatch): string {
  const docs = YAML.parseAllDocuments(manifest);
  let patched = 0;
  const out: string[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0)
      throw new Error(`post-render: the chart rendered invalid YAML: ${doc.errors[0].message}`);
    const obj = doc.toJS() as unknown;
    if (obj === null || obj === undefined) continue;
    const o = asObj(obj);
    if (o.kind === "Deployment" && patchDeployment(o, p)) patched++;
    out.push(YAML.stringify(o));
  }
  if (patched === 0) {
    throw new Error(
      `post-render: no Deployment with a container named "${p.containerName}" in the chart output; is this the IKO chart (iris-operator-amd)?`,
    );
  }
  return out.map((d) => `---\n${d}`).join("");
}

/** The post-renderer's entry point (postrender/cli.ts calls it). */
export const postRender = patchOperatorManifest;

/** The IKO patch as the post-render wrapper takes it (`writePostRenderer`). */
export function ikoPostRenderPatch(params: RemoteKubeconfigPatch): PostRenderPatch<RemoteKubeconfigPatch> {
  return {
    prefix: "iko-postrender",
    purpose: "Helm post-renderer mounting the target kubeconfig into the IKO operator (IkoHomeOperator).",
    module: "iko/postrender",
    params,
  };
}
