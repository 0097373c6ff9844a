/**
 * A Pull-mode join as declared resources (the manifests are in pull.ts): the agent's credential
 * and RBAC in Karmada, the Cluster, and the agent on the member.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { clusterOptions } from "../cluster";
import { parseKubeconfig } from "../kubeconfig";
import { KARMADA_CLUSTER_NAMESPACE, memberNamespace } from "./join";
import {
  AGENT,
  AGENT_KUBECONFIG_SECRET,
  AGENT_SERVICE_ACCOUNT,
  KARMADA_AGENT_IMAGE,
  agentDeployment,
  agentKarmadaRbac,
  agentKubeconfig,
  agentMemberClusterRole,
  agentMemberClusterRoleBinding,
  agentServiceAccountName,
  agentTokenSecret,
  executionNamespace,
  pullClusterSpec,
} from "./pull";
import { Join, declareClusterObject, memberPrerequisites, meta } from "./push";

/**
 * Pull mode: the agent's credential and RBAC in Karmada, the Cluster, and the agent on the
 * member. Order: namespaces → ServiceAccounts → token → kubeconfig Secret; execution namespace →
 * Roles → bindings; Cluster (after the execution namespace); Deployment last (after the Cluster,
 * its bindings and kubeconfig), so the agent's first registration finds everything it may use.
 */
export function declarePullJoin(join: Join): {
  cluster: k8s.apiextensions.CustomResource;
  agent: k8s.apps.v1.Deployment;
} {
  const { self, name, args, cluster } = join;
  const member = args.member;
  const onMember = (deps: pulumi.Resource[] = []) => clusterOptions(self, member, deps);
  const onKarmada = (deps: pulumi.Resource[] = []) => clusterOptions(self, args.karmada, deps);
  type Rules = k8s.types.input.rbac.v1.PolicyRule[];

  // Karmada side: the agent's ServiceAccount and its token, its RBAC, its execution namespace.
  const saName = agentServiceAccountName(cluster);
  const agentSa = new k8s.core.v1.ServiceAccount(
    `${name}-agent-sa`,
    { metadata: { name: saName, namespace: KARMADA_CLUSTER_NAMESPACE } },
    onKarmada(),
  );
  const t = agentTokenSecret(cluster);
  const agentToken = new k8s.core.v1.Secret(
    `${name}-agent-token`,
    { metadata: meta(t), type: t.type as string },
    onKarmada([agentSa]),
  );
  const rbac = agentKarmadaRbac(cluster);
  const cr = new k8s.rbac.v1.ClusterRole(
    `${name}-agent-role`,
    { metadata: meta(rbac.clusterRole), rules: rbac.clusterRole.rules as Rules },
    onKarmada(),
  );
  const crb = new k8s.rbac.v1.ClusterRoleBinding(
    `${name}-agent-binding`,
    {
      metadata: meta(rbac.clusterRoleBinding),
      roleRef: rbac.clusterRoleBinding.roleRef as k8s.types.input.rbac.v1.RoleRef,
      subjects: rbac.clusterRoleBinding.subjects as k8s.types.input.rbac.v1.Subject[],
    },
    onKarmada([cr, agentSa]),
  );
  const esNs = new k8s.core.v1.Namespace(
    `${name}-execution-ns`,
    { metadata: meta(executionNamespace(cluster)) },
    onKarmada(),
  );
  const bindings = rbac.roles.map((role, i) => {
    const suffix = i === 0 ? "work" : "lease";
    const r = new k8s.rbac.v1.Role(
      `${name}-agent-${suffix}-role`,
      { metadata: meta(role), rules: role.rules as Rules },
      onKarmada(i === 0 ? [esNs] : []),
    );
    const b = rbac.roleBindings[i];
    return new k8s.rbac.v1.RoleBinding(
      `${name}-agent-${suffix}-binding`,
      {
        metadata: meta(b),
        roleRef: b.roleRef as k8s.types.input.rbac.v1.RoleRef,
        subjects: b.subjects as k8s.types.input.rbac.v1.Subject[],
      },
      onKarmada([r, agentSa]),
    );
  });
  // Member side: the namespace, the agent's kubeconfig of the Karmada API (secret), its
  // ServiceAccount and scoped ClusterRole, then the agent.
  const ns = new k8s.core.v1.Namespace(`${name}-member-ns`, { metadata: meta(memberNamespace()) }, onMember());
  const server = pulumi.output(
    args.agentKarmadaServer ??
      args.karmada.kubeconfig.apply(
        (text) => parseKubeconfig(text, `the Karmada kubeconfig (for ${cluster}'s agent)`).server,
      ),
  );
  const kubeconfig = pulumi.secret(
    pulumi.all([server, agentToken.data]).apply(([s, d]) =>
      agentKubeconfig({
        cluster,
        server: s,
        caData: d["ca.crt"],
        token: Buffer.from(d["token"], "base64").toString("utf8"),
        tlsServerName: args.agentTlsServerName,
      }),
    ),
  );
  const kubeconfigSecret = new k8s.core.v1.Secret(
    `${name}-agent-kubeconfig`,
    {
      metadata: {
        name: AGENT_KUBECONFIG_SECRET,
        namespace: KARMADA_CLUSTER_NAMESPACE,
        labels: { "karmada.io/system": "true" },
      },
      type: "Opaque",
      stringData: pulumi.secret(kubeconfig.apply((k) => ({ [AGENT_KUBECONFIG_SECRET]: k }))),
    },
    onMember([ns]),
  );
  const memberSa = new k8s.core.v1.ServiceAccount(
    `${name}-agent-member-sa`,
    {
      metadata: {
        name: AGENT_SERVICE_ACCOUNT,
        namespace: KARMADA_CLUSTER_NAMESPACE,
        labels: { "karmada.io/system": "true" },
      },
    },
    onMember([ns]),
  );
  const mr = agentMemberClusterRole(args.access ?? "scoped");
  const memberRole = new k8s.rbac.v1.ClusterRole(
    `${name}-agent-member-role`,
    { metadata: meta(mr), rules: mr.rules as Rules },
    onMember(),
  );
  const mb = agentMemberClusterRoleBinding();
  const memberBinding = new k8s.rbac.v1.ClusterRoleBinding(
    `${name}-agent-member-binding`,
    {
      metadata: meta(mb),
      roleRef: mb.roleRef as k8s.types.input.rbac.v1.RoleRef,
      subjects: mb.subjects as k8s.types.input.rbac.v1.Subject[],
    },
    onMember([memberRole, memberSa]),
  );
  const prerequisites = memberPrerequisites(args.dependsOn, [
    ns,
    kubeconfigSecret,
    memberSa,
    memberRole,
    memberBinding,
  ]);
  const clusterCr = declareClusterObject(join, pullClusterSpec, [esNs, ...prerequisites]);

  const d = pulumi.output(member.peerEndpoint).apply((apiEndpoint) =>
    agentDeployment({
      cluster,
      image: args.agentImage ?? KARMADA_AGENT_IMAGE,
      apiEndpoint,
      provider: args.provider,
      region: args.region,
      zones: args.zones,
    }),
  );
  const agent = new k8s.apps.v1.Deployment(
    `${name}-agent`,
    {
      metadata: { name: AGENT, namespace: KARMADA_CLUSTER_NAMESPACE, labels: { app: AGENT } },
      spec: d.apply((x) => x.spec as k8s.types.input.apps.v1.DeploymentSpec),
    },
    onMember([kubeconfigSecret, memberBinding, clusterCr, crb, ...bindings]),
  );
  return { cluster: clusterCr, agent };
}
