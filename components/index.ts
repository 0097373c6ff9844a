/**
 * iko-plus as a library (`import { KindCluster, IkoHomeOperator } from "iko-plus"`): the
 * components, their args and the handles they exchange. Each concern's pure helpers (values,
 * manifests, names, checks) are its own entry point, e.g. `iko-plus/karmada`, `iko-plus/names`.
 * docs/api.md is generated from the JSDoc of what this file exports (`npm run docs:api`).
 */

// Clusters: one handle, whatever made the cluster.
export { withReadyGate, onCluster, ExistingCluster } from "./cluster";
export type { ClusterHandle, ClusterTarget, ExistingClusterArgs } from "./cluster";
export { KindCluster } from "./kind";
export type { KindClusterArgs, RegistryMirror } from "./kind";
export { GkeCluster } from "./gcp";
export type { GkeClusterArgs } from "./gcp";

// Networking.
export { CiliumCni, ClusterMesh } from "./cilium";
export type { CiliumCniArgs, ClusterMeshArgs } from "./cilium";

// The IRIS operator and IrisClusters.
export { IkoHomeOperator, CrdMirror, RemoteOperatorIdentity } from "./iko";
export type {
  IkoHomeOperatorArgs,
  IkoRemoteArgs,
  IkoChartSource,
  IkoImage,
  CrdMirrorArgs,
  RemoteOperatorIdentityArgs,
} from "./iko";
export { irisClusterManifest } from "./iris";
export type { IrisClusterArgs } from "./iris";

// Karmada fleets.
export { KarmadaControlPlane, KarmadaMember, FederatedIrisCluster, FleetSecret } from "./karmada";
export type {
  KarmadaControlPlaneArgs,
  KarmadaHandle,
  KarmadaHelmArgs,
  KarmadaMemberArgs,
  FederatedIrisClusterArgs,
  FleetSecretArgs,
} from "./karmada";

// TLS across a fleet.
export { FleetTls } from "./tls";
export type { FleetTlsArgs } from "./tls";
