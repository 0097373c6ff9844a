/**
 * IkoHomeOperator: the IKO chart on a cluster. Local mode is a plain install (fleet members);
 * remote ("works from home") mode runs the operator at home against a target cluster.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { clusterOptions } from "../cluster/handle";
import { throwIfArgProblems } from "../names";
import { checkIkoHomeOperatorArgs } from "./check";
import { CrdMirror } from "./crd-mirror";
import { RemoteOperatorIdentity } from "./identity";
import { DEFAULT_POSTRENDER_DIR, writePostRenderer } from "../postrender/wrapper";
import { ikoPostRenderPatch, kubeconfigChecksum } from "./postrender";
import { IKO_DEFAULTS, IkoHomeOperatorArgs } from "./types";
import { ikoValues } from "./values";

export type { IkoChartSource, IkoHomeOperatorArgs, IkoRemoteArgs } from "./types";

export class IkoHomeOperator extends pulumi.ComponentResource {
  /** The IKO chart's Helm release on home. */
  declare public readonly release: k8s.helm.v3.Release;
  /** The operator Deployment's name: `<release>-iris-operator-amd`. */
  declare public readonly deploymentName: string;
  /** The namespace the operator runs in on home. */
  declare public readonly namespace: string;
  /** Remote mode: the kubeconfig the operator uses for the target. Secret. */
  declare public readonly targetKubeconfig: pulumi.Output<string> | undefined;
  /** Remote mode: the IrisCluster CRD on the target. */
  declare public readonly crdMirror: CrdMirror | undefined;

  constructor(name: string, args: IkoHomeOperatorArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("IkoHomeOperator", name, checkIkoHomeOperatorArgs(args));
    super("iko-plus:iko:IkoHomeOperator", name, {}, opts);
    const home = args.home;
    const releaseName = args.releaseName ?? IKO_DEFAULTS.releaseName;
    this.namespace = args.namespace ?? IKO_DEFAULTS.namespace;
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
      const secretName = remote.secretName ?? IKO_DEFAULTS.secretName;
      const secretKey = remote.secretKey ?? IKO_DEFAULTS.secretKey;
      const kubeconfigPath = remote.kubeconfigPath ?? IKO_DEFAULTS.kubeconfigPath;
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
