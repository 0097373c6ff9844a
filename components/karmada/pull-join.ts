/**
 * A Pull-mode join as declared resources (the manifests are in pull-manifests.ts): the agent's credential
 * and RBAC in Karmada, the Cluster, and the agent on the member.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { clusterOptions } from "../cluster";
import { parseKubeconfig } from "../kubeconfig";
import { KARMADA_CLUSTER_NAMESPACE, memberNamespace } from "./join-manifests";
import { Join, declareClusterObject, joinInKarmada, memberPrerequisites } from "./join-resources";
import {
  AGENT,
  AGENT_KUBECONFIG_SECRET,
  AGENT_SERVICE_ACCOUNT,
  karmadaAgentImage,
  agentDeployment,
  agentKarmadaRbac,
  agentKubeconfig,
  agentMemberClusterRole,
  agentMemberClusterRoleBinding,
  agentServiceAccountName,
  agentTokenSecret,
  executionNamespace,
  pullClusterSpec,
} from "./pull-manifests";

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
  // Karmada removes the execution namespace with the Cluster: with a new member cluster (a new
  // Cluster) the namespace and the agent's Role in it are made again too.
  const inJoin = joinInKarmada(args);
  const withMember = (deps: pulumi.Resource[] = []) => clusterOptions(self, inJoin, deps);

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
    { metadata: t.metadata, type: t.type },
    onKarmada([agentSa]),
  );
  const rbac = agentKarmadaRbac(cluster);
  const cr = new k8s.rbac.v1.ClusterRole(
    `${name}-agent-role`,
    { metadata: rbac.clusterRole.metadata, rules: rbac.clusterRole.rules },
    onKarmada(),
  );
  const crb = new k8s.rbac.v1.ClusterRoleBinding(
    `${name}-agent-binding`,
    {
      metadata: rbac.clusterRoleBinding.metadata,
      roleRef: rbac.clusterRoleBinding.roleRef,
      subjects: rbac.clusterRoleBinding.subjects,
    },
    onKarmada([cr, agentSa]),
  );
  const esNs = new k8s.core.v1.Namespace(
    `${name}-execution-ns`,
    { metadata: executionNamespace(cluster).metadata },
    withMember(),
  );
  const bindings = rbac.roles.map((role, i) => {
    const suffix = i === 0 ? "work" : "lease";
    const r = new k8s.rbac.v1.Role(
      `${name}-agent-${suffix}-role`,
      { metadata: role.metadata, rules: role.rules },
      i === 0 ? withMember([esNs]) : onKarmada(),
    );
    const b = rbac.roleBindings[i];
    return new k8s.rbac.v1.RoleBinding(
      `${name}-agent-${suffix}-binding`,
      {
        metadata: b.metadata,
        roleRef: b.roleRef,
        subjects: b.subjects,
      },
      i === 0 ? withMember([r, agentSa]) : onKarmada([r, agentSa]),
    );
  });
  // Member side: the namespace, the agent's kubeconfig of the Karmada API (secret), its
  // ServiceAccount and scoped ClusterRole, then the agent.
  const ns = new k8s.core.v1.Namespace(`${name}-member-ns`, { metadata: memberNamespace().metadata }, onMember());
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
    { metadata: mr.metadata, rules: mr.rules },
    onMember(),
  );
  const mb = agentMemberClusterRoleBinding();
  const memberBinding = new k8s.rbac.v1.ClusterRoleBinding(
    `${name}-agent-member-binding`,
    {
      metadata: mb.metadata,
      roleRef: mb.roleRef,
      subjects: mb.subjects,
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
      image: args.agentImage ?? karmadaAgentImage(args.karmada.version),
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
      spec: d.apply((x) => x.spec),
    },
    onMember([kubeconfigSecret, memberBinding, clusterCr, crb, ...bindings]),
  );
  return { cluster: clusterCr, agent };
}
