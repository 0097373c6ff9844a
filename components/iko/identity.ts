/**
 * RemoteOperatorIdentity: a dedicated ServiceAccount on the target cluster with exactly IKO's
 * ClusterRole rights, and a kubeconfig minted from its token (secret), valid from other clusters.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions } from "../cluster/handle";
import { tokenKubeconfig } from "../kubeconfig";
import { ikoOperatorRules } from "./rbac";
import { IKO_DEFAULTS } from "./types";

export interface RemoteOperatorIdentityArgs {
  /** The cluster the operator reconciles. */
  target: ClusterHandle;
  /** Namespace of the ServiceAccount on the target. @default "iko-remote" */
  namespace?: string;
  /** ServiceAccount name (also the ClusterRole and binding name). @default "iko-remote-operator" */
  serviceAccountName?: string;
  /**
   * Credential generation: changing it mints a new token Secret (and deletes the old one),
   * which rotates the credential and rolls the operator. @default 1
   */
  credentialGeneration?: number;
}

/** Name of the token Secret of a generation. */
export function tokenSecretName(serviceAccountName: string, generation: number): string {
  return `${serviceAccountName}-token-g${generation}`;
}

export class RemoteOperatorIdentity extends pulumi.ComponentResource {
  /** Kubeconfig with the ServiceAccount's token, server = the target's peer endpoint. Secret. */
  declare public readonly kubeconfig: pulumi.Output<string>;
  /** The operator's ServiceAccount on the target. */
  declare public readonly serviceAccountName: string;
  /** The ServiceAccount's namespace on the target. */
  declare public readonly namespace: string;

  constructor(name: string, args: RemoteOperatorIdentityArgs, opts?: pulumi.ComponentResourceOptions) {
    super("iko-plus:iko:RemoteOperatorIdentity", name, {}, opts);
    const target = args.target;
    this.namespace = args.namespace ?? IKO_DEFAULTS.identityNamespace;
    this.serviceAccountName = args.serviceAccountName ?? "iko-remote-operator";
    const generation = args.credentialGeneration ?? 1;
    const ns = new k8s.core.v1.Namespace(
      `${name}-ns`,
      { metadata: { name: this.namespace } },
      clusterOptions(this, target),
    );
    const sa = new k8s.core.v1.ServiceAccount(
      `${name}-sa`,
      {
        metadata: { name: this.serviceAccountName, namespace: this.namespace },
      },
      clusterOptions(this, target, [ns]),
    );
    const role = new k8s.rbac.v1.ClusterRole(
      `${name}-role`,
      {
        metadata: { name: this.serviceAccountName },
        rules: ikoOperatorRules(),
      },
      clusterOptions(this, target),
    );
    const binding = new k8s.rbac.v1.ClusterRoleBinding(
      `${name}-binding`,
      {
        metadata: { name: this.serviceAccountName },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: this.serviceAccountName },
        subjects: [{ kind: "ServiceAccount", name: this.serviceAccountName, namespace: this.namespace }],
      },
      clusterOptions(this, target, [role, sa]),
    );
    // A long-lived token Secret: the controller-manager fills in token and ca.crt, and the
    // Kubernetes provider waits for them before the Secret counts as created.
    const token = new k8s.core.v1.Secret(
      `${name}-token`,
      {
        metadata: {
          name: tokenSecretName(this.serviceAccountName, generation),
          namespace: this.namespace,
          annotations: { "kubernetes.io/service-account.name": this.serviceAccountName },
        },
        type: "kubernetes.io/service-account-token",
      },
      { ...clusterOptions(this, target, [sa, binding]), deleteBeforeReplace: true },
    );
    this.kubeconfig = pulumi.secret(
      pulumi.all([target.peerEndpoint, token.data]).apply(([server, data]) =>
        tokenKubeconfig({
          name: target.name,
          server,
          caData: data?.["ca.crt"] ?? "",
          token: Buffer.from(data?.["token"] ?? "", "base64").toString("utf8"),
        }),
      ),
    );
    // The kubeconfigs stay out of the component's recorded outputs: state already holds them (encrypted)
    // where diff and delete need them, and every copy is rewritten with each checkpoint.
    this.registerOutputs({});
  }
}
