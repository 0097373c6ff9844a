/**
 * Config problems: each names the key, the bad value and the fix. All problems of a config are
 * collected and reported together, before any resource is declared.
 */

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(
      `invalid configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n` +
        problems.map((p) => `  - ${p}`).join("\n"),
    );
    this.name = "ConfigError";
  }
}

/** Shows a config value in a message; secret values are never shown. */
export function show(value: unknown, secret = false): string {
  if (secret) return "[secret]";
  if (value === undefined) return "(not set)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** The top-level config key of a key path: `home` of `home.cilium.clusterId`, `clusters` of `clusters[0].name`. */
export function topLevelKey(key: string): string {
  return key.split(/[.[]/)[0];
}

export class Problems {
  readonly list: string[] = [];
  private readonly keys = new Set<string>();
  /**
   * `isSecretKey` says which top-level config keys hold a secret: a problem under one never shows
   * its value (Pulumi stores a key whose part was set with `--secret --path` as a secret whole).
   */
  constructor(
    private readonly namespace: string,
    private readonly isSecretKey: (topLevel: string) => boolean = () => false,
  ) {}

  /** Whether values under `key` are secret: its top-level key is stored as a secret. */
  secret(key: string): boolean {
    return this.isSecretKey(topLevelKey(key));
  }

  /** Whether a problem is recorded under `key`. */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Records one problem: `<ns>:<key>: <value> <what is wrong>; <fix>` (the value masked when secret). */
  add(key: string, value: unknown, problem: string, opts: { secret?: boolean } = {}): void {
    this.keys.add(key);
    const secret = opts.secret === true || this.secret(key);
    this.list.push(`${this.namespace}:${key}: ${show(value, secret)} ${problem}`);
  }

  /** Throws one ConfigError holding every problem, if there is any. */
  throwIfAny(): void {
    if (this.list.length > 0) throw new ConfigError(this.list);
  }
}
