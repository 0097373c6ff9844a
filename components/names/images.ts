/**
 * Image reference and CIDR checks, shared by config validation, components and the policy pack.
 * Each image rule is written here once: how a reference splits, when it is pinned, and when it is
 * a licensed IRIS image.
 */

const IMAGE_REF =
  /^(?:(?<host>[a-zA-Z0-9.-]+(?::[0-9]+)?)\/)?(?<path>[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)(?::(?<tag>[\w][\w.-]{0,127}))?(?:@(?<digest>sha256:[a-f0-9]{64}))?$/;

/** The parts of an image reference: `<name>[:<tag>][@<digest>]`, `name` holding any registry. */
export interface ImageRefParts {
  /** Registry and repository, e.g. `registry.local:5000/team/app`. */
  name: string;
  /** The tag, when the reference has a `:` after its last `/` (may be empty: `app:`). */
  tag?: string;
  /** The digest after `@`, e.g. `sha256:…`. */
  digest?: string;
}

/**
 * Splits an image reference into name, tag and digest without judging it (a malformed reference
 * still splits): the digest is what follows the first `@`, the tag what follows the `:` after the
 * last `/` before it (a registry port such as `:5000` is not a tag).
 */
export function splitImageRef(ref: string): ImageRefParts {
  const at = ref.indexOf("@");
  const beforeDigest = at < 0 ? ref : ref.slice(0, at);
  const digest = at < 0 ? undefined : ref.slice(at + 1);
  const colon = beforeDigest.indexOf(":", beforeDigest.lastIndexOf("/") + 1);
  const name = colon < 0 ? beforeDigest : beforeDigest.slice(0, colon);
  const tag = colon < 0 ? undefined : beforeDigest.slice(colon + 1);
  const parts: ImageRefParts = { name };
  if (tag !== undefined) parts.tag = tag;
  if (digest !== undefined) parts.digest = digest;
  return parts;
}

/**
 * Splits `registry/repository:tag[@digest]` into a Helm chart's three image values (the digest,
 * when given, stays with the tag: charts render `<registry>/<repository>:<tag>`), or undefined
 * when the reference has no registry part or no tag.
 */
export function chartImageValues(ref: string): { registry: string; repository: string; tag: string } | undefined {
  const { name, tag, digest } = splitImageRef(ref);
  const slash = name.indexOf("/");
  if (slash < 0 || tag === undefined) return undefined;
  return {
    registry: name.slice(0, slash),
    repository: name.slice(slash + 1),
    tag: digest === undefined ? tag : `${tag}@${digest}`,
  };
}

export type ImagePinProblem = "untagged" | "latest";

/** Whether a reference is pinned: by a digest, or by a tag other than `latest` (an empty tag is none). */
export function imagePinProblem(ref: string): ImagePinProblem | undefined {
  return pinProblemOf(splitImageRef(ref));
}

/** The pinning rule on a tag and digest (also Helm `{repository, tag}` values, which have no digest). */
export function pinProblemOf({ tag, digest }: { tag?: string; digest?: string }): ImagePinProblem | undefined {
  if (digest !== undefined) return undefined;
  if (tag === undefined || tag === "") return "untagged";
  return tag === "latest" ? "latest" : undefined;
}

/**
 * Whether an image is a licensed InterSystems IRIS image, which needs a license key: repository
 * `intersystems/iris` or `intersystems/irishealth` in any registry, by tag, digest or both (the
 * `-community` images and other repositories need none).
 */
export function isLicensedIrisImage(ref: string): boolean {
  return /(^|\/)intersystems\/(iris|irishealth)$/.test(splitImageRef(ref).name);
}

/** Checks an image reference: well-formed, pinned by a tag other than `latest` or by a digest. */
export function checkImageRef(ref: string): string | undefined {
  if (!IMAGE_REF.test(ref))
    return "is not a valid image reference; use <registry>/<repository>:<tag>, e.g. containers.intersystems.com/intersystems/iris-community:2025.1";
  const problem = imagePinProblem(ref);
  if (problem === "untagged") return 'has no tag; pin a version, e.g. ":2025.1" (an untagged image means latest)';
  if (problem === "latest") return 'uses the tag "latest"; pin a version, e.g. ":2025.1"';
  return undefined;
}

/** Parses `a.b.c.d/n` into a numeric network and prefix, or undefined when malformed. */
export function parseCidr(cidr: string): { network: number; prefix: number } | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!m) return undefined;
  const octets = m.slice(1, 5).map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  const addr = ((octets[0] << 24) >>> 0) + (octets[1] << 16) + (octets[2] << 8) + octets[3];
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { network: (addr & mask) >>> 0, prefix };
}

/** Checks an IPv4 CIDR. */
export function checkCidr(cidr: string): string | undefined {
  return parseCidr(cidr) ? undefined : "is not an IPv4 CIDR; use a.b.c.d/n, e.g. 10.244.0.0/16";
}

/** Whether two IPv4 CIDRs share any address. */
export function cidrsOverlap(a: string, b: string): boolean {
  const x = parseCidr(a);
  const y = parseCidr(b);
  if (!x || !y) return false;
  const prefix = Math.min(x.prefix, y.prefix);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (x.network & mask) >>> 0 === (y.network & mask) >>> 0;
}
