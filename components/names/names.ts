/**
 * Name rules shared by every component: DNS-1123 labels (Kubernetes object and Karmada cluster
 * names), kind cluster names and Cilium ClusterMesh names and ids. Each check returns a problem
 * description (what is wrong and how to fix it) or `undefined`; callers attach the config key.
 */

import { checkWholeNumber } from "./numbers";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Longest kind cluster name that still gives a valid `<name>-control-plane` hostname (64 - 14). */
export const KIND_NAME_MAX = 50;
/** Cilium's `cluster.name` limit (ClusterMesh). */
export const CILIUM_NAME_MAX = 32;
/** Karmada's Cluster name limit: it prefixes `karmada-es-` to make the member's execution namespace. */
export const KARMADA_NAME_MAX = 48;

/** A DNS-1123 label: lowercase alphanumerics and '-', starting and ending alphanumeric, at most 63. */
export function checkDns1123Label(value: string): string | undefined {
  if (value.length === 0) return 'must not be empty; use a lowercase name such as "ikowork"';
  if (value.length > 63) return `is ${value.length} characters; a DNS-1123 label has at most 63`;
  if (!DNS1123_LABEL.test(value)) {
    return "is not a DNS-1123 label; use lowercase letters, digits and '-', starting and ending with a letter or digit";
  }
  return undefined;
}

/** A DNS-1123 subdomain (e.g. Secret names): labels joined by '.', at most 253. */
export function checkDns1123Subdomain(value: string): string | undefined {
  if (value.length === 0) return "must not be empty";
  if (value.length > 253) return `is ${value.length} characters; a DNS-1123 subdomain has at most 253`;
  if (!DNS1123_SUBDOMAIN.test(value)) {
    return "is not a DNS-1123 subdomain; use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit";
  }
  return undefined;
}

/**
 * A cluster name usable by kind, Kubernetes and Cilium ClusterMesh at once: Cilium's rule is the
 * strictest (at most 32 characters of `[a-z0-9-]`, alphanumeric at both ends), and kind adds the
 * `<name>-control-plane` hostname limit, which 32 already satisfies.
 */
export function checkClusterName(value: string): string | undefined {
  const label = checkDns1123Label(value);
  if (label) return label;
  if (value.length > CILIUM_NAME_MAX) {
    return `is ${value.length} characters; Cilium ClusterMesh allows at most ${CILIUM_NAME_MAX}, so shorten it`;
  }
  return undefined;
}

/** A Karmada member (Cluster object) name: a DNS-1123 label of at most 48 characters. */
export function checkKarmadaClusterName(value: string): string | undefined {
  const label = checkDns1123Label(value);
  if (label) return label;
  if (value.length > KARMADA_NAME_MAX) {
    return `is ${value.length} characters; Karmada allows at most ${KARMADA_NAME_MAX} (it names the member's execution namespace karmada-es-<name>), so shorten it`;
  }
  return undefined;
}

/** Cilium `cluster.id`: 1 to 255 (0 is reserved for "no ClusterMesh"). */
export const checkCiliumClusterId: (value: number) => string | undefined = checkWholeNumber(
  1,
  255,
  ", unique per cluster (Cilium ClusterMesh)",
);

/** The kube context / cluster entry name kind writes for a cluster: `kind-<name>`. */
export function kindContextName(clusterName: string): string {
  return `kind-${clusterName}`;
}

/** The control-plane container (and API server certificate) host name kind gives a cluster. */
export function kindControlPlaneHost(clusterName: string): string {
  return `${clusterName}-control-plane`;
}
