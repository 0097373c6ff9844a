/**
 * Pure manifests of a Pull-mode join: karmada-agent on the member, reaching the Karmada API with
 * its own credential. Read at karmada v1.16.0 and again at v1.18.2 (register and the agent's
 * controllers unchanged but for the agent's log level, --v=4 to --v=2): pkg/karmadactl/register (the agent's RBAC in the
 * Karmada API, its Deployment and member-side objects), cmd/agent/app (what the agent calls),
 * pkg/util/credential.go and pkg/util/cluster.go (registration). Differences from
 * `karmadactl register`, each to scope the agent more tightly:
 * - its credential is the token of a ServiceAccount in the Karmada API (karmada-cluster
 *   namespace), made by Karmada's kube-controller-manager, not a CSR-signed client certificate
 *   (no bootstrap token, no CSR rights, no cert rotation);
 * - the Cluster object is declared by the stack (it carries the placement labels, which the
 *   agent has no flag for); the agent registers into it (it validates name and kube-system UID,
 *   reconciles the spec, then reports status and its lease), so it needs neither create nor
 *   delete on Clusters;
 * - `--report-secrets=None`: no member credential goes to Karmada, so no Secret rights there;
 * - `--leader-elect=false` with one replica and the Recreate strategy: no leader-election lease,
 *   so the only lease is the cluster lease (owned by the Cluster, collected with it);
 * - on the member, the push join's scoped ClusterRole (memberClusterRoleRules) instead of `*`.
 */
import {
  ClusterObjectArgs,
  KARMADA_CLUSTER_NAMESPACE,
  MemberAccess,
  clusterHead,
  clusterPlacement,
  memberClusterRoleRules,
} from "./join-manifests";
import {
  ClusterRole,
  ClusterRoleBinding,
  Deployment,
  Namespace,
  PolicyRule,
  Role,
  RoleBinding,
  RoleRef,
  Secret,
  Subject,
} from "./manifests-types";
import { Cluster } from "./types";
import { KARMADA_CHART_VERSION } from "./values";
import { workNamespace } from "./works";

/** Karmada's agent image at `version` (Karmada's own tags, e.g. `v1.18.2`). */
export function karmadaAgentImage(version: string = KARMADA_CHART_VERSION): string {
  return `docker.io/karmada/karmada-agent:${version}`;
}
/** The agent's image, at the chart's version (KARMADA_CHART_VERSION). */
export const KARMADA_AGENT_IMAGE = karmadaAgentImage();
/** The agent's Deployment, ServiceAccount and ClusterRole name on the member (names.KarmadaAgentComponentName). */
export const AGENT = "karmada-agent";
/** The agent's ServiceAccount on the member (register's KarmadaAgentServiceAccountName). */
export const AGENT_SERVICE_ACCOUNT = "karmada-agent-sa";
/** The member Secret holding the agent's kubeconfig of the Karmada API, and its key (register's KarmadaKubeconfigName). */
export const AGENT_KUBECONFIG_SECRET = "karmada-kubeconfig";
const AGENT_LABELS = { app: AGENT };
const SYSTEM_LABELS = { "karmada.io/system": "true" };

/** The agent's ServiceAccount (and token Secret) in the Karmada API, namespace karmada-cluster. */
export function agentServiceAccountName(cluster: string): string {
  return `karmada-agent-${cluster}`;
}

/** The agent's ClusterRole/Binding in the Karmada API (register's name). */
export function agentClusterRoleName(cluster: string): string {
  return `system:karmada:${cluster}:agent`;
}

/** The agent's Role/Binding for its Works in `karmada-es-<cluster>` (register's name). */
export function agentWorkRoleName(cluster: string): string {
  return `system:karmada:${cluster}:agent-work`;
}

/** The agent's Role/Binding for its cluster lease in karmada-cluster. */
export function agentLeaseRoleName(cluster: string): string {
  return `system:karmada:${cluster}:agent-lease`;
}

/**
 * What the agent may do cluster-wide in the Karmada API: read its own Cluster and update its
 * status, list and watch Clusters (registration lists them to check name and ID are its own; its
 * controllers watch them), read resource interpreter customizations (status and health of
 * IrisClusters), read namespaces (registration checks karmada-cluster), list and watch Services
 * (the interpreter's webhook resolver), and write events. register's rules without clusters
 * create/delete and CSRs.
 */
export function agentClusterRoleRules(cluster: string): PolicyRule[] {
  return [
    { apiGroups: ["cluster.karmada.io"], resources: ["clusters"], resourceNames: [cluster], verbs: ["get"] },
    { apiGroups: ["cluster.karmada.io"], resources: ["clusters"], verbs: ["list", "watch"] },
    { apiGroups: ["cluster.karmada.io"], resources: ["clusters/status"], resourceNames: [cluster], verbs: ["update"] },
    {
      apiGroups: ["config.karmada.io"],
      resources: ["resourceinterpreterwebhookconfigurations", "resourceinterpretercustomizations"],
      verbs: ["get", "list", "watch"],
    },
    { apiGroups: [""], resources: ["namespaces"], verbs: ["get"] },
    { apiGroups: [""], resources: ["services"], verbs: ["list", "watch"] },
    { apiGroups: [""], resources: ["events"], verbs: ["create", "patch", "update"] },
  ];
}

/** What the agent may do with the Works in its execution namespace (register's work Role). */
export function agentWorkRoleRules(): PolicyRule[] {
  return [
    {
      apiGroups: ["work.karmada.io"],
      resources: ["works"],
      verbs: ["get", "create", "list", "watch", "update", "delete"],
    },
    { apiGroups: ["work.karmada.io"], resources: ["works/status"], verbs: ["patch", "update"] },
  ];
}

/** Its cluster lease (`karmada-cluster/<cluster>`): create, then get and update that one (create cannot be limited by name). */
export function agentLeaseRoleRules(cluster: string): PolicyRule[] {
  return [
    { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] },
    { apiGroups: ["coordination.k8s.io"], resources: ["leases"], resourceNames: [cluster], verbs: ["get", "update"] },
  ];
}

/** The agent's RBAC objects in the Karmada API, bound to its ServiceAccount there. */
export function agentKarmadaRbac(cluster: string): {
  clusterRole: ClusterRole;
  clusterRoleBinding: ClusterRoleBinding;
  roles: Role[];
  roleBindings: RoleBinding[];
} {
  const subjects: Subject[] = [
    { kind: "ServiceAccount", name: agentServiceAccountName(cluster), namespace: KARMADA_CLUSTER_NAMESPACE },
  ];
  const roleRef = <K extends RoleRef["kind"]>(kind: K, name: string): RoleRef<K> => ({
    apiGroup: "rbac.authorization.k8s.io",
    kind,
    name,
  });
  const crName = agentClusterRoleName(cluster);
  const roles: [string, string, PolicyRule[]][] = [
    [agentWorkRoleName(cluster), workNamespace(cluster), agentWorkRoleRules()],
    [agentLeaseRoleName(cluster), KARMADA_CLUSTER_NAMESPACE, agentLeaseRoleRules(cluster)],
  ];
  return {
    clusterRole: {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: crName },
      rules: agentClusterRoleRules(cluster),
    },
    clusterRoleBinding: {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: crName },
      roleRef: roleRef("ClusterRole", crName),
      subjects,
    },
    roles: roles.map(([name, namespace, rules]) => ({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: { name, namespace },
      rules,
    })),
    roleBindings: roles.map(([name, namespace]) => ({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name, namespace },
      roleRef: roleRef("Role", name),
      subjects,
    })),
  };
}

/** The member's execution namespace in Karmada, made before its Cluster as register does (labelled a Karmada system namespace). */
export function executionNamespace(cluster: string): Namespace {
  return { apiVersion: "v1", kind: "Namespace", metadata: { name: workNamespace(cluster), labels: SYSTEM_LABELS } };
}

/** The agent's long-lived token Secret in the Karmada API. */
export function agentTokenSecret(cluster: string): Secret {
  const sa = agentServiceAccountName(cluster);
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: "kubernetes.io/service-account-token",
    metadata: {
      name: sa,
      namespace: KARMADA_CLUSTER_NAMESPACE,
      annotations: { "kubernetes.io/service-account.name": sa },
    },
  };
}

export interface AgentKubeconfigArgs {
  cluster: string;
  /** The Karmada API as the agent reaches it from the member. */
  server: string;
  /** The Karmada CA, base64 (the token Secret's `ca.crt`). */
  caData: string;
  /** The ServiceAccount token (plain text). */
  token: string;
  /** The name to check the server certificate for when the server's host is not in it. @default the server's host */
  tlsServerName?: string;
}

/** The agent's kubeconfig of the Karmada API (JSON, which is YAML). Secret: the caller wraps it. */
export function agentKubeconfig(a: AgentKubeconfigArgs): string {
  const name = `karmada-agent-${a.cluster}`;
  const cluster: { server: string; "certificate-authority-data": string; "tls-server-name"?: string } = {
    server: a.server,
    "certificate-authority-data": a.caData,
  };
  if (a.tlsServerName) cluster["tls-server-name"] = a.tlsServerName;
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "karmada-apiserver", cluster }],
    users: [{ name, user: { token: a.token } }],
    contexts: [{ name, context: { cluster: "karmada-apiserver", user: name } }],
    "current-context": name,
  });
}

/** The agent's ClusterRole on the member: what Karmada's controllers get on a Push member, by access. */
export function agentMemberClusterRole(access: MemberAccess = "scoped"): ClusterRole {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name: AGENT, labels: SYSTEM_LABELS },
    rules: memberClusterRoleRules(access),
  };
}

/** Binds it to the agent's ServiceAccount on the member. */
export function agentMemberClusterRoleBinding(): ClusterRoleBinding {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: AGENT, labels: SYSTEM_LABELS },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: AGENT },
    subjects: [{ kind: "ServiceAccount", name: AGENT_SERVICE_ACCOUNT, namespace: KARMADA_CLUSTER_NAMESPACE }],
  };
}

export interface AgentDeploymentArgs {
  cluster: string;
  image: string;
  /** The member's API endpoint (spec.apiEndpoint of its Cluster; Karmada does not call it in Pull mode). */
  apiEndpoint: string;
  provider?: string;
  region?: string;
  zones?: string[];
}

/** The agent's flags: register's, less leader election and reported Secrets (see the module note). */
export function agentCommand(a: Omit<AgentDeploymentArgs, "image">): string[] {
  const cmd = [
    "/bin/karmada-agent",
    `--karmada-kubeconfig=/etc/kubeconfig/${AGENT_KUBECONFIG_SECRET}`,
    `--cluster-name=${a.cluster}`,
    `--cluster-api-endpoint=${a.apiEndpoint}`,
  ];
  if (a.provider) cmd.push(`--cluster-provider=${a.provider}`);
  if (a.region) cmd.push(`--cluster-region=${a.region}`);
  if (a.zones && a.zones.length > 0) cmd.push(`--cluster-zones=${a.zones.join(",")}`);
  cmd.push(
    "--controllers=*",
    `--cluster-namespace=${KARMADA_CLUSTER_NAMESPACE}`,
    "--report-secrets=None",
    "--leader-elect=false",
    "--cluster-status-update-frequency=10s",
    "--metrics-bind-address=:8080",
    "--health-probe-bind-address=0.0.0.0:10357",
    "--v=2",
  );
  return cmd;
}

/** The agent's Deployment on the member (namespace karmada-cluster, the push join's). */
export function agentDeployment(a: AgentDeploymentArgs): Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: AGENT, namespace: KARMADA_CLUSTER_NAMESPACE, labels: AGENT_LABELS },
    spec: {
      replicas: 1,
      strategy: { type: "Recreate" },
      selector: { matchLabels: AGENT_LABELS },
      template: {
        metadata: { labels: AGENT_LABELS },
        spec: {
          serviceAccountName: AGENT_SERVICE_ACCOUNT,
          containers: [
            {
              name: AGENT,
              image: a.image,
              command: agentCommand(a),
              ports: [{ name: "metrics", containerPort: 8080, protocol: "TCP" }],
              livenessProbe: {
                httpGet: { path: "/healthz", port: 10357, scheme: "HTTP" },
                failureThreshold: 3,
                initialDelaySeconds: 15,
                periodSeconds: 15,
                timeoutSeconds: 5,
              },
              volumeMounts: [{ name: "kubeconfig", mountPath: "/etc/kubeconfig", readOnly: true }],
            },
          ],
          volumes: [{ name: "kubeconfig", secret: { secretName: AGENT_KUBECONFIG_SECRET } }],
          tolerations: [{ key: "node-role.kubernetes.io/control-plane", operator: "Exists", effect: "NoSchedule" }],
        },
      },
    },
  };
}

/**
 * The Karmada API as agents on kind members reach a Helm-installed Karmada: the host's peer
 * endpoint (its node, which members reach by name) at the NodePort.
 */
export function helmAgentServer(hostPeerEndpoint: string, nodePort: number): string {
  return `https://${new URL(hostPeerEndpoint).hostname}:${nodePort}`;
}

/**
 * The name agents check a Helm-installed Karmada's certificate for: it has no entry for the host
 * node's name, but `*.<release namespace>.svc` is one of the chart's hosts.
 */
export function helmAgentTlsServerName(releaseNamespace: string): string {
  return `karmada-apiserver.${releaseNamespace}.svc`;
}

/**
 * The Cluster object of a Pull member: what the agent's registration writes (syncMode Pull, its
 * `--cluster-api-endpoint`, the kube-system UID, provider, region, zones; no Secret references
 * with `--report-secrets=None`), so the agent finds it up to date and leaves it alone, plus the
 * labels for placement.
 */
export function pullClusterObject(a: ClusterObjectArgs): Cluster {
  return { ...clusterHead(a), spec: pullClusterSpec(a) };
}

/** The spec of a Pull member's Cluster (see pullClusterObject). */
export function pullClusterSpec(a: Omit<ClusterObjectArgs, "name" | "labels">): Cluster["spec"] {
  return { syncMode: "Pull", apiEndpoint: a.apiEndpoint, id: a.id, ...clusterPlacement(a) };
}
