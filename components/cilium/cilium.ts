/**
 * CiliumCni: Cilium by Helm into one cluster. Its `handle` output is the cluster handle gated on
 * Cilium being ready, so whatever is installed with it waits for the CNI.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions, onCluster, withReadyGate } from "../cluster/handle";
import { ArgProblem, checkCiliumClusterId, checkClusterName, checkField, throwIfArgProblems } from "../names";
import {
  CILIUM_REPO,
  CILIUM_VERSION,
  CNI_PROBE_IMAGE,
  CiliumValuesArgs,
  checkDropCapabilities,
  ciliumValues,
  cniProbeDaemonSet,
} from "./values";

export interface CiliumCniArgs extends Omit<CiliumValuesArgs, "clusterName"> {
  /** The cluster to install into. */
  cluster: ClusterHandle;
  /** Cilium `cluster.name`. @default the cluster handle's name */
  clusterName?: string;
  /**
   * A local chart directory or .tgz (air-gapped use); its Chart.yaml says the version, so
   * `version` is not given with it. @default chart `cilium` from https://helm.cilium.io/ at `version`
   */
  chartPath?: string;
  /**
   * Chart version pulled from the repository, e.g. `1.18.0` (no "v"). Changing it upgrades the
   * release in place (docs/upgrades.md lists the tested paths). @default 1.18.6 (CILIUM_VERSION)
   */
  version?: string;
  /** Seconds Helm waits for Cilium to become ready. @default 600 */
  timeoutSeconds?: number;
  /**
   * Image of the CNI probe (`cniProbeDaemonSet`): a pause image every node can run.
   * @default registry.k8s.io/pause:3.10, kind's sandbox image
   */
  probeImage?: string;
  /** Resources the release waits for beyond the cluster's gate (a ClusterMesh member's Secrets). @default none */
  dependsOn?: pulumi.Resource[];
}

/** The fields `checkCiliumCniArgs` judges (a cluster handle is not needed to check them). */
export type CiliumCniCheckedArgs = Partial<
  Pick<CiliumCniArgs, "clusterName" | "clusterId" | "dropCapabilities" | "version" | "chartPath">
>;

/**
 * Problems of CiliumCni args, as `[field, value, problem]` (the stack config reports the same
 * problems under its own keys). Only the fields given are checked; the constructor passes the
 * cluster handle's name as `clusterName` when it is not set.
 */
export function checkCiliumCniArgs(args: CiliumCniCheckedArgs): ArgProblem[] {
  const problems: ArgProblem[] = [];
  checkField(problems, "clusterName", args.clusterName, checkClusterName);
  checkField(problems, "clusterId", args.clusterId, checkCiliumClusterId);
  for (const p of checkDropCapabilities(args.dropCapabilities ?? []))
    problems.push(["dropCapabilities", args.dropCapabilities, p]);
  if (args.version !== undefined) {
    if (!/^\d+\.\d+\.\d+$/.test(args.version))
      problems.push(["version", args.version, `must be a chart version like ${CILIUM_VERSION} (no "v")`]);
    else if (args.chartPath !== undefined)
      problems.push([
        "version",
        args.version,
        "is for the chart from Cilium's repository; a local chart (chartPath) carries its own version: give one of the two",
      ]);
  }
  return problems;
}

export class CiliumCni extends pulumi.ComponentResource {
  /** The Helm release. */
  declare public readonly release: k8s.helm.v3.Release;
  /** A pause pod on every node's pod network: Ready on all of them once Cilium works everywhere. */
  declare public readonly probe: k8s.apps.v1.DaemonSet;
  /** The cluster handle, gated on Cilium being ready (the release and the probe). */
  declare public readonly handle: ClusterHandle;

  constructor(name: string, args: CiliumCniArgs, opts?: pulumi.ComponentResourceOptions) {
    const clusterName = args.clusterName ?? args.cluster.name;
    throwIfArgProblems(
      "CiliumCni",
      name,
      checkCiliumCniArgs({
        clusterName,
        clusterId: args.clusterId,
        dropCapabilities: args.dropCapabilities,
        version: args.version,
        chartPath: args.chartPath,
      }),
    );
    super("iko-plus:cilium:CiliumCni", name, {}, opts);
    const values = ciliumValues({ ...args, clusterName });
    const source = args.chartPath
      ? { chart: args.chartPath }
      : { chart: "cilium", version: args.version ?? CILIUM_VERSION, repositoryOpts: { repo: CILIUM_REPO } };
    this.release = new k8s.helm.v3.Release(
      `${name}-cilium`,
      {
        name: "cilium",
        namespace: "kube-system",
        ...source,
        values,
        timeout: args.timeoutSeconds ?? 600,
      },
      {
        ...clusterOptions(this, args.cluster, args.dependsOn ?? []),
      },
    );
    this.probe = new k8s.apps.v1.DaemonSet(
      `${name}-probe`,
      cniProbeDaemonSet("iko-plus-cni-probe", args.probeImage ?? CNI_PROBE_IMAGE),
      { parent: this, ...onCluster(args.cluster), dependsOn: [this.release] },
    );
    this.handle = withReadyGate(args.cluster, this.release, this.probe);
    this.registerOutputs({ status: this.release.status });
  }
}
