/**
 * ClusterMesh: Cilium ClusterMesh between chosen clusters, declared. One CA shared by every
 * member (generated once per stack, its key a Pulumi secret from the start, or supplied); per
 * member the clustermesh-apiserver certificates signed by it (MeshCertificates) in the Secrets
 * the chart's pods mount, written through that member's own provider; and per member the chart
 * values that turn the clustermesh-apiserver on behind a NodePort on the nodes' network (the
 * kind network for kind clusters) and give it every other member's endpoint
 * (`clustermesh.config.clusters`, from which the chart writes `cilium-clustermesh`).
 *
 * Cilium itself stays CiliumCni's: a member's CiliumCni takes `mesh.cniArgs(name)` (the values
 * and the Secrets its release waits for), so the mesh is part of that cluster's one Cilium
 * release. The CA key stays in the stack's state: it never enters a cluster.
 * Pure parts: mesh-values.ts (rules, values, certificate subjects, Secret manifests).
 */
import * as fs from "fs";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions } from "../cluster/handle";
import { kubeconfigCredentials } from "../kubeconfig";
import { ArgProblem, checkField, checkWholeNumber, throwIfArgProblems } from "../names";
import { FleetCaOptions, FleetCaSource, resolveCaOptions } from "../tls/ca";
import { FleetCa } from "../tls/ca-provider";
import {
  ClusterMeshReady,
  DEFAULT_MESH_READY_TIMEOUT_SECONDS,
  MESH_READY_TIMEOUT_RANGE,
  meshProbeServiceManifest,
} from "./mesh-ready";
import { MESH_CERT_VALIDITY_DAYS, MeshCertificates } from "./mesh-tls";
import {
  CILIUM_NAMESPACE,
  CLUSTERMESH_NODE_PORT,
  MESH_CERT_KINDS,
  MeshPeer,
  checkClusterMeshArgs,
  clusterMeshValues,
  endpointHost,
  meshTlsSecretManifest,
} from "./mesh-values";

export interface ClusterMeshMember {
  /** The cluster, before its CNI (the Secrets go in first; its CiliumCni waits for them). */
  cluster: ClusterHandle;
  /** Cilium `cluster.id`, as its CiliumCni sets it: unique in the mesh, 1 to 255. */
  clusterId: number;
  /** Cilium `cluster.name`. @default the cluster handle's name */
  clusterName?: string;
  /** The cluster's pod range, checked against the others'. @default unknown (not checked) */
  podSubnet?: string;
  /**
   * Where the other members reach this member's clustermesh-apiserver NodePort: a node's host
   * name or IP on their network. @default the host of the handle's `peerEndpoint` (a kind
   * cluster's control-plane container, `<name>-control-plane`, on Docker's kind network)
   */
  address?: pulumi.Input<string>;
  /** The clustermesh-apiserver's NodePort. @default 32379 */
  nodePort?: number;
  /** Its Cilium replaces kube-proxy (NodePorts must then differ between members). @default false */
  kubeProxyReplacement?: boolean;
}

export interface ClusterMeshArgs {
  /** The clusters to mesh: every member reaches every other. */
  members: ClusterMeshMember[];
  /**
   * The CA. @default `{generate: {commonName: "iko-plus Cilium ClusterMesh CA", keyBits: 2048}}`,
   * generated once per stack (raise `generation` to rotate)
   */
  ca?: FleetCaSource;
  /** Days the members' certificates are valid. @default 1095 (the chart's) */
  certValidityDays?: number;
  /** Raise by one to issue every member new certificates. @default 1 */
  certGeneration?: number;
  /**
   * Seconds `up` waits, after the members' Cilium, until every agent of every member holds every
   * other member's backend of the probe Service (`declareReadiness`); past it `up` fails naming
   * what is missing. A whole number from 10 to 3600. @default 300
   */
  readyTimeoutSeconds?: number;
}

/** What a member's CiliumCni takes from the mesh. */
export interface MeshCniArgs {
  /** The chart's `clustermesh` values. */
  clusterMesh: Record<string, unknown>;
  /** The Secrets the release waits for. */
  dependsOn: pulumi.Resource[];
}

/** The generated CA's defaults: RSA 2048 (the members' keys are 2048 too). */
export const MESH_CA_DEFAULTS: FleetCaOptions = { commonName: "iko-plus Cilium ClusterMesh CA", keyBits: 2048 };

export class ClusterMesh extends pulumi.ComponentResource {
  /** The CA certificate (PEM, public). */
  declare public readonly caCertificate: pulumi.Output<string>;
  /** The generated CA, when it is generated. */
  declare public readonly ca: FleetCa | undefined;
  /** Each member's certificates, by Cilium cluster name. */
  declare public readonly certificates: Record<string, MeshCertificates>;
  /** Each member's four TLS Secrets, by Cilium cluster name. */
  declare public readonly secrets: Record<string, k8s.core.v1.Secret[]>;
  /** The members' Cilium cluster names, in order. */
  declare public readonly memberNames: string[];
  private readonly cni: Record<string, MeshCniArgs>;
  private readonly meshName: string;
  private readonly readyTimeoutSeconds: number;

  constructor(name: string, args: ClusterMeshArgs, opts?: pulumi.ComponentResourceOptions) {
    const names = args.members.map((m) => m.clusterName ?? m.cluster.name);
    const timeoutProblems: ArgProblem[] = [];
    checkField(
      timeoutProblems,
      "readyTimeoutSeconds",
      args.readyTimeoutSeconds,
      checkWholeNumber(MESH_READY_TIMEOUT_RANGE.min, MESH_READY_TIMEOUT_RANGE.max),
    );
    throwIfArgProblems("ClusterMesh", name, [
      ...checkClusterMeshArgs(
        args.members.map((m, i) => ({
          name: names[i],
          clusterId: m.clusterId,
          podSubnet: m.podSubnet,
          nodePort: m.nodePort ?? CLUSTERMESH_NODE_PORT,
          kubeProxyReplacement: m.kubeProxyReplacement,
        })),
      ),
      ...timeoutProblems,
    ]);
    super("iko-plus:cilium:ClusterMesh", name, {}, opts);
    this.memberNames = names;
    this.meshName = name;
    this.readyTimeoutSeconds = args.readyTimeoutSeconds ?? DEFAULT_MESH_READY_TIMEOUT_SECONDS;

    let caCert: pulumi.Output<string>;
    let caKey: pulumi.Output<string>;
    const source = args.ca ?? { generate: {} };
    if ("generate" in source) {
      const o = resolveCaOptions({ ...MESH_CA_DEFAULTS, ...source.generate });
      this.ca = new FleetCa(`${name}-ca`, o, { parent: this });
      caCert = this.ca.certPem;
      caKey = pulumi.secret(this.ca.keyPem);
    } else {
      this.ca = undefined;
      caCert = pulumi.output(source.certificatePem);
      caKey = pulumi.secret(source.privateKeyPem);
    }
    this.caCertificate = caCert;

    const addresses = args.members.map((m) => pulumi.output(m.address ?? m.cluster.peerEndpoint.apply(endpointHost)));
    const ports = args.members.map((m) => m.nodePort ?? CLUSTERMESH_NODE_PORT);
    this.certificates = {};
    this.secrets = {};
    this.cni = {};
    args.members.forEach((m, i) => {
      const member = names[i];
      const certs = new MeshCertificates(
        `${name}-${member}-certs`,
        {
          caCertPem: caCert,
          caKeyPem: caKey,
          clusterName: member,
          addresses: addresses[i].apply((a) => [a]),
          validityDays: args.certValidityDays ?? MESH_CERT_VALIDITY_DAYS,
          generation: args.certGeneration ?? 1,
        },
        { parent: this },
      );
      this.certificates[member] = certs;
      this.secrets[member] = MESH_CERT_KINDS.map((kind) => {
        const pem = certs.pem(kind);
        return new k8s.core.v1.Secret(
          `${name}-${member}-${kind}-cert`,
          meshTlsSecretManifest(kind, { ca: caCert, cert: pem.cert, key: pem.key }, CILIUM_NAMESPACE),
          clusterOptions(this, m.cluster),
        );
      });
      const peers: MeshPeer<pulumi.Output<string>>[] = [];
      args.members.forEach((_, j) => {
        if (j !== i) peers.push({ name: names[j], address: addresses[j], port: ports[j] });
      });
      this.cni[member] = {
        clusterMesh: clusterMeshValues({ nodePort: ports[i], peers }),
        dependsOn: this.secrets[member],
      };
    });
    this.registerOutputs({ caCertificate: this.caCertificate, members: names });
  }

  /** What member `clusterName`'s CiliumCni takes (`clusterMesh`, `dependsOn`). */
  cniArgs(clusterName: string): MeshCniArgs {
    const a = this.cni[clusterName];
    if (!a)
      throw new Error(
        `ClusterMesh: ${JSON.stringify(clusterName)} is not a member (members: ${this.memberNames.join(", ")})`,
      );
    return a;
  }

  /**
   * Declares the wait until the mesh carries global Services between every pair of members
   * (ClusterMeshReady): a probe Service in each member (global, backed by its clustermesh-apiserver),
   * then the wait, which every agent of every member must pass. `members` are the members by
   * Cilium cluster name: their handles gated on their Cilium, and their Cilium releases (a new
   * release revision waits again). Call it once, after every member's CiliumCni; gate whatever
   * needs the mesh on the returned resource. It waits `readyTimeoutSeconds` (the mesh's arg).
   */
  declareReadiness(
    members: Record<string, { handle: ClusterHandle; release?: k8s.helm.v3.Release }>,
  ): ClusterMeshReady {
    const probes: pulumi.Resource[] = [];
    const access = this.memberNames.map((member) => {
      const m = members[member];
      if (!m) throw new Error(`ClusterMesh.declareReadiness: no handle for member ${JSON.stringify(member)}`);
      probes.push(
        new k8s.core.v1.Service(
          `${this.meshName}-${member}-probe`,
          meshProbeServiceManifest(),
          clusterOptions(this, m.handle),
        ),
      );
      return {
        name: member,
        kubeconfig: m.handle.kubeconfig.apply((t) =>
          kubeconfigCredentials(t, `${member}'s kubeconfig`, (f) => fs.readFileSync(f, "utf8")),
        ),
      };
    });
    return new ClusterMeshReady(
      `${this.meshName}-ready`,
      {
        members: pulumi
          .all(access.map((a) => pulumi.all([a.name, a.kubeconfig])))
          .apply((list) => list.map(([name, kubeconfig]) => ({ name, kubeconfig }))),
        timeoutSeconds: this.readyTimeoutSeconds,
        triggers: this.memberNames.map((member) => members[member].release?.status.revision ?? 0),
      },
      { parent: this, dependsOn: probes },
    );
  }
}
