/**
 * The one deep merge for everything that lays a user's values over generated ones: the IKO and
 * Cilium Helm values (`extraValues`, `clusterMesh`) and an IrisCluster's `spec`.
 */

/**
 * A mapping the merge descends into: an object literal (or one made with a null prototype). A
 * list, a Pulumi `Output` or any other class instance is a value, never merged key by key: an
 * `Output`'s own fields are its machinery, not the values it will hold.
 */
export function isPlainMapping(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `over` merged into a copy of `base`: where both hold a mapping (`isPlainMapping`), key by key,
 * recursively; anything else in `over` (a value, a list, null, an `Output`) replaces what `base`
 * has. Neither input changes. The result keeps `base`'s type: what `over` adds is passed on as
 * given, for the chart's schema or the CRD to judge.
 */
export function mergeOver<T extends object>(base: T, over: object): T {
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(base));
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainMapping(current) && isPlainMapping(value) ? mergeOver(current, value) : value;
  }
  return out as T;
}
