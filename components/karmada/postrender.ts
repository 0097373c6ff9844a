/**
 * The Helm post-renderer of KarmadaControlPlane, two patches of the chart's (non-hook) objects:
 *
 * - **The aggregated apiserver's Service is headless** (`clusterIP: None`). The APIService
 *   `v1alpha1.cluster.karmada.io` reaches karmada-aggregated-apiserver through an ExternalName
 *   Service naming this one. With a ClusterIP, a connection the Karmada apiserver opens before the
 *   node's kube-proxy has programmed that address is not translated: it leaves the node by its
 *   default route (masqueraded), and where something on the network answers for any address (a
 *   transparent egress proxy; a host in the cluster's Service range), the apiserver's availability
 *   check (TLS unverified by design, kube-aggregator) gets that server's answer, and keeps the
 *   connection alive: `FailedDiscoveryCheck ... bad status ... 404` for as long as it lives.
 *   Seen on kind (conntrack: the connection's reply from the ClusterIP itself, to the node's
 *   address; the answer from the machine's egress proxy) while the aggregated apiserver answered
 *   200 on its pod. Headless, the name resolves to the Ready pods' addresses, which the CNI routes:
 *   no translation, nothing to leak.
 * - **The apiserver's readiness probe, retimed.** The chart hard-codes it at
 *   `initialDelaySeconds: 10, periodSeconds: 10` (karmada-apiserver.yaml, charts v1.16.0 and
 *   v1.18.2; `helm template` of both with our values, post-rendered, checked 2026-12-06). Until the
 *   apiserver is Ready its Service routes nowhere, so every other component, the chart's jobs and
 *   the NodePort from the Pulumi host wait up to 10 s longer than the apiserver takes to start.
 */
import * as YAML from "yaml";
import type { PostRenderPatch } from "../postrender/wrapper";
// This module is what the post-renderer runs (copied beside its wrapper with postrender/cli, see
// postrender/wrapper.ts): it may import only Node's modules and "yaml" (a type import is erased).

/** When the kubelet first asks, and then how often, whether a container is ready. */
export interface ProbeTiming {
  /** Seconds after the container starts before the first probe. */
  initialDelaySeconds: number;
  /** Seconds between probes. */
  periodSeconds: number;
}

/** Parameters of the probe patch. None of them is secret. */
export interface ReadinessProbePatch {
  /** The Deployment, e.g. `karmada-apiserver`. */
  deployment: string;
  /** Its container whose readiness probe is retimed. */
  container: string;
  /** The new timing. */
  timing: ProbeTiming;
}

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/**
 * Retimes the readiness probe of `p.container` in the Deployment `p.deployment` of a rendered chart
 * (a multi-document YAML stream); every other document passes through unchanged. Throws when that
 * container or its readiness probe is missing, so a changed chart fails the install instead of
 * silently keeping the slow probe.
 */
export function retimeReadinessProbe(manifest: string, p: ReadinessProbePatch): string {
  const out: string[] = [];
  let patched = 0;
  for (const doc of YAML.parseAllDocuments(manifest)) {
    if (doc.errors.length > 0)
      throw new Error(`post-render: the chart rendered invalid YAML: ${doc.errors[0].message}`);
    const obj: unknown = doc.toJS();
    if (obj === null || obj === undefined) continue;
    const o = asObj(obj);
    if (o.kind === "Deployment" && asObj(o.metadata).name === p.deployment) {
      const containers = asObj(asObj(asObj(o.spec).template).spec).containers;
      const index = Array.isArray(containers)
        ? (containers as unknown[]).map(asObj).findIndex((c) => c.name === p.container)
        : -1;
      const probe = ["spec", "template", "spec", "containers", index, "readinessProbe"];
      const current = index >= 0 ? asObj(asObj((containers as unknown[])[index]).readinessProbe) : {};
      if (Object.keys(current).length > 0) {
        // Only the two fields change; the document keeps its other text as Helm rendered it.
        doc.setIn([...probe, "initialDelaySeconds"], p.timing.initialDelaySeconds);
        doc.setIn([...probe, "periodSeconds"], p.timing.periodSeconds);
        patched++;
        out.push(doc.toString());
        continue;
      }
    }
    // Every other document passes through as Helm rendered it, byte for byte.
    out.push(manifest.slice(doc.range[0], doc.range[2]));
  }
  if (patched === 0) {
    throw new Error(
      `post-render: no Deployment "${p.deployment}" with a container "${p.container}" that has a readinessProbe in the chart output; is this the Karmada chart?`,
    );
  }
  // Each piece starts with its `---` when the chart wrote one (the patched one always does).
  return out
    .map((d) => d.replace(/^---[ \t]*\n/, ""))
    .map((d) => `---\n${d.endsWith("\n") ? d : `${d}\n`}`)
    .join("");
}

/**
 * Makes the Services named `names` headless (`spec.clusterIP: None`); every other document passes
 * through as Helm rendered it. Throws when one of them is missing, so a changed chart fails the
 * install instead of silently keeping its ClusterIP.
 */
export function makeServicesHeadless(manifest: string, names: string[]): string {
  const out: string[] = [];
  const found = new Set<string>();
  for (const doc of YAML.parseAllDocuments(manifest)) {
    if (doc.errors.length > 0)
      throw new Error(`post-render: the chart rendered invalid YAML: ${doc.errors[0].message}`);
    const o = asObj(doc.toJS());
    if (doc.contents === null) continue;
    const name = asObj(o.metadata).name;
    if (o.kind === "Service" && typeof name === "string" && names.includes(name)) {
      doc.setIn(["spec", "clusterIP"], "None");
      found.add(name);
      out.push(doc.toString());
      continue;
    }
    out.push(manifest.slice(doc.range[0], doc.range[2]));
  }
  const missing = names.filter((n) => !found.has(n));
  if (missing.length > 0)
    throw new Error(
      `post-render: no Service ${missing.map((n) => `"${n}"`).join(", ")} in the chart output; is this the Karmada chart?`,
    );
  return out
    .map((d) => d.replace(/^---[ \t]*\n/, ""))
    .map((d) => `---\n${d.endsWith("\n") ? d : `${d}\n`}`)
    .join("");
}

/** What KarmadaControlPlane's post-renderer does. None of it is secret. */
export interface KarmadaPostRenderParams {
  /** The apiserver's readiness probe retiming; none keeps the chart's probe. */
  probe?: ReadinessProbePatch;
  /** Services made headless (the aggregated apiserver's, see this module's note). */
  headlessServices: string[];
}

/** Both patches, in order. */
export function karmadaPostRender(manifest: string, p: KarmadaPostRenderParams): string {
  let out = manifest;
  if (p.probe) out = retimeReadinessProbe(out, p.probe);
  if (p.headlessServices.length > 0) out = makeServicesHeadless(out, p.headlessServices);
  return out;
}

/** The post-renderer's entry point (postrender/cli.ts calls it). */
export const postRender = karmadaPostRender;

/** The patches as the post-render wrapper takes them (`writePostRenderer`). */
export function karmadaPostRenderPatch(params: KarmadaPostRenderParams): PostRenderPatch<KarmadaPostRenderParams> {
  return {
    prefix: "karmada-postrender",
    purpose:
      "Helm post-renderer of the Karmada chart (KarmadaControlPlane): the aggregated apiserver's Service headless, the apiserver's readiness probe retimed.",
    module: "karmada/postrender",
    params,
  };
}
