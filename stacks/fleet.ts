/**
 * The `fleet` stack (Kamino): Karmada on a host cluster (or an existing Karmada), members joined
 * declaratively, IKO and the IrisCluster CRD on every member and the CRD in the Karmada API,
 * federated IrisClusters and fleet Secrets propagated by policy.
 */
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle } from "../components/cluster";
import { CrdMirror } from "../components/iko";
import {
  FederatedIrisCluster,
  FleetSecret,
  KARMADA_NAMESPACE,
  KarmadaControlPlane,
  KarmadaMember,
  MemberPrerequisites,
  Placement,
  declareIrisInterpreter,
  declareNotReadyTaintPolicy,
  helmAgentServer,
  helmAgentTlsServerName,
  propagatedByMember,
  selectableMembers,
} from "../components/karmada";
import { ClusterEnv, ClusterMeshOutputs, declareClusters, meshOutputs } from "./clusters";
import { FleetConfig } from "./config";
import { memberPrerequisitesOf } from "./member-prerequisites";
import { FleetTlsStackOutputs, declareFleetTls, federatedIrisManifest, fleetTlsOutputs, tlsDependencies } from "./tls";

export interface FleetEnv extends ClusterEnv {
  /** Secret config values that entries name (license keys, Secret data), as outputs. */
  secretObjects: Record<string, pulumi.Output<unknown>>;
}

export interface FleetOutputs {
  karmadaKubeconfig: pulumi.Output<string>;
  clusterKubeconfigs: pulumi.Output<Record<string, string>>;
  joinedMembers: string[];
  federatedIrisClusters: { name: string; namespace: string; policy: string }[];
  fleetSecrets: string[];
  /** Fleet TLS (when `fleetTls` is set): the CA certificate, issuer, members, certificate Secrets. */
  fleetTls?: FleetTlsStackOutputs;
  /** The Cilium ClusterMesh (with `mesh`): its members and the CA certificate (public). */
  clusterMesh?: ClusterMeshOutputs;
}

export function fleetStack(cfg: FleetConfig, env: FleetEnv): FleetOutputs {
  const { handles, mesh } = declareClusters(cfg.clusters, env, cfg.mesh);
  const handle = (name: string) => handles.get(name) as ClusterHandle;

  // IKO (local mode) on every cluster that wants it, and the IrisCluster CRD on every member.
  const memberReady = new Map<string, MemberPrerequisites>();
  for (const c of cfg.clusters)
    memberReady.set(
      c.name,
      memberPrerequisitesOf(c.name, handle(c.name), {
        iko: c.iko ? cfg.iko : undefined,
        crdManifestPath: c.join ? cfg.crdManifestPath : undefined,
      }),
    );

  const k = cfg.karmada;
  const karmada = new KarmadaControlPlane(
    "karmada",
    k.mode === "helm"
      ? {
          helm: {
            host: handle(k.host as string),
            endpoint: k.endpoint as string,
            nodePort: k.nodePort,
            chartPath: k.chartPath,
            chartVersion: k.chartVersion,
            kubectlImage: k.kubectlImage,
            images: k.images,
          },
        }
      : {
          existing:
            k.kubeconfigPath !== undefined
              ? { kubeconfigPath: k.kubeconfigPath }
              : { kubeconfig: env.secrets[k.kubeconfigSecret as string] },
        },
  );
  const karmadaCrd = cfg.crdManifestPath
    ? [
        // As soon as the Karmada apiserver answers (apiGate), so the controller-manager's first
        // resource discovery already sees IrisClusters.
        new CrdMirror("karmada-iriscluster-crd", {
          target: { ...karmada, readyGate: karmada.apiGate },
          manifestPath: cfg.crdManifestPath,
        }),
      ]
    : [];
  const interpreter = declareIrisInterpreter("karmada-iriscluster-interpreter", karmada);

  // A federated object waits for (and on destroy goes before) the joins its placement can select,
  // and only those: a member that is down holds back nothing placed elsewhere. On destroy, each
  // join (its Cluster and Secrets) waits until Karmada has removed those objects from the member:
  // the wait's delete starts beside the objects' and ends when Karmada has cleaned the member.
  const placeable = cfg.clusters
    .filter((c) => c.join)
    .map((c) => ({ name: c.name, labels: c.join?.labels, region: c.join?.region }));
  const propagated = propagatedByMember(
    placeable,
    cfg.federatedIrisClusters.map((f) => ({
      name: f.name,
      namespace: f.namespace,
      placement: f.placement,
      licenseKey: f.licenseKeyConfig !== undefined,
      secrets: f.secrets,
      configMaps: f.configMaps,
    })),
    cfg.fleetSecrets.map((s) => ({ name: s.name, namespace: s.namespace, placement: s.placement })),
  );
  // Pull members' agents reach a Helm-installed Karmada at its host's node, on the NodePort.
  // `karmada.agentServer` wins; without it an existing Karmada's kubeconfig server is used.
  const agentServer =
    k.agentServer !== undefined
      ? pulumi.output(k.agentServer)
      : k.mode === "helm"
        ? handle(k.host as string).peerEndpoint.apply((e) => helmAgentServer(e, k.nodePort))
        : undefined;
  const agentTlsServerName =
    k.agentTlsServerName ??
    (k.mode === "helm" && k.agentServer === undefined ? helmAgentTlsServerName(KARMADA_NAMESPACE) : undefined);
  const pullArgs = (c: FleetConfig["clusters"][number]) =>
    c.join?.syncMode !== "Pull"
      ? {}
      : {
          syncMode: "Pull" as const,
          ...(c.join.agentImage !== undefined ? { agentImage: c.join.agentImage } : {}),
          ...(agentServer ? { agentKarmadaServer: agentServer } : {}),
          ...(agentTlsServerName !== undefined ? { agentTlsServerName } : {}),
        };
  // Each member's destroy-time wait registers after the objects this stack propagates (see
  // KarmadaMember's waitRegistersAfter): the wait's provider process starts off their path.
  let propagatedRegistered: () => void = () => undefined;
  const afterPropagated = new Promise<void>((resolve) => (propagatedRegistered = resolve));
  const members = cfg.clusters
    .filter((c) => c.join)
    .map(
      (c) =>
        new KarmadaMember(`${c.name}-member`, {
          karmada,
          member: handle(c.name),
          provider: c.join?.provider,
          region: c.join?.region,
          zones: c.join?.zones,
          labels: c.join?.labels,
          access: c.join?.access,
          protect: c.protect,
          dependsOn: memberReady.get(c.name),
          propagated: propagated[c.name],
          waitRegistersAfter: afterPropagated,
          ...pullArgs(c),
        }),
    );

  const joinsFor = (p: Placement) => {
    const names = selectableMembers(p, placeable);
    return members.filter((m) => names.includes(m.clusterName)).flatMap((m) => m.joined);
  };

  // Fleet TLS: the CA and certificates on its members, before the IrisClusters that mount them.
  const fleetTls = declareFleetTls(cfg.fleetTls, cfg.federatedIrisClusters, handle, env.secretObjects);
  const federated = cfg.federatedIrisClusters.map(
    (f) =>
      new FederatedIrisCluster(`${f.namespace}-${f.name}`, {
        karmada,
        irisCluster: federatedIrisManifest(f, fleetTls),
        policyName: f.policyName,
        placement: f.placement,
        failover: f.failover,
        overrides: f.overrides,
        licenseKey: f.licenseKeyConfig ? (env.secretObjects[f.licenseKeyConfig] as pulumi.Output<string>) : undefined,
        secrets: f.secrets,
        configMaps: f.configMaps,
        dependsOn: [...karmadaCrd, interpreter, ...joinsFor(f.placement), ...tlsDependencies(f, fleetTls)],
      }),
  );
  const fleetSecrets = cfg.fleetSecrets.map(
    (s) =>
      new FleetSecret(`${s.namespace}-${s.name}`, {
        karmada,
        name: s.name,
        namespace: s.namespace,
        placement: s.placement,
        data: env.secretObjects[s.dataKey] as pulumi.Output<Record<string, string>>,
        dependsOn: joinsFor(s.placement),
      }),
  );
  // The last of each federated object's resources: the template (after its policy, overrides and
  // Secrets) and the fleet Secret (after its policy).
  pulumi
    .all([...federated.map((f) => f.template.urn), ...fleetSecrets.map((s) => s.secret.urn)])
    .apply(() => propagatedRegistered());
  // Cluster failover: not-ready Clusters get a NoExecute taint, so Karmada evicts and reschedules.
  if (cfg.clusterFailover) {
    declareNotReadyTaintPolicy("karmada-not-ready-taint-policy", karmada, {
      name: "iko-plus-not-ready",
      target: cfg.clusterFailover.target,
    });
  }
  const kubeconfigs: Record<string, pulumi.Output<string>> = {};
  for (const [name, h] of handles) kubeconfigs[name] = h.kubeconfig;
  return {
    karmadaKubeconfig: karmada.kubeconfig,
    clusterKubeconfigs: pulumi.secret(pulumi.all(kubeconfigs)),
    joinedMembers: members.map((m) => m.clusterName),
    federatedIrisClusters: cfg.federatedIrisClusters.map((f, i) => ({
      name: f.name,
      namespace: f.namespace,
      policy: federated[i].policyName,
    })),
    fleetSecrets: cfg.fleetSecrets.map((s) => `${s.namespace}/${s.name}`),
    fleetTls: fleetTlsOutputs(fleetTls),
    clusterMesh: meshOutputs(mesh),
  };
}
