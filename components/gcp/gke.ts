/**
 * GkeCluster: a regional or zonal GKE cluster with one node pool and Dataplane V2 (Cilium-based,
 * so no CiliumCni), exposed as a cluster handle. Neither kubeconfig uses the gcloud auth plugin:
 * the host kubeconfig carries the deploying identity's access token (refreshed on every run). With
 * `peerAccess: "cluster-admin"`, the peer kubeconfig carries a long-lived token of a cluster-admin
 * ServiceAccount made for peers that cannot run gcloud (a remote operator in "admin" credentials
 * mode); by default no such identity exists and the peer kubeconfig is the host one.
 */
import type * as gcp from "@pulumi/gcp";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import {
  ClusterHandle,
  clusterOptions,
  KUBECONFIG_REACH_HINT,
  clusterIdentity,
  describeCluster,
  whenReachable,
} from "../cluster";
import { tokenKubeconfig } from "../kubeconfig";
import { ArgProblem, checkField, checkWholeNumber, throwIfArgProblems } from "../names";

export interface GkeClusterArgs {
  /** GKE cluster name. @default the resource name */
  clusterName?: string;
  /** GCP project. @default the GCP provider's project */
  project?: string;
  /** A region (regional cluster, nodes in each zone) or a zone (zonal cluster). */
  location: string;
  /** Nodes per zone. @default 1 */
  nodeCount?: number;
  /** Node machine type. @default e2-standard-4 */
  machineType?: string;
  /** GKE release channel. @default REGULAR */
  releaseChannel?: "RAPID" | "REGULAR" | "STABLE";
  /** Refuse to delete the cluster (set false before `pulumi destroy`). @default true */
  deletionProtection?: boolean;
  /**
   * Protects the cluster in Pulumi (`protect`): a change that would replace it (location, a
   * setting GKE cannot change in place) or delete it fails `preview` and `up` before anything is
   * touched, where `deletionProtection` only stops GCP's delete once Pulumi has started. Set it
   * false and run `up` to make such a change on purpose. @default not protected (unless the
   * component itself is, by Pulumi's `protect` option)
   */
  protect?: boolean;
  /** An explicit GCP provider. @default one made for this cluster, for `project` */
  gcpProvider?: gcp.Provider;
  /**
   * A long-lived identity for peers: "cluster-admin" makes the ServiceAccount iko-plus-peer bound
   * to cluster-admin and puts its token in `peerKubeconfig`. @default "none": no ServiceAccount and
   * no binding; `peerKubeconfig` is the host kubeconfig (the deploying identity's short-lived token).
   * Karmada and the remote operator's ServiceAccount mode mint their own scoped identities instead.
   */
  peerAccess?: "none" | "cluster-admin";
  /**
   * The stack's name for this cluster (e.g. `work`), put before its source in messages.
   * @default none: messages say `GKE cluster "<name>"`
   */
  role?: string;
}

/** Namespace and name of the peers' ServiceAccount on the cluster. */
export const PEER_NAMESPACE = "kube-system";
export const PEER_SERVICE_ACCOUNT = "iko-plus-peer";

/** The cluster's API URL from GKE's endpoint (an IP or host without scheme). */
export function gkeServer(endpoint: string): string {
  return endpoint.startsWith("https://") ? endpoint : `https://${endpoint}`;
}

/** The fields `checkGkeClusterArgs` judges. */
export type GkeClusterCheckedArgs = Partial<
  Pick<GkeClusterArgs, "clusterName" | "location" | "nodeCount" | "machineType">
>;

/** A GCP region (us-central1) or zone (us-central1-a). */
const GCP_LOCATION = /^[a-z]+(-[a-z]+)+\d+(-[a-z])?$/;

/**
 * @pulumi/gcp, loaded when the first GkeCluster is declared rather than when this module is: its
 * index costs about 0.2 CPU-s to load, which every program without a GKE cluster (a kind or lab
 * fleet) paid at start, on the way to its first resource.
 */
export function gcpSdk(): typeof gcp {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, on purpose (above)
  return require("@pulumi/gcp") as typeof gcp;
}

/**
 * Problems of GkeCluster args, as `[field, value, problem]`; the fleet config reports them under
 * `clusters[i].gke.*`. The constructor passes the resource name as `clusterName` when none is set.
 */
export function checkGkeClusterArgs(args: GkeClusterCheckedArgs): ArgProblem[] {
  const problems: ArgProblem[] = [];
  if (args.location === undefined || args.location === "") {
    problems.push([
      "location",
      args.location,
      "is required for a GKE cluster; use a region (us-central1) or a zone (us-central1-a)",
    ]);
  } else if (!GCP_LOCATION.test(args.location)) {
    problems.push([
      "location",
      args.location,
      "is not a GCP region or zone; use a region (us-central1) or a zone (us-central1-a)",
    ]);
  }
  if (args.clusterName !== undefined && !/^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$/.test(args.clusterName)) {
    problems.push([
      "clusterName",
      args.clusterName,
      "is not a GKE cluster name; use at most 40 lowercase letters, digits and '-', starting with a letter and not ending with '-'",
    ]);
  }
  checkField(problems, "nodeCount", args.nodeCount, checkWholeNumber(1, 100));
  if (args.machineType !== undefined && !/^[a-z0-9]+(-[a-z0-9]+)+$/.test(args.machineType)) {
    problems.push(["machineType", args.machineType, "is not a machine type; use one like e2-standard-4"]);
  }
  return problems;
}

export class GkeCluster extends pulumi.ComponentResource implements ClusterHandle {
  declare public readonly name: string;
  declare public readonly kubeconfig: pulumi.Output<string>;
  declare public readonly peerKubeconfig: pulumi.Output<string>;
  declare public readonly endpoint: pulumi.Output<string>;
  declare public readonly peerEndpoint: pulumi.Output<string>;
  declare public readonly caData: pulumi.Output<string>;
  declare public readonly identity: pulumi.Output<string>;
  declare public readonly description: string;
  declare public readonly provider: k8s.Provider;
  declare public readonly readyGate: pulumi.Resource[];
  /** The GKE cluster resource. */
  declare public readonly cluster: gcp.container.Cluster;
  /** The cluster's node pool. */
  declare public readonly nodePool: gcp.container.NodePool;

  constructor(name: string, args: GkeClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("GkeCluster", name, checkGkeClusterArgs({ ...args, clusterName: args.clusterName ?? name }));
    super("iko-plus:gcp:GkeCluster", name, {}, opts);
    this.name = args.clusterName ?? name;
    const gcp = gcpSdk();
    const gcpProvider =
      args.gcpProvider ?? new gcp.Provider(`${name}-gcp`, { project: args.project }, { parent: this });
    const onGcp = { parent: this, provider: gcpProvider };
    this.cluster = new gcp.container.Cluster(
      `${name}-gke`,
      {
        name: this.name,
        project: args.project,
        location: args.location,
        initialNodeCount: 1,
        removeDefaultNodePool: true,
        datapathProvider: "ADVANCED_DATAPATH",
        networkingMode: "VPC_NATIVE",
        ipAllocationPolicy: {},
        releaseChannel: { channel: args.releaseChannel ?? "REGULAR" },
        deletionProtection: args.deletionProtection ?? true,
      },
      { ...onGcp, protect: args.protect },
    );
    this.nodePool = new gcp.container.NodePool(
      `${name}-nodes`,
      {
        cluster: this.cluster.name,
        location: this.cluster.location,
        project: this.cluster.project,
        nodeCount: args.nodeCount ?? 1,
        nodeConfig: {
          machineType: args.machineType ?? "e2-standard-4",
          oauthScopes: ["https://www.googleapis.com/auth/cloud-platform"],
        },
      },
      onGcp,
    );
    this.endpoint = this.cluster.endpoint.apply(gkeServer);
    this.peerEndpoint = this.endpoint;
    this.caData = this.cluster.masterAuth.apply((m) => m.clusterCaCertificate ?? "");
    const client = gcp.organizations.getClientConfigOutput(onGcp);
    this.kubeconfig = pulumi.secret(
      pulumi
        .all([this.endpoint, this.caData, client.accessToken])
        .apply(([server, caData, token]) => tokenKubeconfig({ name: this.name, server, caData, token })),
    );
    this.description = describeCluster(`GKE cluster "${this.name}"`, args.role);
    // A GKE cluster's CA is kept for its life unless its credentials are rotated on purpose
    // (`gcloud container clusters update --start-credential-rotation`), which is taken as a new cluster.
    this.identity = pulumi
      .all([this.caData, this.endpoint])
      .apply(([caData, server]) => clusterIdentity(`gke:${this.name}`, caData, server));
    this.provider = new k8s.Provider(
      `${name}-k8s`,
      {
        kubeconfig: whenReachable(this.kubeconfig, this.description, KUBECONFIG_REACH_HINT),
        clusterIdentifier: this.identity,
      },
      { parent: this },
    );
    this.peerKubeconfig =
      (args.peerAccess ?? "none") === "cluster-admin" ? this.peerAdminKubeconfig(name) : this.kubeconfig;
    this.readyGate = [this.nodePool];
    // The kubeconfigs stay out of the component's recorded outputs: state already holds them (encrypted)
    // where diff and delete need them, and every copy is rewritten with each checkpoint.
    this.registerOutputs({ endpoint: this.endpoint });
  }

  /** The cluster-admin ServiceAccount for peers, its binding and token; the token's kubeconfig. */
  private peerAdminKubeconfig(name: string): pulumi.Output<string> {
    const onCluster = clusterOptions(this, { ...this, readyGate: [this.nodePool] });
    const sa = new k8s.core.v1.ServiceAccount(
      `${name}-peer-sa`,
      { metadata: { name: PEER_SERVICE_ACCOUNT, namespace: PEER_NAMESPACE } },
      onCluster,
    );
    const binding = new k8s.rbac.v1.ClusterRoleBinding(
      `${name}-peer-binding`,
      {
        metadata: { name: PEER_SERVICE_ACCOUNT },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
        subjects: [{ kind: "ServiceAccount", name: PEER_SERVICE_ACCOUNT, namespace: PEER_NAMESPACE }],
      },
      onCluster,
    );
    const token = new k8s.core.v1.Secret(
      `${name}-peer-token`,
      {
        metadata: {
          name: `${PEER_SERVICE_ACCOUNT}-token`,
          namespace: PEER_NAMESPACE,
          annotations: { "kubernetes.io/service-account.name": PEER_SERVICE_ACCOUNT },
        },
        type: "kubernetes.io/service-account-token",
      },
      { ...onCluster, dependsOn: [this.nodePool, sa, binding] },
    );
    return pulumi.secret(
      pulumi.all([this.endpoint, this.caData, token.data]).apply(([server, caData, data]) =>
        tokenKubeconfig({
          name: this.name,
          server,
          caData,
          token: Buffer.from(data?.["token"] ?? "", "base64").toString("utf8"),
        }),
      ),
    );
  }
}
