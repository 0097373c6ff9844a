/**
 * Pure Helm values for Cilium on kind, reproducing what `cilium install` (cilium-cli v0.18)
 * sets on a kind cluster, plus the per-cluster name and id ClusterMesh needs.
 * @see https://docs.cilium.io/en/stable/installation/kind/
 */
import { mergeOver } from "../names/merge";

/** The pinned Cilium chart version (no "v"; image tags have one). */
export const CILIUM_VERSION = "1.18.6";
/**
 * Versions a running cluster moves from to CILIUM_VERSION by `pulumi up` (a version or chart
 * change in the stack's config; proven on kind by test/kind/cilium-mesh.test.ts, docs/upgrades.md).
 * testbed/kind-tier/cilium-images.sh builds exactly CILIUM_VERSION and these.
 */
export const CILIUM_UPGRADE_SOURCES: readonly string[] = ["1.18.0"];
/** Cilium's classic Helm repository. */
export const CILIUM_REPO = "https://helm.cilium.io/";

export interface CiliumValuesArgs {
  /** Cilium `cluster.name`: unique per cluster, at most 32 characters. */
  clusterName: string;
  /** Cilium `cluster.id`: unique per cluster, 1 to 255. */
  clusterId: number;
  /**
   * Replace kube-proxy (only when the cluster runs without it, kind `kubeProxyMode: none`).
   * @default false: kind runs kube-proxy, and `cilium install` then sets no replacement
   */
  kubeProxyReplacement?: boolean;
  /**
   * API server host Cilium uses when it replaces kube-proxy.
   * @default `<clusterName>-control-plane`, the kind control-plane container
   */
  k8sServiceHost?: string;
  /** API server port Cilium uses when it replaces kube-proxy. @default 6443 */
  k8sServicePort?: number;
  /**
   * Only the images built from Cilium's Go module exist (the agent, operator-generic and the
   * clustermesh-apiserver, as `testbed/kind-tier/cilium-images.sh` builds them for an air-gapped
   * mirror): Envoy (C++, not in the module) is off and so is the L7 proxy that needs it,
   * Hubble relay and UI (not built) are off, and images are pulled by their pinned tags
   * (`useDigest: false`: a mirror filled by tag holds other digests than quay.io).
   * @default false: the chart's images from quay.io, Envoy and the L7 proxy on (chart defaults)
   */
  moduleImages?: boolean;
  /**
   * Capabilities taken out of the chart's lists for the cilium-agent container and the
   * clean-cilium-state init container. For hosts whose capability bounding set lacks one, where
   * every container asking for it fails with `unable to apply caps: operation not permitted`:
   * `["SYS_RESOURCE"]` on VMs without CAP_SYS_RESOURCE (the agent needs it only to raise
   * RLIMIT_MEMLOCK, which kernels >= 5.11 no longer need for BPF maps).
   * @default none: the chart's capabilities
   */
  dropCapabilities?: readonly string[];
  /**
   * The chart's `clustermesh` values of a ClusterMesh member (`clusterMeshValues`, through
   * `ClusterMesh.cniArgs`), merged over what `moduleImages` sets there.
   * @default none: no clustermesh-apiserver, no peers (the chart's defaults)
   */
  clusterMesh?: Record<string, unknown>;
}

/** The chart's `securityContext.capabilities.ciliumAgent` (values.yaml of 1.18.0 to 1.18.6). */
export const AGENT_CAPABILITIES: readonly string[] = [
  "CHOWN",
  "KILL",
  "NET_ADMIN",
  "NET_RAW",
  "IPC_LOCK",
  "SYS_MODULE",
  "SYS_ADMIN",
  "SYS_RESOURCE",
  "DAC_OVERRIDE",
  "FOWNER",
  "SETGID",
  "SETUID",
];
/** The chart's `securityContext.capabilities.cleanCiliumState`. */
export const CLEAN_STATE_CAPABILITIES: readonly string[] = ["NET_ADMIN", "SYS_MODULE", "SYS_ADMIN", "SYS_RESOURCE"];

/** Problems of `dropCapabilities`: each must be one the chart gives the agent, listed once. */
export function checkDropCapabilities(caps: readonly string[]): string[] {
  const problems: string[] = [];
  caps.forEach((c, i) => {
    if (!AGENT_CAPABILITIES.includes(c))
      problems.push(`${JSON.stringify(c)} is not one of the agent's capabilities (${AGENT_CAPABILITIES.join(", ")})`);
    else if (caps.indexOf(c) !== i) problems.push(`${JSON.stringify(c)} is listed twice`);
  });
  return problems;
}

export function ciliumValues(args: CiliumValuesArgs): Record<string, unknown> {
  const values: Record<string, unknown> = {
    cluster: { name: args.clusterName, id: args.clusterId },
    ipam: { mode: "kubernetes" },
    routingMode: "tunnel",
    tunnelProtocol: "vxlan",
    operator: { replicas: 1 },
    image: { pullPolicy: "IfNotPresent" },
  };
  if (args.kubeProxyReplacement) {
    values.kubeProxyReplacement = true;
    values.k8sServiceHost = args.k8sServiceHost ?? `${args.clusterName}-control-plane`;
    values.k8sServicePort = args.k8sServicePort ?? 6443;
  }
  if (args.moduleImages) {
    values.image = { pullPolicy: "IfNotPresent", useDigest: false };
    values.operator = { replicas: 1, image: { useDigest: false } };
    values.clustermesh = { apiserver: { image: { useDigest: false } } };
    values.envoy = { enabled: false };
    values.l7Proxy = false;
    values.hubble = { relay: { enabled: false }, ui: { enabled: false } };
  }
  if (args.clusterMesh)
    values.clustermesh = mergeValues((values.clustermesh ?? {}) as Record<string, unknown>, args.clusterMesh);
  const drop = args.dropCapabilities ?? [];
  if (drop.length > 0) {
    values.securityContext = {
      capabilities: {
        ciliumAgent: AGENT_CAPABILITIES.filter((c) => !drop.includes(c)),
        cleanCiliumState: CLEAN_STATE_CAPABILITIES.filter((c) => !drop.includes(c)),
      },
    };
  }
  return values;
}

/**
 * `over` merged into `base` (neither changed): mappings merge key by key, anything else (lists,
 * scalars, Pulumi outputs) in `over` replaces what `base` has. The one merge, `mergeOver`
 * (components/names/merge.ts), under the name this module has always exported.
 */
export const mergeValues: (base: Record<string, unknown>, over: Record<string, unknown>) => Record<string, unknown> =
  mergeOver;

/** The probe's default image: kind's sandbox (pause) image, present on every kind node. */
export const CNI_PROBE_IMAGE = "registry.k8s.io/pause:3.10";

/** A container of the CNI probe: the fields it sets (`v1` Container). */
export interface ProbeContainer {
  name: string;
  image: string;
  imagePullPolicy: "Always" | "IfNotPresent" | "Never";
  resources: { requests: { cpu: string; memory: string }; limits: { memory: string } };
  securityContext: {
    allowPrivilegeEscalation: boolean;
    readOnlyRootFilesystem: boolean;
    runAsNonRoot: boolean;
    runAsUser: number;
    capabilities: { drop: string[] };
  };
}

/**
 * The CNI probe's `apps/v1` DaemonSet arguments (metadata and spec; the resource sets apiVersion
 * and kind), with only the fields it sets, so a misspelt field does not compile.
 */
export interface CniProbeDaemonSet {
  metadata: { name: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> };
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        tolerations: { operator: "Exists" | "Equal"; key?: string; value?: string; effect?: string }[];
        automountServiceAccountToken: boolean;
        terminationGracePeriodSeconds: number;
        containers: ProbeContainer[];
      };
    };
  };
}

/**
 * A DaemonSet of one pause container per node on the pod network, tolerating every taint. Pulumi
 * awaits a DaemonSet until a pod is Ready on every node, and a pod off the host network starts
 * only once the CNI gives it an address: so this is "Cilium works on every node". Helm's own wait
 * cannot say it: the chart's agent DaemonSet has `maxUnavailable: 2`, and Helm counts a DaemonSet
 * ready when `desired - maxUnavailable` pods are, which on a 2-node kind cluster is none.
 */
export function cniProbeDaemonSet(name: string, image: string = CNI_PROBE_IMAGE): CniProbeDaemonSet {
  const labels = { "app.kubernetes.io/name": name, "app.kubernetes.io/managed-by": "iko-plus" };
  return {
    metadata: { name, namespace: "kube-system", labels, annotations: { "pulumi.com/timeoutSeconds": "600" } },
    spec: {
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          tolerations: [{ operator: "Exists" }],
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 1,
          containers: [
            {
              name: "pause",
              image,
              imagePullPolicy: "IfNotPresent",
              resources: { requests: { cpu: "1m", memory: "4Mi" }, limits: { memory: "16Mi" } },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                runAsUser: 65535,
                capabilities: { drop: ["ALL"] },
              },
            },
          ],
        },
      },
    },
  };
}
