/** A GKE cluster's settings (`<key>.gke`): read by the `gke` source (stacks/sources/gke). */
export { GKE_KEYS, readGke } from "../sources/gke/config";
export type { GkeConfig } from "../sources/gke/config";
