/**
 * Image reference and CIDR checks, shared by config validation and components.
 */

const IMAGE_REF = /^(?:(?<host>[a-zA-Z0-9.-]+(?::[0-9]+)?)\/)?(?<path>[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)(?::(?<tag>[\w][\w.-]{0,127}))?(?:@(?<digest>sha256:[a-f0-9]{64}))?$/;

/** Checks an image reference: well-formed, pinned by a tag other than `latest` or by a digest. */
export function checkImageRef(ref: string): string | undefined {
  const m = IMAGE_REF.exec(ref);
  if (!m || !m.groups) return "is not a valid image reference; use <registry>/<repository>:<tag>, e.g. containers.intersystems.com/intersystems/iris-community:2025.1";
  const { tag, digest } = m.groups;
  if (!tag && !digest) return "has no tag; pin a version, e.g. \":2025.1\" (an untagged image means latest)";
  if (tag === "latest" && !digest) return "uses the tag \"latest\"; pin a version, e.g. \":2025.1\"";
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
  return ((x.network & mask) >>> 0) === ((y.network & mask) >>> 0);
}
