/**
 * KarmadaMember: `karmadactl join` in Push mode as declared resources. On the member: the
 * karmada-cluster namespace, the two ServiceAccounts with long-lived token Secrets, and the
 * ClusterRole/Binding Karmada's controllers act with. In Karmada: the token Secrets and the
 * Cluster object. Destroy unjoins in the safe order: first a wait (MemberWorksGone) until
 * Karmada has removed this stack's propagated objects from the member (its Works in
 * `karmada-es-<member>` are gone), then the Cluster, then the Secrets, then the member side. The
 * federated objects depend on the whole member, the wait included, so they go before it.
 */
import * as fs from "fs";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions } from "../cluster";
import { kubeconfigCredentials } from "../kubeconfig";
import { ArgProblem, checkField, checkKarmadaClusterName, throwIfArgProblems } from "../names";
import { KarmadaHandle } from "./control-plane";
import {
  IMPERSONATOR, KARMADA_CLUSTER_NAMESPACE, MemberAccess, clusterObject, impersonatorSecretName, memberClusterRoleName, memberClusterRoleRules,
  memberNamespace, memberServiceAccountName, tokenSecret,
} from "./join";
import { PropagatedObject } from "./works";
import { DEFAULT_WORKS_READY_TIMEOUT_SECONDS, DEFAULT_WORKS_TIMEOUT_SECONDS, MemberWorksGone } from "./works-provider";

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
  /**
   * The objects this stack propagates to the member (`propagatedByMember`): destroy deletes the
   * Cluster only once no Work in `karmada-es-<member>` carries one of them. @default none (no wait)
   */
  propagated?: PropagatedObject[];
  /** How long destroy waits for those Works while the member is not Ready before it fails, keeping the member joined. @default 120 */
  worksTimeoutSeconds?: number;
  /** How long it waits while the member is Ready (Karmada retries a failed delete after up to 1000 s). @default 1020 */
  worksReadyTimeoutSeconds?: number;
}

/**
 * Problems of KarmadaMember args, as `[field, value, problem]` (the stack config reports the same
 * problems under its own keys). The constructor passes the member handle's name as `clusterName`
 * when it is not set.
 */
export function checkKarmadaMemberArgs(args: Pick<KarmadaMemberArgs, "clusterName" | "worksTimeoutSeconds" | "worksReadyTimeoutSeconds">): ArgProblem[] {
  const problems: ArgProblem[] = [];
  checkField(problems, "clusterName", args.clusterName, checkKarmadaClusterName);
  checkField(problems, "worksTimeoutSeconds", args.worksTimeoutSeconds, checkWaitSeconds);
  checkField(problems, "worksReadyTimeoutSeconds", args.worksReadyTimeoutSeconds, checkWaitSeconds);
  return problems;
}

/** A destroy-time wait in seconds: a whole number from 1 to 86400. */
function checkWaitSeconds(seconds: number): string | undefined {
  if (Number.isInteger(seconds) && seconds >= 1 && seconds <= 86400) return undefined;
  return "is not a wait: give a whole number of seconds from 1 to 86400 (or leave it out for the default)";
}

type Obj = Record<string, unknown>;
const meta = (o: Obj) => o.metadata as k8s.types.input.meta.v1.ObjectMeta;

export class KarmadaMember extends pulumi.ComponentResource {
  /** The member's name in Karmada. */
  declare public readonly clusterName: string;
  /** The Cluster object in Karmada. */
  declare public readonly cluster: k8s.apiextensions.CustomResource;
  /** The destroy-time wait for the member's Works (deleted before the Cluster). */
  declare public readonly worksGone: MemberWorksGone;

  constructor(name: string, args: KarmadaMemberArgs, opts?: pulumi.ComponentResourceOptions) {
    const member = args.member;
    const cluster = args.clusterName ?? member.name;
    throwIfArgProblems("KarmadaMember", name, checkKarmadaMemberArgs({ ...args, clusterName: cluster }));
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
    // Deleted before the Cluster: waits until Karmada has removed this stack's objects from the member.
    const karmadaCredentials = pulumi.secret(args.karmada.kubeconfig.apply((text) =>
      kubeconfigCredentials(text, `the Karmada kubeconfig (for ${cluster}'s unjoin)`, (file) => fs.readFileSync(file, "utf8"))));
    this.worksGone = new MemberWorksGone(`${name}-works-gone`, {
      cluster,
      objects: args.propagated ?? [],
      timeoutSeconds: args.worksTimeoutSeconds ?? DEFAULT_WORKS_TIMEOUT_SECONDS,
      readyTimeoutSeconds: args.worksReadyTimeoutSeconds ?? DEFAULT_WORKS_READY_TIMEOUT_SECONDS,
      karmada: karmadaCredentials,
    }, { parent: this, dependsOn: [this.cluster] });
    this.registerOutputs({ clusterName: cluster });
  }
}
