/**
 * What a member needs before it joins Karmada, shared by the fleet and region stacks: IKO in local
 * mode when the cluster wants it, and the IrisCluster CRD (Karmada's scheduler places only kinds a
 * member serves). The CRD is declared by the join, after the join's own objects on the member, so
 * the member's provider reads the API schema once (it reads it again after creating a CRD).
 */
import { ClusterHandle } from "../components/cluster";
import { CrdMirror, IkoHomeOperator } from "../components/iko";
import { MemberPrerequisites } from "../components/karmada";
import { IkoConfig, ikoInstallArgs } from "./config";

export function memberPrerequisitesOf(
  name: string,
  member: ClusterHandle,
  opts: { iko?: IkoConfig; crdManifestPath?: string },
): MemberPrerequisites {
  const iko = opts.iko ? [new IkoHomeOperator(`${name}-iko`, { home: member, ...ikoInstallArgs(opts.iko) })] : [];
  const crdManifestPath = opts.crdManifestPath;
  if (crdManifestPath === undefined) return iko;
  return (memberSide) => [
    ...iko,
    new CrdMirror(`${name}-iriscluster-crd`, {
      target: { ...member, readyGate: [...member.readyGate, ...memberSide] },
      manifestPath: crdManifestPath,
    }),
  ];
}
