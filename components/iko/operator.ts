/**
 * IkoHomeOperator: the IKO chart on a cluster. Local mode is a plain install (fleet members);
 * remote ("works from home") mode runs the operator at home against a target cluster.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions } from "../cluster/handle";
import { throwIfArgProblems } from "../names";
import { checkIkoHomeOperatorArgs } from "./check";
import { CrdMirror } from "./crd-mirror";
import { RemoteOperatorIdentity } from "./identity";
import { DEFAULT_POSTRENDER_DIR, writePostRenderer } from "../postrender/wrapper";
import { ikoPostRenderPatch, kubeconfigChecksum } from "./postrender";
import { IkoImage, ikoValues } from "./values";

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

export class IkoHomeOperator extends pulumi.ComponentResource {
  declare public readonly release: k8s.helm.v3.Release;
  /** The operator Deployment's name: `<release>-iris-operator-amd`. */
  declare public readonly deploymentName: string;
  declare public readonly namespace: string;
  /** Remote mode: the kubeconfig the operator uses for the target. Secret. */
  declare public readonly targetKubeconfig: pulumi.Output<string> | undefined;
  /** Remote mode: the IrisCluster CRD on the target. */
  declare public readonly crdMirror: CrdMirror | undefined;

  constructor(name: string, args: IkoHomeOperatorArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("IkoHomeOperator", name, checkIkoHomeOperatorArgs(args));
    super("iko-plus:iko:IkoHomeOperator", name, {}, opts);
    const home = args.home;
    const releaseName = args.releaseName ?? "iko";
    this.namespace = args.namespace ?? "iko";
    this.deploymentName = releaseName.includes("iris-operator-amd") ? releaseName : `${releaseName}-iris-operator-amd`;
    const ns = new k8s.core.v1.Namespace(
      `${name}-ns`,
      { metadata: { name: this.namespace } },
      clusterOptions(this, home),
    );
    const values = ikoValues({
      remote: args.remote !== undefined,
      image: args.image,
      imagePullSecrets: args.imagePullSecrets,
      extraValues: args.values,
    });
    const chart =
      args.chart.path !== undefined
        ? { chart: args.chart.path }
        : {
            chart: args.chart.name ?? "iris-operator-amd",
            version: args.chart.version,
            repositoryOpts: { repo: args.chart.repo },
          };

    let postrender: pulumi.Output<string> | undefined;
    const releaseDeps: pulumi.Resource[] = [ns];
    if (args.remote) {
      const remote = args.remote;
      const target = remote.target;
      const secretName = remote.secretName ?? "work-kubeconfig";
      const secretKey = remote.secretKey ?? "config";
      const kubeconfigPath = remote.kubeconfigPath ?? "/airgap/.kube/config";
      this.targetKubeconfig =
        (remote.credentials ?? "serviceAccount") === "admin"
          ? pulumi.secret(target.peerKubeconfig)
          : new RemoteOperatorIdentity(
              `${name}-identity`,
              {
                target,
                namespace: remote.identityNamespace,
                credentialGeneration: remote.credentialGeneration,
              },
              { parent: this },
            ).kubeconfig;
      const secret = new k8s.core.v1.Secret(
        `${name}-target-kubeconfig`,
        {
          metadata: { name: secretName, namespace: this.namespace },
          type: "Opaque",
          stringData: { [secretKey]: this.targetKubeconfig },
        },
        clusterOptions(this, home, [ns]),
      );
      releaseDeps.push(secret);
      const workDir = args.workDir ?? DEFAULT_POSTRENDER_DIR;
      // A preview only computes the wrapper's path: Helm runs post-renderers only on install/upgrade.
      const write = !pulumi.runtime.isDryRun();
      postrender = this.targetKubeconfig.apply((kubeconfig) =>
        writePostRenderer(
          workDir,
          ikoPostRenderPatch({
            secretName,
            secretKey,
            kubeconfigPath,
            checksum: kubeconfigChecksum(kubeconfig),
            containerName: "operator",
          }),
          { write },
        ),
      );
      // The wrapper path holds a checksum, not the kubeconfig: it need not be secret.
      postrender = pulumi.unsecret(postrender);
    }

    this.release = new k8s.helm.v3.Release(
      `${name}-iko`,
      {
        name: releaseName,
        namespace: this.namespace,
        ...chart,
        values,
        postrender,
        timeout: args.timeoutSeconds ?? 300,
      },
      clusterOptions(this, home, releaseDeps),
    );

    if (args.remote) {
      this.crdMirror = new CrdMirror(
        `${name}-crd`,
        {
          target: args.remote.target,
          manifestPath: args.remote.crdManifestPath,
          sourceCluster: args.remote.crdFromCluster,
          sourceDependsOn: [this.release],
        },
        { parent: this },
      );
    }
    this.registerOutputs({ deploymentName: this.deploymentName, status: this.release.status });
  }
}
