/**
 * Pure Helm values for Karmada's chart (`karmada`, v1.15.x) on a host cluster.
 * @see https://github.com/karmada-io/karmada/tree/master/charts/karmada
 */
import { chartImageValues } from "../names/images";

/** The pinned chart version (Karmada's chart versions carry the "v"). */
export const KARMADA_CHART_VERSION = "v1.15.0";
/** Karmada's chart repository. */
export const KARMADA_CHART_REPO = "https://raw.githubusercontent.com/karmada-io/karmada/master/charts";
/** Release name and namespace: pinned, because auto-naming would rename every object. */
export const KARMADA_RELEASE = "karmada";
export const KARMADA_NAMESPACE = "karmada-system";
/**
 * The chart's kubectl image. v1.15.0 defaults to `bitnami/kubectl:latest`, which Bitnami no longer
 * publishes; this pins a versioned copy.
 */
export const KARMADA_KUBECTL_IMAGE = "docker.io/bitnamilegacy/kubectl:1.33.4";
/** The chart's own certificate hosts (certs.auto.hosts); overriding the list replaces it. */
export const KARMADA_DEFAULT_CERT_HOSTS = [
  "kubernetes.default.svc",
  "*.etcd.{{ .Release.Namespace }}.svc.{{ .Values.clusterDomain }}",
  "*.{{ .Release.Namespace }}.svc.{{ .Values.clusterDomain }}",
  "*.{{ .Release.Namespace }}.svc",
  "localhost",
  "127.0.0.1",
];

export interface KarmadaValuesArgs {
  /** NodePort of the karmada-apiserver Service (30000-32767). */
  nodePort: number;
  /** Host names and IPs the API is reached by from outside, added to the certificate. */
  extraCertHosts: string[];
  /** kubectl image of the chart's jobs, `registry/repository:tag`. @default KARMADA_KUBECTL_IMAGE */
  kubectlImage?: string;
}

/** Splits `registry/repo/sitory:tag` into the chart's image keys (the shared rule, `chartImageValues`). */
export function chartImage(ref: string): { registry: string; repository: string; tag: string } {
  const image = chartImageValues(ref);
  if (!image) throw new Error(`image "${ref}" must be registry/repository:tag`);
  return image;
}

export function karmadaValues(a: KarmadaValuesArgs): Record<string, unknown> {
  const hosts = [...KARMADA_DEFAULT_CERT_HOSTS];
  for (const h of a.extraCertHosts) if (!hosts.includes(h)) hosts.push(h);
  return {
    apiServer: { serviceType: "NodePort", nodePort: a.nodePort },
    certs: { mode: "auto", auto: { hosts } },
    kubectl: { image: chartImage(a.kubectlImage ?? KARMADA_KUBECTL_IMAGE) },
    // Members grant Karmada scoped access (KarmadaMember): the unified-auth controller, which
    // pushes an impersonation ClusterRole to every member, would need RBAC rights there.
    controllerManager: { extraCommandArgs: { controllers: KARMADA_CONTROLLERS } },
  };
}

/**
 * The controllers Karmada runs: all on-by-default ones except unifiedAuth (it writes RBAC on
 * members, which scoped member access does not allow; its aggregated-API proxy is not used here).
 */
export const KARMADA_CONTROLLERS = "*,-unifiedAuth";

/** The host part of an https URL (for the certificate), e.g. `127.0.0.1` of `https://127.0.0.1:32443`. */
export function endpointHost(endpoint: string): string {
  const u = new URL(endpoint);
  return u.hostname.replace(/^\[|\]$/g, "");
}
