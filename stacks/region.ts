/**
 * The `region` stack (disaster recovery): one member cluster per region stack, joined to the
 * Karmada of a fleet stack. The fleet stack is read through a StackReference; its secret output
 * `karmadaKubeconfig` becomes this stack's Karmada provider. The member gets IKO (local mode) and
 * the IrisCluster CRD first, then its Karmada Cluster carries this stack's region and zones, which
 * the fleet's placements select (ordered affinities: primary region first, then the DR region).
 * Order: `pulumi up` the fleet, then the regions; `pulumi destroy` the regions, then the fleet.
 */
import * as pulumi from "@pulumi/pulumi";
import { KarmadaControlPlane, KarmadaMember } from "../components/karmada";
import { ClusterEnv, declareCluster } from "./clusters";
import { RegionConfig } from "./config";
import { memberPrerequisitesOf } from "./member-prerequisites";

/** The fleet stack output a region stack reads. */
export const FLEET_KARMADA_OUTPUT = "karmadaKubeconfig";

export interface RegionOutputs {
  /** The member's kubeconfig, valid from this machine. Secret. */
  memberKubeconfig: pulumi.Output<string>;
  /** The member's name in Karmada. */
  joinedMember: string;
  memberRegion: string;
  memberZones: string[];
  /** The fleet stack the member joined. */
  fleetStack: string;
}

/** The message when the fleet stack has no Karmada kubeconfig to give (not up yet, or not a fleet stack). */
export function missingFleetOutputMessage(fleetStack: string): string {
  return `iko-plus:fleetStack: "${fleetStack}" has no output ${FLEET_KARMADA_OUTPUT}; run \`pulumi up\` on that fleet stack first (fleet before regions), or name a fleet stack`;
}

/**
 * The Karmada kubeconfig from the fleet stack, kept secret. A missing output fails the program
 * with one message naming the fleet stack and the fix.
 */
export function fleetKarmadaKubeconfig(fleet: pulumi.StackReference, fleetStack: string): pulumi.Output<string> {
  return pulumi.secret(
    fleet.getOutput(FLEET_KARMADA_OUTPUT).apply((v: unknown) => {
      if (typeof v !== "string" || v.length === 0) throw new pulumi.RunError(missingFleetOutputMessage(fleetStack));
      return v;
    }),
  );
}

export function regionStack(cfg: RegionConfig, env: ClusterEnv): RegionOutputs {
  const fleet = new pulumi.StackReference("fleet", { name: cfg.fleetStack });
  const karmada = new KarmadaControlPlane("karmada", {
    existing: { kubeconfig: fleetKarmadaKubeconfig(fleet, cfg.fleetStack) },
  });
  const m = cfg.member;
  const member = declareCluster(m, env);

  // What Karmada's scheduler needs on the member before it places IrisClusters there.
  const ready = memberPrerequisitesOf(m.name, member, {
    iko: m.iko ? cfg.iko : undefined,
    crdManifestPath: cfg.crdManifestPath,
  });

  const joined = new KarmadaMember(`${m.name}-member`, {
    karmada,
    member,
    provider: m.provider,
    region: cfg.region,
    zones: cfg.zones,
    labels: m.labels,
    protect: m.protect,
    dependsOn: ready,
  });
  return {
    memberKubeconfig: pulumi.secret(member.kubeconfig),
    joinedMember: joined.clusterName,
    memberRegion: cfg.region,
    memberZones: cfg.zones ?? [],
    fleetStack: cfg.fleetStack,
  };
}
