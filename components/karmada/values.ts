/**
 * Pure Helm values for Karmada's chart (`karmada`, v1.18.2 by default; v1.16.0 stays supported
 * as the version upgrades start from) on a host cluster. Where the two charts differ, the values
 * are keyed by the chart version (`karmadaChartDefaults`, `chartAddsSystemNamespaceCertHosts`).
 * @see https://github.com/karmada-io/karmada/tree/v1.18.2/charts/karmada
 */
import { chartImageValues } from "../names/images";

/** The pinned chart version (Karmada's chart versions carry the "v"). */
export const KARMADA_CHART_VERSION = "v1.18.2";
/** Chart versions this project has read and tested: the default and the upgrade source. */
export const KARMADA_SUPPORTED_CHART_VERSIONS = ["v1.16.0", "v1.18.2"] as const;
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
 * the release: release: not found" (seen on kind with chart v1.16.0; v1.18.2's post-delete job is
 * the same).
 */
export const KARMADA_NAMESPACE = "karmada-host";
/**
 * The chart's kubectl image. v1.16.0 and v1.18.2 default to `bitnamisecure/kubectl:latest`
 * (unpinned; 1.15.0's `bitnami/kubectl` is no longer published); this pins a versioned copy.
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

/** The images a chart version pins itself (values.yaml): its kube-apiserver, kube-controller-manager and etcd. */
export interface KarmadaChartDefaults {
  apiServer: string;
  kubeControllerManager: string;
  etcd: string;
}

/** What each supported chart's values.yaml pins (charts/karmada/values.yaml of the module). */
export const KARMADA_CHART_DEFAULTS: Record<(typeof KARMADA_SUPPORTED_CHART_VERSIONS)[number], KarmadaChartDefaults> = {
  "v1.16.0": {
    apiServer: "registry.k8s.io/kube-apiserver:v1.34.1",
    kubeControllerManager: "registry.k8s.io/kube-controller-manager:v1.34.1",
    etcd: "registry.k8s.io/etcd:3.6.0-0",
  },
  "v1.18.2": {
    apiServer: "registry.k8s.io/kube-apiserver:v1.35.2",
    kubeControllerManager: "registry.k8s.io/kube-controller-manager:v1.35.2",
    etcd: "registry.k8s.io/etcd:3.6.6-0",
  },
};

/** `[major, minor, patch]` of `v1.18.2` (or `1.18.2`), or undefined when it is not such a version. */
export function parseChartVersion(version: string): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/**
 * The chart's own image pins for `version`: that version's where this project has read its chart,
 * else the newest read one older than it, else the oldest (a version is not guessed at).
 */
export function karmadaChartDefaults(version: string): KarmadaChartDefaults {
  const known = KARMADA_SUPPORTED_CHART_VERSIONS as readonly string[];
  if (known.includes(version)) return KARMADA_CHART_DEFAULTS[version as keyof typeof KARMADA_CHART_DEFAULTS];
  const v = parseChartVersion(version);
  const older = v
    ? KARMADA_SUPPORTED_CHART_VERSIONS.filter((k) => compareVersions(parseChartVersion(k) ?? [0, 0, 0], v) <= 0)
    : [];
  return KARMADA_CHART_DEFAULTS[older.length > 0 ? older[older.length - 1] : KARMADA_SUPPORTED_CHART_VERSIONS[0]];
}

function compareVersions(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Every image pinned for a chart version: the chart's own pins where it pins them (kube-apiserver,
 * kube-controller-manager, etcd), Karmada's components at the chart's version where it says
 * `latest` (`karmadaImageVersion`), cfssl at its last release where it says `latest`.
 */
export function karmadaDefaultImages(version: string = KARMADA_CHART_VERSION): Record<KarmadaImageKey, string> {
  return {
    ...karmadaChartDefaults(version),
    cfssl: "docker.io/cfssl/cfssl:v1.6.5",
    kubectl: KARMADA_KUBECTL_IMAGE,
    aggregatedApiServer: `docker.io/karmada/karmada-aggregated-apiserver:${version}`,
    controllerManager: `docker.io/karmada/karmada-controller-manager:${version}`,
    scheduler: `docker.io/karmada/karmada-scheduler:${version}`,
    webhook: `docker.io/karmada/karmada-webhook:${version}`,
  };
}

/** The images of the pinned chart version (KARMADA_CHART_VERSION). */
export const KARMADA_DEFAULT_IMAGES: Record<KarmadaImageKey, string> = karmadaDefaultImages();
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
 * when the release is in karmada-system (KARMADA_NAMESPACE says why it is not). Only for charts
 * that do not add them themselves (`chartAddsSystemNamespaceCertHosts`).
 */
export const KARMADA_SYSTEM_NAMESPACE_CERT_HOSTS = [
  "*.{{ .Values.systemNamespace }}.svc.{{ .Values.clusterDomain }}",
  "*.{{ .Values.systemNamespace }}.svc",
];

/**
 * Whether the chart itself adds the systemNamespace SANs when the release is in another namespace
 * (its `karmada.certHosts` helper in templates/_helpers.tpl, used by pre-install-job.yaml; Karmada
 * #7624, in v1.16.7, v1.17.4 and v1.18.1 on). v1.16.0 does not. A version that is not `vX.Y.Z` counts
 * as not adding them: the values then add them, and a SAN listed twice is harmless, a missing one is not.
 */
export function chartAddsSystemNamespaceCertHosts(version: string): boolean {
  const v = parseChartVersion(version);
  if (!v) return false;
  const [major, minor, patch] = v;
  if (major !== 1) return major > 1;
  if (minor >= 18) return minor > 18 || patch >= 1;
  if (minor === 17) return patch >= 4;
  if (minor === 16) return patch >= 7;
  return false;
}

export interface KarmadaValuesArgs {
  /** NodePort of the karmada-apiserver Service (30000-32767). */
  nodePort: number;
  /** Host names and IPs the API is reached by from outside, added to the certificate. */
  extraCertHosts: string[];
  /** kubectl image of the chart's jobs, `registry/repository:tag`. @default KARMADA_KUBECTL_IMAGE */
  kubectlImage?: string;
  /** Images by key, `registry/repository:tag` each (`kubectl` here wins over `kubectlImage`). @default karmadaDefaultImages(chartVersion) */
  images?: KarmadaImages;
  /** The chart's version, which keys what differs between chart versions. @default KARMADA_CHART_VERSION (v1.18.2) */
  chartVersion?: string;
}

/** Splits `registry/repo/sitory:tag` into the chart's image keys (the shared rule, `chartImageValues`). */
export function chartImage(ref: string): { registry: string; repository: string; tag: string } {
  const image = chartImageValues(ref);
  if (!image) throw new Error(`image "${ref}" must be registry/repository:tag`);
  return image;
}

export function karmadaValues(a: KarmadaValuesArgs): Record<string, unknown> {
  const version = a.chartVersion ?? KARMADA_CHART_VERSION;
  const hosts = [
    ...KARMADA_DEFAULT_CERT_HOSTS,
    ...(chartAddsSystemNamespaceCertHosts(version) ? [] : KARMADA_SYSTEM_NAMESPACE_CERT_HOSTS),
  ];
  for (const h of a.extraCertHosts) if (!hosts.includes(h)) hosts.push(h);
  const images: Record<KarmadaImageKey, string> = {
    ...karmadaDefaultImages(version),
    ...(a.kubectlImage ? { kubectl: a.kubectlImage } : {}),
    ...a.images,
  };
  const image = (k: KarmadaImageKey) => ({ image: chartImage(images[k]) });
  return {
    // Rendered into Karmada's karmada-version ConfigMap (the chart's `latest` otherwise).
    karmadaImageVersion: version,
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
