/**
 * Rule `no-plain-credentials`: no kubeconfig, token or private key in an input that is not a
 * Pulumi secret. A plain input lands in the state file and in `pulumi preview --diff` in clear
 * text; a secret input is encrypted with the stack's secrets provider.
 *
 * What counts as a credential (in any input of any resource, secret inputs excepted):
 * - a kubeconfig (YAML or JSON with `clusters`, `contexts` and `users`);
 * - a PEM private key, also base64-encoded (as in `client-key-data`);
 * - a JWT (bearer or ServiceAccount token: three base64url parts, the first two starting `eyJ`);
 * - in Kubernetes Secrets and ConfigMaps (`data`, `stringData`, `binaryData`) and in provider
 *   inputs: any non-empty value under a key named `token`, `kubeconfig`, `key`, `passphrase` or
 *   `password`, or ending in one of those (`accessToken`, `client-key`, `iris.key`).
 * The names and the data fields come from the one list of secrets (components/names/secrets.ts).
 */
import { SECRET_DATA_FIELDS, isSecretName } from "../../components/names/secrets";
import { describe, Leaf, leaves, mask, PolicyResource } from "./values";

export const NO_PLAIN_CREDENTIALS = "no-plain-credentials";

export type CredentialKind = "kubeconfig" | "private key" | "token" | "credential field";

const PEM_PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/;
const BASE64_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/=]{20,}/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}/;

function hasKey(text: string, key: string): boolean {
  return new RegExp(`(^|\\n)\\s*"?${key}"?\\s*:`).test(text);
}

/** Whether a text is a kubeconfig (YAML or JSON). */
export function isKubeconfig(text: string): boolean {
  return hasKey(text, "clusters") && hasKey(text, "contexts") && hasKey(text, "users");
}

/** Whether a text holds a PEM private key, in clear or base64-encoded. */
export function hasPrivateKey(text: string): boolean {
  if (PEM_PRIVATE_KEY.test(text)) return true;
  for (const m of text.match(BASE64_PEM) ?? []) {
    if (PEM_PRIVATE_KEY.test(Buffer.from(m, "base64").toString("latin1"))) return true;
  }
  return false;
}

/** Whether a text holds a JWT (a bearer or ServiceAccount token). */
export function hasJwt(text: string): boolean {
  return JWT.test(text);
}

/** Whether a field name says it holds a credential: a secret name of the list, or a name ending so. */
export function isCredentialKey(key: string): boolean {
  return isSecretName(key);
}

/** A one-line absolute, home or relative file path (a provider's `kubeconfig` may be a path). */
function isFilePath(value: string): boolean {
  return /^(~|\.{1,2})?\/[^\n]*$/.test(value);
}

/** The kind of credential a text is or holds, by content; undefined when none. */
export function credentialIn(text: string): CredentialKind | undefined {
  if (isKubeconfig(text)) return "kubeconfig";
  if (hasPrivateKey(text)) return "private key";
  if (hasJwt(text)) return "token";
  return undefined;
}

/**
 * Whether a leaf's field name is judged too: top-level provider inputs, and the entries of a
 * Kubernetes Secret's or ConfigMap's `data`, `stringData` or `binaryData`.
 */
const DATA_PATH = new RegExp(`^(${SECRET_DATA_FIELDS.join("|")})[.[]`);

function judgedByName(type: string, leaf: Leaf): boolean {
  if (type.startsWith("pulumi:providers:")) return !/[.[]/.test(leaf.path);
  return /^kubernetes:core\/v1:(Secret|ConfigMap)(Patch)?$/.test(type) && DATA_PATH.test(leaf.path);
}

const KIND_TEXT: Record<CredentialKind, string> = {
  kubeconfig: "a kubeconfig",
  "private key": "a private key",
  token: "a token (JWT)",
  "credential field": "a credential (by its field name)",
};

function finding(r: PolicyResource, leaf: Leaf & { value: string }, kind: CredentialKind): string {
  return (
    `${describe(r)}: input ${leaf.path} holds ${KIND_TEXT[kind]} in plain text, ${mask(leaf.value)}; ` +
    "make it a secret: wrap the value in pulumi.secret() (or read it with config.requireSecret), " +
    "or keep it in a Kubernetes Secret"
  );
}

/** Findings of `no-plain-credentials` for one resource's inputs (one per offending input). */
export function plainCredentials(r: PolicyResource): string[] {
  const out: string[] = [];
  for (const leaf of leaves(r.props)) {
    if (leaf.secret || typeof leaf.value !== "string" || leaf.value === "") continue;
    const text = leaf as Leaf & { value: string };
    const kind =
      credentialIn(text.value) ??
      (judgedByName(r.type, leaf) && isCredentialKey(leaf.key) && !isFilePath(text.value)
        ? "credential field"
        : undefined);
    if (kind) out.push(finding(r, text, kind));
  }
  return out;
}
