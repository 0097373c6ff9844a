/**
 * Shared by the secret edge tests (secrets-*.test.ts): a distinctive plaintext per entry of the
 * one list of secrets (components/names/secrets.ts), and a value of the entry's kind that carries
 * it, so a test can assert the sentinel never shows where the value could.
 */
import { SECRETS, SecretEntry } from "../../components/names/secrets";

/** The entry's plaintext sentinel: unique per entry, and found in no other text of the program. */
export function sentinelOf(e: SecretEntry): string {
  return `SNTL${e.place.replace(/\W/g, "")}${e.path.replace(/\W/g, "")}Q7x`;
}

/**
 * A kubeconfig that parses, its token the sentinel, which its first line names too: a message
 * that shows only the start of a value (shortened) still shows it.
 */
export function kubeconfigWith(sentinel: string, server = "https://10.9.8.7:6443"): string {
  return [
    `# ${sentinel}`,
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: c",
    "  cluster:",
    `    server: ${server}`,
    "contexts:",
    "- name: c",
    "  context:",
    "    cluster: c",
    "    user: u",
    "current-context: c",
    "users:",
    "- name: u",
    "  user:",
    `    token: ${sentinel}`,
    "",
  ].join("\n");
}

/**
 * A value of the entry's kind carrying its sentinel, shaped as the real thing: a kubeconfig, an
 * object of Secret data, a license key file, a PEM private key block, or the text (tokens,
 * passphrases).
 */
export function sampleOf(e: SecretEntry): string | Record<string, string> {
  const s = sentinelOf(e);
  if (e.holds === "kubeconfig") return kubeconfigWith(s);
  if (e.holds === "secret data") return { password: s };
  if (e.holds === "license key") return `[ConfigFile]\nFileType=License\nAuthorizationKey=${s}\n`;
  if (e.holds === "private key") return `-----BEGIN PRIVATE KEY-----\n${s}\n-----END PRIVATE KEY-----\n`;
  return s;
}

/** Every sentinel of the list, to look for in a text. */
export const ALL_SENTINELS: readonly string[] = SECRETS.map(sentinelOf);

/** The sentinels that a text shows (none, when the edge holds). */
export function shownSentinels(text: string): string[] {
  return ALL_SENTINELS.filter((s) => text.includes(s));
}
