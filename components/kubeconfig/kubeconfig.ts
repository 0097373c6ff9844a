/**
 * Pure kubeconfig helpers: parse, summarise, rewrite the server, and mint token kubeconfigs.
 * Kubeconfigs are handled as YAML documents with the `yaml` library, never by string edits.
 * Error messages never include kubeconfig contents (they hold keys and tokens).
 */
import * as YAML from "yaml";

/** A kubeconfig problem; the message names what is wrong and the fix, never the secret content. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KubeconfigError";
  }
}

interface NamedCluster {
  name: string;
  cluster: {
    server?: string;
    "certificate-authority-data"?: string;
    "insecure-skip-tls-verify"?: boolean;
    [k: string]: unknown;
  };
}
interface NamedContext {
  name: string;
  context: { cluster?: string; user?: string; namespace?: string };
}
interface NamedUser {
  name: string;
  user: Record<string, unknown>;
}
interface KubeconfigDoc {
  apiVersion?: string;
  kind?: string;
  clusters?: NamedCluster[];
  contexts?: NamedContext[];
  users?: NamedUser[];
  "current-context"?: string;
  [k: string]: unknown;
}

/** What the rest of the program needs to know about a kubeconfig's current context. */
export interface KubeconfigSummary {
  /** The current context's name. */
  context: string;
  /** The cluster entry the current context points at. */
  cluster: string;
  /** The API server URL, e.g. `https://127.0.0.1:6443`. */
  server: string;
  /** Base64 PEM of the cluster CA, when embedded. */
  caData?: string;
  /** How the user authenticates: client certificate, bearer token, exec plugin or other. */
  auth: "client-certificate" | "token" | "exec" | "other";
}

function load(text: string, source: string): KubeconfigDoc {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch {
    throw new KubeconfigError(`${source} is not valid YAML; pass a kubeconfig as written by kind or kubectl`);
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
    throw new KubeconfigError(
      `${source} is not a kubeconfig (expected a YAML mapping with clusters, contexts and users)`,
    );
  }
  return doc as KubeconfigDoc;
}

function currentEntries(
  doc: KubeconfigDoc,
  source: string,
): { ctx: NamedContext; cluster: NamedCluster; user?: NamedUser } {
  const current = doc["current-context"];
  if (!current) {
    throw new KubeconfigError(
      `${source} has no current-context; set one with \`kubectl config use-context <name> --kubeconfig <file>\``,
    );
  }
  const ctx = (doc.contexts ?? []).find((c) => c?.name === current);
  if (!ctx) {
    throw new KubeconfigError(
      `${source} names current-context "${current}", but no context of that name exists; fix current-context`,
    );
  }
  const cluster = (doc.clusters ?? []).find((c) => c?.name === ctx.context?.cluster);
  if (!cluster || !cluster.cluster) {
    throw new KubeconfigError(
      `${source}: context "${current}" points at cluster "${ctx.context?.cluster ?? ""}", which is not in clusters; fix the context`,
    );
  }
  const user = (doc.users ?? []).find((u) => u?.name === ctx.context?.user);
  return { ctx, cluster, user };
}

/** Parses a kubeconfig and summarises its current context; throws KubeconfigError on any gap. */
export function parseKubeconfig(text: string, source = "the kubeconfig"): KubeconfigSummary {
  const doc = load(text, source);
  const { ctx, cluster, user } = currentEntries(doc, source);
  const server = cluster.cluster.server;
  if (!server || !/^https?:\/\/[^/\s]+/.test(server)) {
    throw new KubeconfigError(
      `${source}: cluster "${cluster.name}" has no valid server URL; set clusters[].cluster.server to https://<host>:<port>`,
    );
  }
  const u = user?.user ?? {};
  const auth =
    u["client-certificate-data"] || u["client-certificate"]
      ? "client-certificate"
      : u["token"] || u["tokenFile"]
        ? "token"
        : u["exec"]
          ? "exec"
          : "other";
  return {
    context: ctx.name,
    cluster: cluster.name,
    server,
    caData: cluster.cluster["certificate-authority-data"],
    auth,
  };
}

/**
 * Returns the kubeconfig with the current context's cluster `server` replaced (e.g. kind's
 * host port-forward → the control-plane address on the docker network, or a Karmada NodePort).
 * Every other field is kept as it was.
 */
export function rewriteServer(text: string, server: string, source = "the kubeconfig"): string {
  if (!/^https:\/\/[^/\s]+$/.test(server)) {
    throw new KubeconfigError(`server "${server}" is not an https://host:port URL`);
  }
  const doc = load(text, source);
  const { cluster } = currentEntries(doc, source);
  cluster.cluster.server = server;
  return YAML.stringify(doc);
}

/** Inputs of a bearer-token kubeconfig. */
export interface TokenKubeconfigArgs {
  /** Name used for the cluster, user and context entries. */
  name: string;
  /** API server URL as reachable by whoever uses the kubeconfig. */
  server: string;
  /** Base64 PEM CA bundle of the API server. */
  caData: string;
  /** The ServiceAccount (or other) bearer token, in plain text (not base64). */
  token: string;
  /** Default namespace of the context; omitted when not given. */
  namespace?: string;
}

/** Builds a kubeconfig that authenticates with a bearer token: no exec plugin, no files. */
export function tokenKubeconfig(args: TokenKubeconfigArgs): string {
  if (!args.token)
    throw new KubeconfigError(`the token for "${args.name}" is empty; wait for the ServiceAccount token to be issued`);
  if (!args.caData)
    throw new KubeconfigError(`the CA data for "${args.name}" is empty; pass the cluster's base64 CA bundle`);
  const context: NamedContext["context"] = { cluster: args.name, user: args.name };
  if (args.namespace) context.namespace = args.namespace;
  const doc: KubeconfigDoc = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: args.name, cluster: { server: args.server, "certificate-authority-data": args.caData } }],
    contexts: [{ name: args.name, context }],
    users: [{ name: args.name, user: { token: args.token } }],
    "current-context": args.name,
  };
  return YAML.stringify(doc);
}

/**
 * How to reach an API server with Node's https module alone (a dynamic provider's process): the
 * current context's server, CA and client certificate or token, all PEM/text (not base64).
 * Secret: hold it as a Pulumi secret.
 */
export interface KubeconfigCredentials {
  server: string;
  /** PEM CA bundle; left out when the kubeconfig embeds none (the system roots then). */
  ca?: string;
  /** Skip TLS verification (`insecure-skip-tls-verify: true`). */
  insecure: boolean;
  /** PEM client certificate and key. */
  cert?: string;
  key?: string;
  /** Bearer token. */
  token?: string;
}

/**
 * The credentials of a kubeconfig's current context, read from embedded data or the files it
 * names (`readFile` reads them, e.g. fs.readFileSync). Throws KubeconfigError naming the fix when
 * the user authenticates otherwise (exec plugins and auth providers need their own programs).
 */
export function kubeconfigCredentials(
  text: string,
  source: string,
  readFile: (path: string) => string,
): KubeconfigCredentials {
  const doc = load(text, source);
  const { cluster, user } = currentEntries(doc, source);
  const c = cluster.cluster;
  const u = (user?.user ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : undefined);
  const b64 = (v: unknown) => (str(v) !== undefined ? Buffer.from(v as string, "base64").toString("utf8") : undefined);
  const file = (v: unknown) => (str(v) !== undefined ? readFile(v as string) : undefined);
  const server = str(c.server);
  if (server === undefined) {
    throw new KubeconfigError(
      `${source}: cluster "${cluster.name}" has no valid server URL; set clusters[].cluster.server to https://<host>:<port>`,
    );
  }
  const out: KubeconfigCredentials = { server, insecure: c["insecure-skip-tls-verify"] === true };
  const ca = b64(c["certificate-authority-data"]) ?? file(c["certificate-authority"]);
  if (ca !== undefined) out.ca = ca;
  const cert = b64(u["client-certificate-data"]) ?? file(u["client-certificate"]);
  const key = b64(u["client-key-data"]) ?? file(u["client-key"]);
  const token = str(u["token"]) ?? file(u["tokenFile"])?.trim();
  if (cert !== undefined && key !== undefined) {
    out.cert = cert;
    out.key = key;
  } else if (token !== undefined) {
    out.token = token;
  } else {
    throw new KubeconfigError(
      `${source}: user "${user?.name ?? ""}" authenticates with neither a client certificate and key nor a token; ` +
        `give a kubeconfig with client-certificate-data/client-key-data or a token (exec plugins are not supported here)`,
    );
  }
  return out;
}
