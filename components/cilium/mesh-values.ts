/**
 * Pure parts of ClusterMesh (components/cilium/mesh.ts): the rules a mesh must keep, each
 * member's Cilium chart values, the certificates each member's clustermesh-apiserver and agents
 * use, and the Secrets that carry them.
 *
 * How the mesh is wired (chart `install/kubernetes/cilium` of github.com/cilium/cilium@v1.18.6; the same in 1.18.0):
 * every member runs the clustermesh-apiserver (`clustermesh.useAPIServer`, etcd + KVStoreMesh)
 * behind a NodePort Service; `clustermesh.config.clusters` lists the other members' endpoints,
 * from which the chart writes the `cilium-clustermesh` and `cilium-kvstoremesh` Secrets and the
 * `clustermesh-remote-users` ConfigMap (etcd user `remote-<peer>` per peer). TLS is ours, not the
 * chart's (`tls.auto.enabled: false`, `tls.enableSecrets: false`): one CA shared by every member,
 * and per member four certificates signed by it, in the Secrets the chart's pods mount:
 * `clustermesh-apiserver-server-cert` (etcd's server certificate), `-admin-cert` (CN
 * `admin-<name>`, etcd's root user), `-local-cert` (CN `local-<name>`, the local agents reading
 * KVStoreMesh's cache) and `-remote-cert` (CN `remote-<name>`, what this member presents to the
 * others: `authMode: cluster`). So the CA key never enters a cluster, and no Helm upgrade
 * regenerates a certificate.
 */
import { ArgProblem, checkCiliumClusterId, checkClusterName, checkField, checkNodePort, cidrsOverlap } from "../names";

/** The clustermesh-apiserver's NodePort (the chart's default). */
export const CLUSTERMESH_NODE_PORT = 32379;
/** The namespace Cilium and its clustermesh-apiserver run in (CiliumCni's release). */
export const CILIUM_NAMESPACE = "kube-system";
/** The chart's `clustermesh.config.domain`: the server certificate covers `*.<domain>`. */
export const CLUSTERMESH_DOMAIN = "mesh.cilium.io";
/** The clustermesh-apiserver server certificate's common name (the chart's). */
export const CLUSTERMESH_SERVER_CN = "clustermesh-apiserver.cilium.io";
/** kind's default pod subnet: what a kind cluster without `podSubnet` uses. */
export const KIND_DEFAULT_POD_SUBNET = "10.244.0.0/16";

/** What the cross-cluster rules look at of one cluster. */
export interface MeshMemberCheck {
  /**
   * How problems name this member's fields: `<ref>.name`, `<ref>.clusterId`, `<ref>.podSubnet`,
   * `<ref>.nodePort`; messages name the other member by its `ref`. @default `members[<index>]`
   */
  ref?: string;
  /** Cilium `cluster.name`. */
  name: string;
  /** Cilium `cluster.id`. @default not checked (a cluster without Cilium) */
  clusterId?: number;
  /** The cluster's pod range. @default not checked (unknown) */
  podSubnet?: string;
  /** The clustermesh-apiserver NodePort. @default not checked */
  nodePort?: number;
  /** The member's Cilium replaces kube-proxy (NodePorts must then differ, Cilium #24692). @default false */
  kubeProxyReplacement?: boolean;
}

/**
 * Cross-cluster rules of a set of Cilium clusters, as `[<ref>.<field>, value, problem]`: every
 * cluster its own name, every Cilium cluster its own `cluster.id`, pod ranges apart, and, when a
 * member replaces kube-proxy, NodePorts apart. The later of two clashing clusters gets the
 * problem. The stack config's cluster set (`checkClusterSet`), a ClusterMesh and the policy pack
 * all call this one function.
 */
export function checkClusterMeshMembers(members: readonly MeshMemberCheck[]): ArgProblem[] {
  const problems: ArgProblem[] = [];
  const ref = (i: number) => members[i].ref ?? `members[${i}]`;
  for (let j = 0; j < members.length; j++) {
    const b = members[j];
    for (let i = 0; i < j; i++) {
      const a = members[i];
      if (a.name === b.name)
        problems.push([`${ref(j)}.name`, b.name, `is also the name of ${ref(i)}; give every cluster its own name`]);
      if (a.clusterId !== undefined && b.clusterId !== undefined && a.clusterId === b.clusterId) {
        problems.push([
          `${ref(j)}.clusterId`,
          b.clusterId,
          `is also ${ref(i)}'s Cilium cluster id; give every cluster its own id from 1 to 255`,
        ]);
      }
      if (a.podSubnet && b.podSubnet && cidrsOverlap(a.podSubnet, b.podSubnet)) {
        problems.push([
          `${ref(j)}.podSubnet`,
          b.podSubnet,
          `overlaps ${ref(i)}.podSubnet ${JSON.stringify(a.podSubnet)}; ClusterMesh needs pod subnets apart, e.g. 10.244.0.0/16 and 10.245.0.0/16`,
        ]);
      }
      if (a.nodePort !== undefined && a.nodePort === b.nodePort && (a.kubeProxyReplacement || b.kubeProxyReplacement)) {
        problems.push([
          `${ref(j)}.nodePort`,
          b.nodePort,
          `is also ${ref(i)}'s clustermesh-apiserver NodePort, and one of them replaces kube-proxy, which then sends that NodePort to its own cluster (Cilium #24692); give each its own, e.g. ${b.nodePort === CLUSTERMESH_NODE_PORT ? CLUSTERMESH_NODE_PORT + 1 : CLUSTERMESH_NODE_PORT}`,
        ]);
      }
    }
  }
  return problems;
}

/** A NodePort (the shared rule, re-exported where the mesh's callers import it). */
export { checkNodePort };

/**
 * Problems of a ClusterMesh's members, as `[members[<i>].<field>, value, problem]`: at least one
 * member; each a valid Cilium name and id and NodePort; then the cross-cluster rules
 * (`checkClusterMeshMembers`).
 */
export function checkClusterMeshArgs(members: readonly MeshMemberCheck[]): ArgProblem[] {
  const problems: ArgProblem[] = [];
  if (members.length === 0) problems.push(["members", [], "must list at least one cluster"]);
  members.forEach((m, i) => {
    const ref = m.ref ?? `members[${i}]`;
    checkField(problems, `${ref}.name`, m.name, checkClusterName);
    if (m.clusterId === undefined)
      problems.push([
        `${ref}.clusterId`,
        undefined,
        "is required: a ClusterMesh member needs its Cilium cluster id (1 to 255)",
      ]);
    else checkField(problems, `${ref}.clusterId`, m.clusterId, checkCiliumClusterId);
    checkField(problems, `${ref}.nodePort`, m.nodePort, checkNodePort);
  });
  return [...problems, ...checkClusterMeshMembers(members)];
}

/** One other member as a member's chart values name it. */
export interface MeshPeer<A = string> {
  /** Its Cilium `cluster.name`. */
  name: string;
  /** The host (name or IP) where this member reaches its clustermesh-apiserver NodePort. */
  address: A;
  /** That NodePort. */
  port: number;
}

/**
 * The chart's `clustermesh` values for one member: the clustermesh-apiserver on, exposed by a
 * NodePort Service, our TLS (no chart-made certificates or Secrets, `authMode: cluster`), and the
 * peers. `A` is the address type (a string, or a Pulumi input in the component).
 */
export function clusterMeshValues<A>(args: {
  nodePort: number;
  peers: readonly MeshPeer<A>[];
}): Record<string, unknown> {
  return {
    useAPIServer: true,
    apiserver: {
      service: { type: "NodePort", nodePort: args.nodePort },
      tls: { authMode: "cluster", auto: { enabled: false }, enableSecrets: false },
    },
    config: { enabled: true, clusters: args.peers.map((p) => ({ name: p.name, address: p.address, port: p.port })) },
  };
}

/** The four certificates of one member. */
export const MESH_CERT_KINDS = ["server", "admin", "local", "remote"] as const;
export type MeshCertKind = (typeof MESH_CERT_KINDS)[number];

/** The Secret each certificate goes in (the names the chart's pods mount). */
export function meshSecretName(kind: MeshCertKind): string {
  return `clustermesh-apiserver-${kind}-cert`;
}

/** What one certificate holds: its common name and, for the server, its names. */
export interface MeshCertSpec {
  commonName: string;
  dnsNames: string[];
  ipAddresses: string[];
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The four certificates of member `clusterName`, reached by the others at `addresses`: the server
 * certificate has the chart's names (`clustermesh-apiserver.cilium.io`, `*.mesh.cilium.io`, the
 * Service's in-cluster name, 127.0.0.1 and ::1) plus each address; the client certificates' common
 * names are the etcd users the clustermesh-apiserver creates (`admin-`, `local-`, `remote-<name>`).
 */
export function meshCertSpecs(
  clusterName: string,
  addresses: readonly string[],
  namespace = CILIUM_NAMESPACE,
): Record<MeshCertKind, MeshCertSpec> {
  const ips = addresses.filter((a) => IPV4.test(a) || a.includes(":"));
  const hosts = addresses.filter((a) => !ips.includes(a));
  const dnsNames = [CLUSTERMESH_SERVER_CN, `*.${CLUSTERMESH_DOMAIN}`, `clustermesh-apiserver.${namespace}.svc`];
  for (const h of hosts) if (!dnsNames.includes(h)) dnsNames.push(h);
  const ipAddresses = ["127.0.0.1", "::1"];
  for (const ip of ips) if (!ipAddresses.includes(ip)) ipAddresses.push(ip);
  const client = (cn: string): MeshCertSpec => ({ commonName: cn, dnsNames: [], ipAddresses: [] });
  return {
    server: { commonName: CLUSTERMESH_SERVER_CN, dnsNames, ipAddresses },
    admin: client(`admin-${clusterName}`),
    local: client(`local-${clusterName}`),
    remote: client(`remote-${clusterName}`),
  };
}

/**
 * One certificate's Secret, `kubernetes.io/tls` with `ca.crt` as the chart's own Secrets have it.
 * `T` is the value type (strings, or Pulumi secret outputs in the component).
 */
export function meshTlsSecretManifest<T>(
  kind: MeshCertKind,
  pem: { ca: T; cert: T; key: T },
  namespace = CILIUM_NAMESPACE,
): {
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  type: string;
  stringData: { "ca.crt": T; "tls.crt": T; "tls.key": T };
} {
  return {
    metadata: {
      name: meshSecretName(kind),
      namespace,
      labels: { "app.kubernetes.io/part-of": "cilium", "app.kubernetes.io/managed-by": "iko-plus" },
    },
    type: "kubernetes.io/tls",
    stringData: { "ca.crt": pem.ca, "tls.crt": pem.cert, "tls.key": pem.key },
  };
}

/** The host of a URL such as a peer endpoint (`https://x-control-plane:6443` gives `x-control-plane`). */
export function endpointHost(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
}
