/**
 * KarmadaMember: a member joined as declared resources, in Push mode (`karmadactl join`) or Pull
 * mode (karmada-agent on the member, as `karmadactl register` installs it; see pull.ts).
 *
 * Push: on the member, the karmada-cluster namespace, the two ServiceAccounts with long-lived
 * token Secrets, and the ClusterRole/Binding Karmada's controllers act with. In Karmada: the token
 * Secrets and the Cluster object.
 *
 * Pull: in Karmada, the agent's ServiceAccount and token Secret, its RBAC (its own Cluster, its
 * execution namespace `karmada-es-<member>` and Works, its lease, events) and the Cluster object
 * (syncMode Pull, with the placement labels); on the member, the karmada-cluster namespace, the
 * agent's kubeconfig Secret, ServiceAccount, scoped ClusterRole/Binding and Deployment. The agent
 * registers into the Cluster and reports its status; Karmada never calls the member's API.
 *
 * Destroy unjoins in the safe order: first a wait (MemberWorksGone) until Karmada has removed this
 * stack's propagated objects from the member (its Works in `karmada-es-<member>` are gone; in Pull
 * mode the agent removes them, so it goes only after the wait), then the Cluster, then the
 * credentials, then the member side. The federated objects depend on `joined` (the Cluster, and
 * the agent in Pull mode), so they go before those; the wait's delete runs beside theirs.
 */
import * as fs from "fs";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions } from "../cluster";
import { kubeconfigCredentials, parseKubeconfig } from "../kubeconfig";
import {
  ArgProblem,
  checkField,
  checkImageRef,
  checkKarmadaClusterName,
  checkWholeNumber,
  throwIfArgProblems,
} from "../names";
import { KarmadaHandle } from "./control-plane";
import {
  IMPERSONATOR,
  KARMADA_CLUSTER_NAMESPACE,
  MemberAccess,
  clusterObject,
  impersonatorSecretName,
  memberClusterRoleName,
  memberClusterRoleRules,
  memberNamespace,
  memberServiceAccountName,
  tokenSecret,
} from "./join";
import { PropagatedObject } from "./works";
import {
  AGENT,
  AGENT_KUBECONFIG_SECRET,
  AGENT_SERVICE_ACCOUNT,
  KARMADA_AGENT_IMAGE,
  SYNC_MODES,
  SyncMode,
  agentDeployment,
  agentKarmadaRbac,
  agentKubeconfig,
  agentMemberClusterRole,
  agentMemberClusterRoleBinding,
  agentServiceAccountName,
  agentTokenSecret,
  executionNamespace,
  pullClusterObject,
} from "./pull";
import { DEFAULT_WORKS_READY_TIMEOUT_SECONDS, DEFAULT_WORKS_TIMEOUT_SECONDS, MemberWorksGone } from "./works-provider";

export interface KarmadaMemberArgs {
  /** The Karmada API to join. */
  karmada: KarmadaHandle;
  /** The member cluster. In Push mode Karmada reaches it at its peer endpoint. */
  member: ClusterHandle;
  /**
   * Who calls whom. "Push": Karmada's controllers call the member's API at its peer endpoint.
   * "Pull": karmada-agent on the member calls the Karmada API (at `agentKarmadaServer`); the
   * member's API need not be reachable from Karmada. @default "Push"
   */
  syncMode?: SyncMode;
  /**
   * Pull mode: the Karmada API as the agent on the member reaches it, https://<host>:<port>.
   * @default the server of the Karmada kubeconfig (the API as this machine reaches it)
   */
  agentKarmadaServer?: pulumi.Input<string>;
  /**
   * Pull mode: the name the agent checks the Karmada API's certificate for, when the server's
   * host is not in it. @default the server's host
   */
  agentTlsServerName?: string;
  /** Pull mode: the karmada-agent image, pinned. @default docker.io/karmada/karmada-agent:v1.16.0 */
  agentImage?: string;
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
   * What Karmada's controllers (Push) or the agent (Pull) may do on the member. @default "scoped": nodes and pods read,
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
export function checkKarmadaMemberArgs(
  args: Pick<
    KarmadaMemberArgs,
    | "clusterName"
    | "worksTimeoutSeconds"
    | "worksReadyTimeoutSeconds"
    | "syncMode"
    | "agentImage"
    | "agentTlsServerName"
  > & { agentKarmadaServer?: unknown },
): ArgProblem[] {
  const problems: ArgProblem[] = [];
  checkField(problems, "clusterName", args.clusterName, checkKarmadaClusterName);
  checkField(problems, "worksTimeoutSeconds", args.worksTimeoutSeconds, checkWaitSeconds);
  checkField(problems, "worksReadyTimeoutSeconds", args.worksReadyTimeoutSeconds, checkWaitSeconds);
  checkField(problems, "syncMode", args.syncMode, (m: string) =>
    (SYNC_MODES as readonly string[]).includes(m)
      ? undefined
      : `is not a sync mode; use one of: ${SYNC_MODES.join(", ")}`,
  );
  checkField(problems, "agentImage", args.agentImage, checkImageRef);
  if (args.syncMode !== "Pull") {
    for (const field of ["agentImage", "agentKarmadaServer", "agentTlsServerName"] as const) {
      if (args[field] !== undefined)
        problems.push([
          field,
          typeof args[field] === "string" ? args[field] : "(an output)",
          'is only used in Pull mode; set syncMode to "Pull" or remove it',
        ]);
    }
  }
  return problems;
}

/** A destroy-time wait in seconds: a whole number from 1 to 86400. */
const checkWaitSeconds = checkWholeNumber(1, 86400, " (seconds; leave it out for the default)");

type Obj = Record<string, unknown>;
const meta = (o: Obj) => o.metadata as k8s.types.input.meta.v1.ObjectMeta;

export class KarmadaMember extends pulumi.ComponentResource {
  /** The member's name in Karmada. */
  declare public readonly clusterName: string;
  /** The Cluster object in Karmada. */
  declare public readonly cluster: k8s.apiextensions.CustomResource;
  /** The destroy-time wait for the member's Works (deleted before the Cluster). */
  declare public readonly worksGone: MemberWorksGone;
  /**
   * What an object propagated to this member depends on: the Cluster, and in Pull mode the agent.
   * Not the destroy-time wait: that one's delete runs beside the objects' deletion and lasts until
   * Karmada has removed them, so nothing waits for its provider to start on `up`.
   */
  declare public readonly joined: pulumi.Resource[];

  constructor(name: string, args: KarmadaMemberArgs, opts?: pulumi.ComponentResourceOptions) {
    const member = args.member;
    const cluster = args.clusterName ?? member.name;
    throwIfArgProblems("KarmadaMember", name, checkKarmadaMemberArgs({ ...args, clusterName: cluster }));
    super("iko-plus:karmada:KarmadaMember", name, {}, opts);
    this.clusterName = cluster;
    const kubeSystem = k8s.core.v1.Namespace.get(`${name}-kube-system`, "kube-system", {
      parent: this,
      provider: member.provider,
      dependsOn: member.readyGate,
    });
    let agent: k8s.apps.v1.Deployment | undefined;
    if (args.syncMode === "Pull") {
      const pull = declarePullJoin(this, name, args, cluster, kubeSystem);
      this.cluster = pull.cluster;
      agent = pull.agent;
    } else {
      this.cluster = declarePushJoin(this, name, args, cluster, kubeSystem);
    }
    // Deleted before the Cluster (and in Pull mode before the agent, which does the removing):
    // waits until Karmada has removed this stack's objects from the member.
    const karmadaCredentials = pulumi.secret(
      args.karmada.kubeconfig.apply((text) =>
        kubeconfigCredentials(text, `the Karmada kubeconfig (for ${cluster}'s unjoin)`, (file) =>
          fs.readFileSync(file, "utf8"),
        ),
      ),
    );
    this.worksGone = new MemberWorksGone(
      `${name}-works-gone`,
      {
        cluster,
        objects: args.propagated ?? [],
        timeoutSeconds: args.worksTimeoutSeconds ?? DEFAULT_WORKS_TIMEOUT_SECONDS,
        readyTimeoutSeconds: args.worksReadyTimeoutSeconds ?? DEFAULT_WORKS_READY_TIMEOUT_SECONDS,
        karmada: karmadaCredentials,
      },
      { parent: this, dependsOn: [this.cluster, ...(agent ? [agent] : [])] },
    );
    this.joined = agent ? [this.cluster, agent] : [this.cluster];
    this.registerOutputs({ clusterName: cluster });
  }
}

/** Push mode: `karmadactl join`'s objects on the member and in Karmada; returns the Cluster. */
function declarePushJoin(
  self: KarmadaMember,
  name: string,
  args: KarmadaMemberArgs,
  cluster: string,
  kubeSystem: k8s.core.v1.Namespace,
): k8s.apiextensions.CustomResource {
  const member = args.member;
  const onMember = (deps: pulumi.Resource[] = []) => clusterOptions(self, member, deps);

  // Member side.
  const ns = new k8s.core.v1.Namespace(`${name}-member-ns`, { metadata: meta(memberNamespace()) }, onMember());
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
    return new k8s.core.v1.Secret(resource, { metadata: meta(t), type: t.type as string }, onMember(deps));
  };
  // The token needs only its ServiceAccount; the binding is created meanwhile and the Cluster
  // waits for it (one level less between a member's namespace and its Cluster).
  const token = tokenOf(`${name}-member-token`, saName, [sa]);
  const impersonatorToken = tokenOf(`${name}-impersonator-token`, IMPERSONATOR, [impersonatorSa]);

  // Karmada side: the Secrets the cluster controller reads (token, caBundle), then the Cluster.
  const onKarmada = (deps: pulumi.Resource[] = []) => ({
    parent: self,
    provider: args.karmada.provider,
    dependsOn: [...args.karmada.readyGate, ...deps],
  });
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
  const clusterSpec = pulumi.all([member.peerEndpoint, kubeSystem.metadata.uid]).apply(
    ([apiEndpoint, id]) =>
      clusterObject({
        name: cluster,
        apiEndpoint,
        id,
        provider: args.provider,
        region: args.region,
        zones: args.zones,
        labels: args.labels,
      }).spec as Obj,
  );
  const c = clusterObject({
    name: cluster,
    apiEndpoint: "",
    id: "",
    provider: args.provider,
    region: args.region,
    zones: args.zones,
    labels: args.labels,
  });
  return new k8s.apiextensions.CustomResource(
    `${name}-cluster`,
    {
      apiVersion: c.apiVersion as string,
      kind: c.kind as string,
      metadata: meta(c),
      spec: clusterSpec,
    },
    onKarmada([secret, impersonatorSecret, binding, ...(args.dependsOn ?? [])]),
  );
}

/**
 * Pull mode: the agent's credential and RBAC in Karmada, the Cluster, and the agent on the
 * member. Order: namespaces → ServiceAccounts → token → kubeconfig Secret; execution namespace →
 * Roles → bindings; Cluster (after the execution namespace); Deployment last (after the Cluster,
 * its bindings and kubeconfig), so the agent's first registration finds everything it may use.
 */
function declarePullJoin(
  self: KarmadaMember,
  name: string,
  args: KarmadaMemberArgs,
  cluster: string,
  kubeSystem: k8s.core.v1.Namespace,
): { cluster: k8s.apiextensions.CustomResource; agent: k8s.apps.v1.Deployment } {
  const member = args.member;
  const onMember = (deps: pulumi.Resource[] = []) => clusterOptions(self, member, deps);
  const onKarmada = (deps: pulumi.Resource[] = []) => ({
    parent: self,
    provider: args.karmada.provider,
    dependsOn: [...args.karmada.readyGate, ...deps],
  });
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
  const spec = pulumi.all([member.peerEndpoint, kubeSystem.metadata.uid]).apply(
    ([apiEndpoint, id]) =>
      pullClusterObject({
        name: cluster,
        apiEndpoint,
        id,
        provider: args.provider,
        region: args.region,
        zones: args.zones,
        labels: args.labels,
      }).spec as Obj,
  );
  const c = pullClusterObject({
    name: cluster,
    apiEndpoint: "",
    id: "",
    provider: args.provider,
    region: args.region,
    zones: args.zones,
    labels: args.labels,
  });
  const clusterCr = new k8s.apiextensions.CustomResource(
    `${name}-cluster`,
    {
      apiVersion: c.apiVersion as string,
      kind: c.kind as string,
      metadata: meta(c),
      spec,
    },
    onKarmada([esNs, ...(args.dependsOn ?? [])]),
  );

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
