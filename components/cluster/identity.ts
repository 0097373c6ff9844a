/**
 * What makes a cluster the same cluster: its identity, which every Kubernetes provider of the
 * product is given as `clusterIdentifier`. By that provider's contract, a provider (and
 * everything it manages) is replaced exactly when the identifier changes; so the identifier must
 * change when the cluster behind a name is a new one (a kind cluster replaced or recreated, a
 * kubeconfig pointing at another cluster) and stay when only the way to reach it changes (a new
 * client credential, a new API port after a restart).
 *
 * A cluster's API server CA is generated with the cluster and kept for its life, and it is in
 * every kubeconfig, so it is known without asking the cluster anything (a preview of a PR needs no
 * access to it). The identity is the cluster's name with the SHA-256 of its CA certificate. Only
 * Node built-ins: the kind provider computes it inside its dynamic provider process.
 */

/** How a cluster is named in messages: `work (kind cluster "ikowork")`, or just its source. */
export function describeCluster(source: string, role?: string): string {
  return role && role.length > 0 ? `${role} (${source})` : source;
}

/**
 * The first 16 hex digits of the SHA-256 of a base64 CA bundle (as kubeconfigs carry it), or
 * `undefined` without one. Whitespace in the base64 text does not change it.
 */
export function caFingerprint(caData: string | undefined): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto: typeof import("crypto") = require("crypto");
  const der = Buffer.from((caData ?? "").replace(/\s+/g, ""), "base64");
  if (der.length === 0) return undefined;
  return crypto.createHash("sha256").update(der).digest("hex").slice(0, 16);
}

/**
 * A cluster's identity: `<name>@ca-sha256:<fingerprint>`. A cluster reached without an embedded
 * CA (the system's roots, or TLS verification off) is identified by its server URL instead, so
 * pointing its kubeconfig at another address is taken as another cluster.
 */
export function clusterIdentity(name: string, caData: string | undefined, server: string): string {
  const fingerprint = caFingerprint(caData);
  return fingerprint ? `${name}@ca-sha256:${fingerprint}` : `${name}@${server}`;
}

/**
 * The identity of something served by a cluster (Karmada's API on its host): it is new exactly
 * when its host is. A host still identified by its bare name (state written before identities
 * existed) keeps `name` alone, so upgrading the product replaces nothing.
 */
export function hostedIdentity(name: string, host: { name: string; identity: string }): string {
  return host.identity === host.name ? name : `${name}@${host.identity}`;
}
