/**
 * A Push-mode join as declared resources (`karmadactl join`'s objects; their manifests are in
 * join.ts), and the Cluster object both modes declare.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterTarget, clusterOptions } from "../cluster";
import {
  ClusterObjectArgs,
  IMPERSONATOR,
  KARMADA_CLUSTER_NAMESPACE,
  clusterHead,
  impersonatorSecretName,
  memberClusterRoleName,
  memberClusterRoleRules,
  memberNamespace,
  memberServiceAccountName,
  pushClusterSpec,
  tokenSecret,
} from "./join";
import type { KarmadaMemberArgs, MemberPrerequisites } from "./member-types";
import { Cluster } from "./types";

/**
 * What a join is declared from: the KarmadaMember, its resource name and args, the member's name
 * in Karmada and its kube-system namespace.
 */
export interface Join {
  self: pulumi.ComponentResource;
  name: string;
  args: KarmadaMemberArgs;
  cluster: string;
  kubeSystem: k8s.core.v1.Namespace;
}

/**
 * Where a join's objects in Karmada go: the Karmada API, stamped with the member's identity (and
 * Karmada's): a new member cluster is a new join, so they are made again with it. Karmada's Cluster
 * depends on the join's objects on the member and goes first, while the old member still runs.
 */
export function joinInKarmada(args: Pick<KarmadaMemberArgs, "karmada" | "member">): ClusterTarget & {
  readyGate: pulumi.Resource[];
} {
  return {
    provider: args.karmada.provider,
    readyGate: args.karmada.readyGate,
    identity: pulumi
      .all([args.member.identity, args.karmada.identity])
      .apply(([member, karmada]) => `${member} in ${karmada}`),
  };
}

export type { MemberPrerequisites } from "./member-types";

/** The prerequisites of a join, given its objects on the member (called once, after they are declared). */
export function memberPrerequisites(
  dependsOn: MemberPrerequisites | undefined,
  memberSide: pulumi.Resource[],
): pulumi.Resource[] {
  return typeof dependsOn === "function" ? dependsOn(memberSide) : (dependsOn ?? []);
}

/**
 * The member's Cluster object in Karmada, `${name}-cluster`: apiVersion, kind and metadata from
 * its name and labels, the spec from the member's peer endpoint, kube-system UID and placement.
 */
export function declareClusterObject(
  { self, name, args, cluster, kubeSystem }: Join,
  specOf: (s: Omit<ClusterObjectArgs, "name" | "labels">) => Cluster["spec"],
  dependsOn: pulumi.Resource[],
): k8s.apiextensions.CustomResource {
  const { provider, region, zones } = args;
  return new k8s.apiextensions.CustomResource(
    `${name}-cluster`,
    {
      ...clusterHead({ name: cluster, labels: args.labels }),
      spec: pulumi
        .all([args.member.peerEndpoint, kubeSystem.metadata.uid])
        .apply(([apiEndpoint, id]) => specOf({ apiEndpoint, id, provider, region, zones })),
    },
    { ...clusterOptions(self, joinInKarmada(args), dependsOn), protect: args.protect },
  );
}

/** Push mode: `karmadactl join`'s objects on the member and in Karmada; returns the Cluster. */
export function declarePushJoin(join: Join): k8s.apiextensions.CustomResource {
  const { self, name, args, cluster } = join;
  const onMember = (deps: pulumi.Resource[] = []) => clusterOptions(self, args.member, deps);
  const onKarmada = () => clusterOptions(self, args.karmada);

  // Member side.
  const ns = new k8s.core.v1.Namespace(`${name}-member-ns`, { metadata: memberNamespace().metadata }, onMember());
  const saName = memberServiceAccountName(cluster);
  const sa = new k8s.core.v1.ServiceAccount(
    `${name}-member-sa`,
    { metadata: { name: saName, namespace: KARMADA_CLUSTER_NAMESPACE } },
    onMember([ns]),
  );
  const impersonatorSa = new k8s.core.v1.ServiceAccount(
    `${name}-impersonator-sa`,
    { metadata: { name: IMPERSONATOR, namespace: KARMADA_CLUSTER_NAMESPACE } },
    onMember([ns]),
  );
  const roleName = memberClusterRoleName(cluster);
  const role = new k8s.rbac.v1.ClusterRole(
    `${name}-member-role`,
    {
      metadata: { name: roleName },
      rules: memberClusterRoleRules(args.access ?? "scoped"),
    },
    onMember(),
  );
  const binding = new k8s.rbac.v1.ClusterRoleBinding(
    `${name}-member-binding`,
    {
      metadata: { name: roleName },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: roleName },
      subjects: [{ kind: "ServiceAccount", name: saName, namespace: KARMADA_CLUSTER_NAMESPACE }],
    },
    onMember([role, sa]),
  );
  const tokenOf = (resource: string, sa: string, deps: pulumi.Resource[]) => {
    const t = tokenSecret(sa);
    return new k8s.core.v1.Secret(resource, { metadata: t.metadata, type: t.type }, onMember(deps));
  };
  // The token needs only its ServiceAccount; the binding is created meanwhile and the Cluster
  // waits for it (one level less between a member's namespace and its Cluster).
  const token = tokenOf(`${name}-member-token`, saName, [sa]);
  const impersonatorToken = tokenOf(`${name}-impersonator-token`, IMPERSONATOR, [impersonatorSa]);

  // Karmada side: the Secrets the cluster controller reads (token, caBundle), then the Cluster.
  const secret = new k8s.core.v1.Secret(
    `${name}-karmada-secret`,
    {
      metadata: { name: cluster, namespace: KARMADA_CLUSTER_NAMESPACE },
      data: { token: token.data.apply((d) => d["token"]), caBundle: token.data.apply((d) => d["ca.crt"]) },
    },
    onKarmada(),
  );
  const impersonatorSecret = new k8s.core.v1.Secret(
    `${name}-karmada-impersonator-secret`,
    {
      metadata: { name: impersonatorSecretName(cluster), namespace: KARMADA_CLUSTER_NAMESPACE },
      data: { token: impersonatorToken.data.apply((d) => d["token"]) },
    },
    onKarmada(),
  );
  const prerequisites = memberPrerequisites(args.dependsOn, [
    ns,
    sa,
    impersonatorSa,
    role,
    binding,
    token,
    impersonatorToken,
  ]);
  return declareClusterObject(join, (s) => pushClusterSpec({ ...s, name: cluster }), [
    secret,
    impersonatorSecret,
    binding,
    ...prerequisites,
  ]);
}
