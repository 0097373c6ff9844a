/**
 * KarmadaMember: `karmadactl join` in Push mode as declared resources. On the member: the
 * karmada-cluster namespace, the two ServiceAccounts with long-lived token Secrets, and the
 * ClusterRole/Binding Karmada's controllers act with. In Karmada: the token Secrets and the
 * Cluster object. Destroy unjoins in the safe order: the Cluster goes first (Karmada removes
 * its Works from the member while it can still reach it), then the Secrets, then the member side.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions } from "../cluster";
import { ArgProblem, checkField, checkKarmadaClusterName, throwIfArgProblems } from "../names";
import { KarmadaHandle } from "./control-plane";
import {
  IMPERSONATOR, KARMADA_CLUSTER_NAMESPACE, MemberAccess, clusterObject, impersonatorSecretName, memberClusterRoleName, memberClusterRoleRules,
  memberNamespace, memberServiceAccountName, tokenSecret,
} from "./join";

export interface KarmadaMemberArgs {
  /** The Karmada API to join. */
  karmada: KarmadaHandle;
  /** The member cluster. Karmada reaches it at its peer endpoint. */
  member: ClusterHandle;
  /** The member's name in Karmada. @default the cluster handle's name */
  clusterName?: string;
  /** `spec.provider` of the Cluster (placement by provider). @default left out */
  provider?: string;
  /** `spec.region`. @default left out */
  region?: string;
  /** `spec.zones`. @default left out */
  zones?: string[];
  /** Labels on the Cluster object, for label-selector placement. @default none */
  labels?: Record<string, string>;
  /**
   * What Karmada's controllers may do on the member. @default "scoped": nodes and pods read,
   * discovery and health endpoints, and namespaces, Secrets, ConfigMaps and IrisClusters, the kinds
   * this project propagates; "cluster-admin" grants everything, as `karmadactl join` does (set it
   * only to propagate other kinds).
   */
  access?: MemberAccess;
  /**
   * What must exist on the member before the Cluster object is created (IKO, the IrisCluster
   * CRD: Karmada's scheduler only places kinds a member serves). @default nothing
   */
  dependsOn?: pulumi.Resource[];
}

/**
 * Problems of KarmadaMember args, as `[field, value, problem]` (the stack config reports the same
 * problems under its own keys). The constructor passes the member handle's name as `clusterName`
 * when it is not set.
 */
export function checkKarmadaMemberArgs(args: Pick<KarmadaMemberArgs, "clusterName">): ArgProblem[] {
  const problems: ArgProblem[] = [];
  checkField(problems, "clusterName", args.clusterName, checkKarmadaClusterName);
  return problems;
}

type Obj = Record<string, unknown>;
const meta = (o: Obj) => o.metadata as k8s.types.input.meta.v1.ObjectMeta;

export class KarmadaMember extends pulumi.ComponentResource {
  /** The member's name in Karmada. */
  declare public readonly clusterName: string;
  /** The Cluster object in Karmada. */
  declare public readonly cluster: k8s.apiextensions.CustomResource;

  constructor(name: string, args: KarmadaMemberArgs, opts?: pulumi.ComponentResourceOptions) {
    const member = args.member;
    const cluster = args.clusterName ?? member.name;
    throwIfArgProblems("KarmadaMember", name, checkKarmadaMemberArgs({ clusterName: cluster }));
    super("iko-plus:karmada:KarmadaMember", name, {}, opts);
    this.clusterName = cluster;
    const onMember = (deps: pulumi.Resource[] = []) => clusterOptions(this, member, deps);

    // Member side.
    const ns = new k8s.core.v1.Namespace(`${name}-member-ns`, { metadata: meta(memberNamespace()) }, onMember());
    const saName = memberServiceAccountName(cluster);
    const sa = new k8s.core.v1.ServiceAccount(`${name}-member-sa`, { metadata: { name: saName, namespace: KARMADA_CLUSTER_NAMESPACE } }, onMember([ns]));
    const impersonatorSa = new k8s.core.v1.ServiceAccount(`${name}-impersonator-sa`, { metadata: { name: IMPERSONATOR, namespace: KARMADA_CLUSTER_NAMESPACE } }, onMember([ns]));
    const roleName = memberClusterRoleName(cluster);
    const role = new k8s.rbac.v1.ClusterRole(`${name}-member-role`, {
      metadata: { name: roleName },
      rules: memberClusterRoleRules(args.access ?? "scoped") as unknown as k8s.types.input.rbac.v1.PolicyRule[],
    }, onMember());
    const binding = new k8s.rbac.v1.ClusterRoleBinding(`${name}-member-binding`, {
      metadata: { name: roleName },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: roleName },
      subjects: [{ kind: "ServiceAccount", name: saName, namespace: KARMADA_CLUSTER_NAMESPACE }],
    }, onMember([role, sa]));
    const tokenOf = (resource: string, sa: string, deps: pulumi.Resource[]) => {
      const t = tokenSecret(sa);
      return new k8s.core.v1.Secret(resource, { metadata: meta(t), type: t.type as string }, onMember(deps));
    };
    // The token needs only its ServiceAccount; the binding is created meanwhile and the Cluster
    // waits for it (one level less between a member's namespace and its Cluster).
    const token = tokenOf(`${name}-member-token`, saName, [sa]);
    const impersonatorToken = tokenOf(`${name}-impersonator-token`, IMPERSONATOR, [impersonatorSa]);
    const kubeSystem = k8s.core.v1.Namespace.get(`${name}-kube-system`, "kube-system", { parent: this, provider: member.provider, dependsOn: member.readyGate });

    // Karmada side: the Secrets the cluster controller reads (token, caBundle), then the Cluster.
    const onKarmada = (deps: pulumi.Resource[] = []) => ({ parent: this, provider: args.karmada.provider, dependsOn: [...args.karmada.readyGate, ...deps] });
    const secret = new k8s.core.v1.Secret(`${name}-karmada-secret`, {
      metadata: { name: cluster, namespace: KARMADA_CLUSTER_NAMESPACE },
      data: { token: token.data.apply((d) => d["token"]), caBundle: token.data.apply((d) => d["ca.crt"]) },
    }, onKarmada());
    const impersonatorSecret = new k8s.core.v1.Secret(`${name}-karmada-impersonator-secret`, {
      metadata: { name: impersonatorSecretName(cluster), namespace: KARMADA_CLUSTER_NAMESPACE },
      data: { token: impersonatorToken.data.apply((d) => d["token"]) },
    }, onKarmada());
    const clusterSpec = pulumi.all([member.peerEndpoint, kubeSystem.metadata.uid]).apply(([apiEndpoint, id]) =>
      clusterObject({ name: cluster, apiEndpoint, id, provider: args.provider, region: args.region, zones: args.zones, labels: args.labels }).spec as Obj);
    const c = clusterObject({ name: cluster, apiEndpoint: "", id: "", provider: args.provider, region: args.region, zones: args.zones, labels: args.labels });
    this.cluster = new k8s.apiextensions.CustomResource(`${name}-cluster`, {
      apiVersion: c.apiVersion as string,
      kind: c.kind as string,
      metadata: meta(c),
      spec: clusterSpec,
    }, onKarmada([secret, impersonatorSecret, binding, ...(args.dependsOn ?? [])]));
    this.registerOutputs({ clusterName: cluster });
  }
}
