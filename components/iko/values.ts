/**
 * Pure Helm values for the IKO chart (`iris-operator-amd`).
 */
import { mergeOver } from "../names/merge";

export interface IkoImage {
  /** Registry, e.g. `containers.intersystems.com`. */
  registry: string;
  /** Repository, e.g. `intersystems/iris-operator-amd`. */
  repository: string;
  /** Tag, e.g. `3.8.42.100`. */
  tag: string;
}

export interface IkoValuesArgs {
  /** Remote mode turns both admission webhooks off (they would sit on the wrong cluster). */
  remote: boolean;
  /** Operator image. @default the chart's own image */
  image?: IkoImage;
  /** Pull secrets for the operator image. @default none */
  imagePullSecrets?: string[];
  /** Operator log level (`--v`). @default the chart's (3) */
  logLevel?: number;
  /** Further values, merged last (a deep merge; lists are replaced). @default none */
  extraValues?: Record<string, unknown>;
}

/**
 * Deep-merges `override` into `base` (mappings merged, everything else replaced); pure. The one
 * merge, `mergeOver` (components/names/merge.ts), under the name this module has always exported.
 */
export const mergeValues: (
  base: Record<string, unknown>,
  override: Record<string, unknown>,
) => Record<string, unknown> = mergeOver;

/**
 * The IKO chart's admission webhook switches (`values.apiserver.<key>`, both on by default). A
 * remote operator must run with both off: ikoValues forces them, config validation rejects turning
 * one on, and the policy pack's `remote-iko-webhooks-off` checks the release.
 */
export const IKO_WEBHOOK_VALUES = ["enableMutatingWebhook", "enableValidatingWebhook"] as const;

/** `values.apiserver` with every IKO webhook off. */
function webhooksOff(): Record<string, boolean> {
  return Object.fromEntries(IKO_WEBHOOK_VALUES.map((k) => [k, false]));
}

export function ikoValues(args: IkoValuesArgs): Record<string, unknown> {
  let values: Record<string, unknown> = {};
  if (args.image) values.operator = { ...args.image };
  if (args.imagePullSecrets && args.imagePullSecrets.length > 0) {
    values.imagePullSecrets = args.imagePullSecrets.map((name) => ({ name }));
  }
  if (args.logLevel !== undefined) values.logLevel = args.logLevel;
  if (args.remote) values.apiserver = webhooksOff();
  if (args.extraValues) values = mergeValues(values, args.extraValues);
  if (args.remote) {
    // Remote mode keeps the webhooks off whatever extraValues says (config validation rejects it).
    values = mergeValues(values, { apiserver: webhooksOff() });
  }
  return values;
}
