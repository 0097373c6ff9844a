/**
 * IkoHomeOperator's arguments and their defaults, written once (the component and the stack
 * config both read them from here).
 */
import type { ClusterHandle } from "../cluster/handle";
import type { IkoImage } from "./values";

/** The defaults of IkoHomeOperator's args (each one's JSDoc says it in words). */
export const IKO_DEFAULTS = {
  releaseName: "iko",
  namespace: "iko",
  secretName: "work-kubeconfig",
  secretKey: "config",
  kubeconfigPath: "/airgap/.kube/config",
  identityNamespace: "iko-remote",
} as const;

/** Where the IKO chart comes from. */
export interface IkoChartSource {
  /** A local chart directory or .tgz (the InterSystems download's `chart/iris-operator`). */
  path?: string;
  /** A chart repository URL or `oci://` reference, with `name`. */
  repo?: string;
  /** The chart name in `repo`. @default "iris-operator-amd" */
  name?: string;
  /** The chart version in `repo`. Required with `repo`. */
  version?: string;
}

export interface IkoRemoteArgs {
  /** The cluster the operator reconciles IrisClusters on. */
  target: ClusterHandle;
  /** Secret on home holding the target kubeconfig. @default "work-kubeconfig" */
  secretName?: string;
  /** Key of the kubeconfig in that Secret. @default "config" */
  secretKey?: string;
  /** Path of the kubeconfig inside the operator container. @default "/airgap/.kube/config" */
  kubeconfigPath?: string;
  /**
   * Which credentials the operator gets for the target: a dedicated ServiceAccount with IKO's
   * ClusterRole rights, or the target's own (admin) peer kubeconfig. @default "serviceAccount"
   */
  credentials?: "serviceAccount" | "admin";
  /** Changing it rotates the ServiceAccount token and rolls the operator. @default 1 */
  credentialGeneration?: number;
  /** Namespace of the operator's ServiceAccount on the target. @default "iko-remote" */
  identityNamespace?: string;
  /** The IrisCluster CRD as a manifest file. One of `crdManifestPath` and `crdFromCluster` is required. */
  crdManifestPath?: string;
  /** A cluster to copy the live IrisCluster CRD from. */
  crdFromCluster?: ClusterHandle;
}

export interface IkoHomeOperatorArgs {
  /** The cluster the operator runs in. */
  home: ClusterHandle;
  /** The chart. */
  chart: IkoChartSource;
  /** Helm release name. @default "iko" (Deployment `iko-iris-operator-amd`) */
  releaseName?: string;
  /** Namespace of the release, created by the component. @default "iko" */
  namespace?: string;
  /** Operator image. @default the chart's image */
  image?: IkoImage;
  /** Pull secrets for the operator image. @default none */
  imagePullSecrets?: string[];
  /** Further chart values. @default none */
  values?: Record<string, unknown>;
  /** Seconds Helm waits for the operator to become ready. @default 300 */
  timeoutSeconds?: number;
  /** Remote mode. @default local mode: the operator reconciles its own cluster */
  remote?: IkoRemoteArgs;
  /**
   * Folder (relative to the project) for the generated post-renderer wrapper and the compiled
   * JavaScript it runs; written on `up`, never in a preview.
   * @default ".iko-plus/postrender"
   */
  workDir?: string;
}
