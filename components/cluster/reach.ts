/**
 * Reaching a cluster before anything is planned on it: a cluster that does not answer fails the
 * run at once, named by the stack's name for it and its source, instead of each of its objects
 * failing later with the Kubernetes provider's text (which names an address, never a cluster).
 */
import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";
import { KubeconfigError, kubeconfigCredentials } from "../kubeconfig";
import { ApiAnswer, apiRequest } from "./api";

/**
 * What is wrong with a cluster's answer to `GET /version`, as one message, or `undefined` when it
 * answered. `what` names the cluster (`describeCluster`); `check` says what to look at.
 */
export function unreachableMessage(
  what: string,
  server: string,
  answer: ApiAnswer,
  check: string,
  showServer = true,
): string | undefined {
  const at = showServer ? `the API server at ${server}` : "its API server (the address is in a secret kubeconfig)";
  if (answer.error !== undefined) {
    const cause = answer.error.startsWith(`${server}: `) ? answer.error.slice(server.length + 2) : answer.error;
    const why = showServer ? cause : hideAddress(cause, server);
    return (
      `${what}: ${at} did not answer (${why}), so nothing on this cluster can ` +
      `change until it does. ${check}, then run the command again`
    );
  }
  if (answer.status === 401) {
    return (
      `${what}: ${at} refused the stack's credentials (401 Unauthorized), so nothing on ` +
      `this cluster can change until it accepts them. Give the stack a current kubeconfig for it`
    );
  }
  return undefined;
}

/** `text` without the server's URL or its host:port (as Node's connect errors print it). */
function hideAddress(text: string, server: string): string {
  let host = "";
  try {
    const url = new URL(server);
    host = `${url.hostname.replace(/^\[(.*)\]$/, "$1")}:${url.port || "443"}`;
  } catch {
    // not a URL: only the text itself is hidden
  }
  let out = text.split(server).join("<server>");
  if (host) out = out.split(host).join("<server>");
  return out;
}

/** What to check when a kind cluster does not answer. */
export function kindReachHint(kindName: string): string {
  return (
    `Check that its node containers run (\`docker ps -a --filter label=io.x-k8s.kind.cluster=${kindName}\`; ` +
    `a paused one: \`docker unpause <container>\`; one deleted: \`npm run up\` recreates the cluster)`
  );
}

/** What to check when a cluster given by kubeconfig does not answer. */
export const KUBECONFIG_REACH_HINT =
  "Check that the cluster runs and that its kubeconfig's server is reachable from here";

/**
 * `kubeconfig` (text or a file path), passed on once its API server has been asked `GET /version`.
 * When it did not answer, the run gets an error with `unreachableMessage` (without the server's
 * address when `showServer` is false: a kubeconfig given as a secret) and fails; the provider's
 * own errors follow, and the other clusters' objects go ahead. A kubeconfig whose credentials
 * this check cannot use (an exec plugin) is passed on unchecked: the provider judges it. Under
 * unit-test mocks (no engine) nothing is reached.
 */
export function whenReachable(
  kubeconfig: pulumi.Input<string>,
  what: string,
  check: string,
  opts: { isPath?: boolean; showServer?: boolean; endRun?: boolean } = {},
): pulumi.Output<string> {
  const { isPath = false, showServer = true, endRun = false } = opts;
  return pulumi.output(kubeconfig).apply(async (value) => {
    if (pulumi.runtime.getEngine() === undefined) return value;
    const text = isPath ? fs.readFileSync(value, "utf8") : value;
    let credentials;
    try {
      credentials = kubeconfigCredentials(text, what, (p) => fs.readFileSync(p, "utf8"));
    } catch (err) {
      if (err instanceof KubeconfigError) return value;
      throw err;
    }
    const problem = unreachableMessage(
      what,
      credentials.server,
      await apiRequest(credentials, "/version"),
      check,
      showServer,
    );
    // `endRun` (a kind cluster: paused, stopped or deleted on this machine) ends the run at once;
    // otherwise an error beside the provider's own, and every other cluster's objects still go
    // ahead (a cluster given by kubeconfig that went down in the middle of an up).
    if (problem && endRun) throw new Error(problem);
    if (problem) pulumi.log.error(problem);
    return value;
  });
}
