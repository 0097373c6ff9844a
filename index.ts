/**
 * iko-plus: the Pulumi program. The stack's config names the stack program (`iko-plus:program`:
 * "wfh", the default, "fleet" or "region"); it is validated before any resource is declared.
 */
import { runProgram } from "./stacks/program";

const outputs = runProgram();

export const program = outputs.program;
// wfh
export const homeKubeconfig = outputs.homeKubeconfig;
export const workKubeconfig = outputs.workKubeconfig;
export const operatorTargetKubeconfig = outputs.operatorTargetKubeconfig;
export const operatorNamespace = outputs.operatorNamespace;
export const operatorDeployment = outputs.operatorDeployment;
export const targetKubeconfigSecret = outputs.targetKubeconfigSecret;
export const irisClusters = outputs.irisClusters;
// fleet
export const karmadaKubeconfig = outputs.karmadaKubeconfig;
export const clusterKubeconfigs = outputs.clusterKubeconfigs;
export const joinedMembers = outputs.joinedMembers;
export const federatedIrisClusters = outputs.federatedIrisClusters;
export const fleetSecrets = outputs.fleetSecrets;
export const fleetTls = outputs.fleetTls;
// region (DR)
export const memberKubeconfig = outputs.memberKubeconfig;
export const joinedMember = outputs.joinedMember;
export const memberRegion = outputs.memberRegion;
export const memberZones = outputs.memberZones;
export const fleetStack = outputs.fleetStack;
