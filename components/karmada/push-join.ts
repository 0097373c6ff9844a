/**
 * A Push-mode join as declared resources (`karmadactl join`'s objects; their manifests are in
 * push-manifests.ts); the Cluster object is declared as in both modes (join-resources.ts).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { clusterOptions } from "../cluster";
import { KARMADA_CLUSTER_NAMESPACE, memberClusterRoleRules, memberNamespace } from "./join-manifests";
import { Join, declareClusterObject, memberPrerequisites } from "./join-resources";
import {
  IMPERSONATOR,
  impersonatorSecretName,
  memberClusterRoleName,
  memberServiceAccountName,
  pushClusterSpec,
  tokenSecret,
} from "./push-manifests";

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
