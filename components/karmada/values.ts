/**
 * Pure Helm values for Karmada's chart (`karmada`, v1.16.0) on a host cluster.
 * @see https://github.com/karmada-io/karmada/tree/v1.16.0/charts/karmada
 */
import { chartImageValues } from "../names/images";

/** The pinned chart version (Karmada's chart versions carry the "v"). */
export const KARMADA_CHART_VERSION = "v1.16.0";
/** Karmada's chart repository. */
export const KARMADA_CHART_REPO = "https://raw.githubusercontent.com/karmada-io/karmada/master/charts";
/** Release name and namespace: pinned, because auto-naming would rename every object. */
export const KARMADA_RELEASE = "karmada";
/**
 * The release's namespace on the host: not `karmada-system`. The chart's post-delete hook job
 * runs `kubectl delete -f` of the static resources meant for the Karmada API against the host
 * cluster, and those include the Namespaces `karmada-system` (`systemNamespace`) and
 * `karmada-cluster`: with the release in `karmada-system` it deletes its own namespace, Helm's
 * release record with it, and `helm uninstall` (so `pulumi destroy`) fails with "Failed to purge
 * the release: release: not found" (seen on kind with chart v1.16.0).
 */
export const KARMADA_NAMESPACE = "karmada-host";
/**
 * The chart's kubectl image. v1.16.0 defaults to `bitnamisecure/kubectl:latest` (unpinned; 1.15.0's
 * `bitnami/kubectl` is no longer published); this pins a versioned copy.
 */
export const KARMADA_KUBECTL_IMAGE = "docker.io/bitnamilegacy/kubectl:1.33.4";

/** The images the chart runs, by our key (`karmada.images.<key>`). */
export const KARMADA_IMAGE_KEYS = [
  "apiServer",
  "kubeControllerManager",
  "etcd",
  "cfssl",
  "kubectl",
  "aggregatedApiServer",
  "controllerManager",
  "scheduler",
  "webhook",
] as const;
export type KarmadaImageKey = (typeof KARMADA_IMAGE_KEYS)[number];
export type KarmadaImages = Partial<Record<KarmadaImageKey, string>>;

/**
 * Every image pinned: the chart's own defaults where it pins them (kube-apiserver,
 * kube-controller-manager, etcd), Karmada's components at the chart's version where it says
 * `latest` (`karmadaImageVersion`), cfssl at its last release where it says `latest`.
 */
export const KARMADA_DEFAULT_IMAGES: Record<KarmadaImageKey, string> = {
  apiServer: "registry.k8s.io/kube-apiserver:v1.34.1",
  kubeControllerManager: "registry.k8s.io/kube-controller-manager:v1.34.1",
  etcd: "registry.k8s.io/etcd:3.6.0-0",
  cfssl: "docker.io/cfssl/cfssl:v1.6.5",
  kubectl: KARMADA_KUBECTL_IMAGE,
  aggregatedApiServer: `docker.io/karmada/karmada-aggregated-apiserver:${KARMADA_CHART_VERSION}`,
  controllerManager: `docker.io/karmada/karmada-controller-manager:${KARMADA_CHART_VERSION}`,
  scheduler: `docker.io/karmada/karmada-scheduler:${KARMADA_CHART_VERSION}`,
  webhook: `docker.io/karmada/karmada-webhook:${KARMADA_CHART_VERSION}`,
};
/** The chart's own certificate hosts (certs.auto.hosts); overriding the list replaces it. */
export const KARMADA_DEFAULT_CERT_HOSTS = [
  "kubernetes.default.svc",
  "*.etcd.{{ .Release.Namespace }}.svc.{{ .Values.clusterDomain }}",
  "*.{{ .Release.Namespace }}.svc.{{ .Values.clusterDomain }}",
  "*.{{ .Release.Namespace }}.svc",
  "localhost",
  "127.0.0.1",
];
/**
 * Added to the chart's hosts: the Services of `systemNamespace` (karmada-system). Inside the
 * Karmada API, the APIService `v1alpha1.cluster.karmada.io` and the webhook configurations name
 * `karmada-aggregated-apiserver` and `karmada-webhook` in karmada-system (ExternalName Services
 * to the release namespace), so the Karmada apiserver checks their certificate for
 * `*.karmada-system.svc`; the chart's list only holds the release namespace, which equals it only
 * when the release is in karmada-system (KARMADA_NAMESPACE says why it is not).
 */
export const KARMADA_SYSTEM_NAMESPACE_CERT_HOSTS = [
  "*.{{ .Values.systemNamespace }}.svc.{{ .Values.clusterDomain }}",
  "*.{{ .Values.systemNamespace }}.svc",
];

export interface KarmadaValuesArgs {
  /** NodePort of the karmada-apiserver Service (30000-32767). */
  nodePort: number;
  /** Host names and IPs the API is reached by from outside, added to the certificate. */
  extraCertHosts: string[];
  /** kubectl image of the chart's jobs, `registry/repository:tag`. @default KARMADA_KUBECTL_IMAGE */
  kubectlImage?: string;
  /** Images by key, `registry/repository:tag` each (`kubectl` here wins over `kubectlImage`). @default KARMADA_DEFAULT_IMAGES */
  images?: KarmadaImages;
}

/** Splits `registry/repo/sitory:tag` into the chart's image keys (the shared rule, `chartImageValues`). */
export function chartImage(ref: string): { registry: string; repository: string; tag: string } {
  const image = chartImageValues(ref);
  if (!image) throw new Error(`image "${ref}" must be registry/repository:tag`);
  return image;
}

export function karmadaValues(a: KarmadaValuesArgs): Record<string, unknown> {
  const hosts = [...KARMADA_DEFAULT_CERT_HOSTS, ...KARMADA_SYSTEM_NAMESPACE_CERT_HOSTS];
  for (const h of a.extraCertHosts) if (!hosts.includes(h)) hosts.push(h);
  const images: Record<KarmadaImageKey, string> = {
    ...KARMADA_DEFAULT_IMAGES,
    ...(a.kubectlImage ? { kubectl: a.kubectlImage } : {}),
    ...a.images,
  };
  const image = (k: KarmadaImageKey) => ({ image: chartImage(images[k]) });
  return {
    // Rendered into Karmada's karmada-version ConfigMap (the chart's `latest` otherwise).
    karmadaImageVersion: KARMADA_CHART_VERSION,
    apiServer: { serviceType: "NodePort", nodePort: a.nodePort, ...image("apiServer") },
    certs: { mode: "auto", auto: { hosts } },
    cfssl: image("cfssl"),
    kubectl: image("kubectl"),
    etcd: { internal: image("etcd") },
    kubeControllerManager: image("kubeControllerManager"),
    aggregatedApiServer: image("aggregatedApiServer"),
    scheduler: image("scheduler"),
    webhook: image("webhook"),
    // Members grant Karmada scoped access (KarmadaMember): the unified-auth controller, which
    // pushes an impersonation ClusterRole to every member, would need RBAC rights there.
    controllerManager: { extraCommandArgs: { controllers: KARMADA_CONTROLLERS }, ...image("controllerManager") },
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
