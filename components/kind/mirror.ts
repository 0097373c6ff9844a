/**
 * Registry mirrors for kind clusters (the air-gapped setup): every image of the listed upstream
 * registries is pulled from one local OCI registry instead. Pure functions; the provider writes
 * the files they return into every node.
 *
 * Layout on the mirror: the image `<registry>/<repository>:<tag>` is the repository
 * `<registry>/<repository>` on the mirror (e.g. `docker.io/library/busybox:1.36` is pushed as
 * `<mirror>/docker.io/library/busybox:1.36`), so images of different registries never collide.
 * containerd maps each registry to that path with a `hosts.toml` using `override_path`.
 * @see https://github.com/containerd/containerd/blob/main/docs/hosts.md
 */

/** Registries mirrored unless `registries` is given. */
export const DEFAULT_MIRRORED_REGISTRIES: readonly string[] = [
  "docker.io",
  "registry.k8s.io",
  "quay.io",
  "ghcr.io",
  "containers.intersystems.com",
];

/** Where containerd looks for per-registry host files in a kind node. */
export const CONTAINERD_CERTS_DIR = "/etc/containerd/certs.d";

export interface RegistryMirror {
  /**
   * The mirror as kind nodes reach it: `http://<host>[:<port>]` or `https://…`, no path (e.g.
   * `http://iko-plus-registry:5000`, a registry container on the `kind` Docker network).
   */
  endpoint: string;
  /** Upstream registries pulled through the mirror. @default DEFAULT_MIRRORED_REGISTRIES */
  registries?: string[];
}

/** A file the provider writes into every node of a cluster. */
export interface NodeFile {
  path: string;
  content: string;
}

const ENDPOINT = /^https?:\/\/[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?(:[0-9]{1,5})?$/;
const REGISTRY_HOST = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(:[0-9]{1,5})?$/;

/** Problems of a mirror, as `[field, value, what is wrong and how to fix it]`; empty when valid. */
export function checkRegistryMirror(mirror: RegistryMirror): [string, unknown, string][] {
  const problems: [string, unknown, string][] = [];
  if (!ENDPOINT.test(mirror.endpoint)) {
    problems.push([
      "endpoint",
      mirror.endpoint,
      'is not an http:// or https:// address with a host and an optional port and no path; use e.g. "http://iko-plus-registry:5000"',
    ]);
  }
  const registries = mirror.registries ?? [...DEFAULT_MIRRORED_REGISTRIES];
  if (registries.length === 0)
    problems.push([
      "registries",
      registries,
      'is empty; list the registries to mirror, e.g. ["docker.io"], or leave it out',
    ]);
  const seen = new Set<string>();
  for (const r of registries) {
    if (!REGISTRY_HOST.test(r)) {
      problems.push([
        "registries",
        r,
        'is not a registry host name (lowercase, optional :port, no scheme or path); use e.g. "docker.io"',
      ]);
    } else if (seen.has(r)) {
      problems.push(["registries", r, "is listed twice; list each registry once"]);
    }
    seen.add(r);
  }
  return problems;
}

/** The upstream server containerd falls back to for a registry (Docker Hub's API host for docker.io). */
export function upstreamServer(registry: string): string {
  return registry === "docker.io" ? "https://registry-1.docker.io" : `https://${registry}`;
}

/** `hosts.toml` for one registry: pull and resolve through the mirror under `/v2/<registry>`. */
export function mirrorHostsToml(registry: string, endpoint: string): string {
  return [
    `# Written by iko-plus: pull ${registry} images from the mirror ${endpoint}.`,
    `server = "${upstreamServer(registry)}"`,
    "",
    `[host."${endpoint}/v2/${registry}"]`,
    '  capabilities = ["pull", "resolve"]',
    "  override_path = true",
    "",
  ].join("\n");
}

/** The host files of a mirror, one per registry, sorted by path. */
export function mirrorNodeFiles(mirror: RegistryMirror): NodeFile[] {
  const registries = [...(mirror.registries ?? DEFAULT_MIRRORED_REGISTRIES)].sort();
  return registries.map((r) => ({
    path: `${CONTAINERD_CERTS_DIR}/${r}/hosts.toml`,
    content: mirrorHostsToml(r, mirror.endpoint),
  }));
}

/** The containerd config patch (kind `containerdConfigPatches`) that turns on per-registry host files. */
export function mirrorContainerdPatch(): string {
  return `[plugins."io.containerd.grpc.v1.cri".registry]\n  config_path = "${CONTAINERD_CERTS_DIR}"\n`;
}

/** Where an image is found on the mirror, following the layout above (for pushing and docs). */
export function mirroredImageRef(image: string, mirrorHost: string): string {
  const slash = image.indexOf("/");
  const first = slash < 0 ? "" : image.slice(0, slash);
  const hasRegistry = first.includes(".") || first.includes(":") || first === "localhost";
  const registry = hasRegistry ? first : "docker.io";
  let repo = hasRegistry ? image.slice(slash + 1) : image;
  if (registry === "docker.io" && !repo.includes("/")) repo = `library/${repo}`;
  return `${mirrorHost}/${registry}/${repo}`;
}
