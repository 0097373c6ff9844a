/**
 * Whether a live object holds what its manifest says: every field of the manifest, at the same
 * path, with the same value (fields the server adds, such as defaults, are allowed).
 */

/** Paths (`spec.versions[0].schema…`) where `actual` lacks or differs from a field of `expected`. */
export function fieldsNotIn(expected: unknown, actual: unknown, at = ""): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [at || "(root)"];
    return expected.flatMap((e, i) => fieldsNotIn(e, actual[i], `${at}[${i}]`));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return [at || "(root)"];
    const live = actual as Record<string, unknown>;
    return Object.entries(expected as Record<string, unknown>).flatMap(([k, v]) =>
      fieldsNotIn(v, live[k], at ? `${at}.${k}` : k),
    );
  }
  return expected === actual ? [] : [at || "(root)"];
}
