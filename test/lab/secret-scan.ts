/**
 * Finds secrets in plaintext in text the CLI printed or stored (a transcript of runs and states):
 * PEM private keys (as text, or base64 as in a Secret's data or a kubeconfig), Kubernetes
 * ServiceAccount tokens (JWTs), kubeconfig credentials that are not masked, and values known to
 * be secret (what the tests set with `config set --secret`, the lab's client keys). Pulumi's own
 * encrypted secrets ("ciphertext") and "[secret]" never match.
 */

export interface Finding {
  kind: string;
  /** Line number (1-based) in the text. */
  line: number;
  /** The match with its middle masked, for the report. */
  excerpt: string;
}

/** base64 of a header, cut to whole 3-byte groups so it matches at the start of an encoded value. */
function base64Prefix(header: string): string {
  const bytes = Buffer.from(header);
  return bytes.subarray(0, bytes.length - (bytes.length % 3)).toString("base64");
}

const PRIVATE_KEY_HEADERS = [
  "-----BEGIN PRIVATE KEY-----",
  "-----BEGIN RSA PRIVATE KEY-----",
  "-----BEGIN EC PRIVATE KEY-----",
  "-----BEGIN ENCRYPTED PRIVATE KEY-----",
];

const PATTERNS: { kind: string; re: RegExp }[] = [
  { kind: "PEM private key", re: /-----BEGIN [A-Z ]*PRIVATE KEY-----/g },
  ...PRIVATE_KEY_HEADERS.map((h) => ({
    kind: "base64 PEM private key",
    re: new RegExp(
      base64Prefix(h).replace(/[+/]/g, (c) => `\\${c}`),
      "g",
    ),
  })),
  { kind: "ServiceAccount token (JWT)", re: /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  { kind: "kubeconfig client key", re: /client-key-data:\s*[A-Za-z0-9+/=]{16,}/g },
  { kind: "kubeconfig token", re: /\btoken:\s*["']?[A-Za-z0-9._~+/=-]{16,}/g },
];

function mask(s: string): string {
  return s.length <= 12 ? "****" : `${s.slice(0, 6)}…${s.slice(-4)}`;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Every plaintext secret in `text`: pattern matches and occurrences of `known` values. */
export function findPlaintextSecrets(text: string, known: string[] = []): Finding[] {
  const out: Finding[] = [];
  for (const { kind, re } of PATTERNS) {
    for (const m of text.matchAll(re)) out.push({ kind, line: lineOf(text, m.index ?? 0), excerpt: mask(m[0]) });
  }
  for (const value of new Set(known)) {
    if (value.length < 8) continue;
    // As given, and base64-encoded as a Secret's data would hold it.
    for (const [kind, form] of [
      ["known secret value", value],
      ["known secret value (base64)", Buffer.from(value).toString("base64")],
    ]) {
      for (let i = text.indexOf(form); i >= 0; i = text.indexOf(form, i + form.length)) {
        out.push({ kind, line: lineOf(text, i), excerpt: mask(form) });
      }
    }
  }
  return out.sort((a, b) => a.line - b.line || a.kind.localeCompare(b.kind));
}
