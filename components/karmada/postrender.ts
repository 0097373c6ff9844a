/**
 * The Helm post-renderer of KarmadaControlPlane: the Karmada chart hard-codes the apiserver's
 * readiness probe at `initialDelaySeconds: 10, periodSeconds: 10` (karmada-apiserver.yaml, chart
 * v1.16.0). Until the apiserver is Ready its Service routes nowhere, so every other component, the
 * chart's post-install job and the NodePort from the Pulumi host wait up to 10 s longer than the
 * apiserver takes to start. The patch sets the probe's timing; nothing else changes.
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

/** The post-renderer's entry point (postrender/cli.ts calls it). */
export const postRender = retimeReadinessProbe;

/** The probe patch as the post-render wrapper takes it (`writePostRenderer`). */
export function karmadaPostRenderPatch(params: ReadinessProbePatch): PostRenderPatch<ReadinessProbePatch> {
  return {
    prefix: "karmada-postrender",
    purpose: "Helm post-renderer retiming the Karmada apiserver's readiness probe (KarmadaControlPlane).",
    module: "karmada/postrender",
    params,
  };
}
