/**
 * One kubeconfig for pre-flight to probe (preflight.ts), with how to name it in a message: what a
 * cluster source whose clusters exist already (stacks/sources/kubeconfig) and the Karmada config
 * give it.
 */
import * as fs from "fs";
import { PROJECT } from "./config/project";

/** One kubeconfig to probe, with how to name it in a message. */
export interface EndpointCheck {
  /** Full config key, e.g. "iko-plus:clusters[0].kubeconfigPath". */
  key: string;
  /** The config value shown in the message (a path; never a secret's contents). */
  value: unknown;
  secret: boolean;
  /** The kubeconfig's text. */
  kubeconfig: string;
}

/** The check for a kubeconfig given as a file (`key` without the project prefix) or as a secret config key. */
export function kubeconfigCheck(
  key: string,
  path: string | undefined,
  secretKey: string | undefined,
  raw: Record<string, unknown>,
): EndpointCheck | undefined {
  if (path !== undefined)
    return { key: `${PROJECT}:${key}`, value: path, secret: false, kubeconfig: fs.readFileSync(path, "utf8") };
  if (secretKey !== undefined && typeof raw[secretKey] === "string")
    return { key: `${PROJECT}:${secretKey}`, value: undefined, secret: true, kubeconfig: raw[secretKey] as string };
  return undefined;
}
