/**
 * Pre-flight: before any resource is declared, every existing cluster the stack reaches through a
 * kubeconfig (a file or a secret) must answer on its API server's address. A dead endpoint is bad
 * input like any other: one message naming the key, the value and the fix, and nothing created
 * (without this check a preview against a dead cluster "succeeds" with unknowns, and `up` fails
 * halfway). Kind and GKE clusters are not probed: the stack creates them.
 */
import * as net from "net";
import { parseKubeconfig } from "../components/kubeconfig";
import { ClusterConfig } from "./config";
import type { EndpointCheck } from "./endpoint-check";
import { show } from "./problems";
import { clusterSource } from "./sources";

export { kubeconfigCheck } from "./endpoint-check";
export type { EndpointCheck } from "./endpoint-check";

/**
 * The checks for the existing clusters among `clusters`, as each one's source gives them (kind and
 * GKE clusters are created, not probed).
 */
export function clusterEndpointChecks(clusters: ClusterConfig[], raw: Record<string, unknown>): EndpointCheck[] {
  return clusters
    .map((c) => clusterSource(c.source).endpointCheck?.(c, raw))
    .filter((c): c is EndpointCheck => c !== undefined);
}

/** host and port of an API server URL (port 443 when not given). */
export function serverAddress(server: string): { host: string; port: number } {
  const url = new URL(server);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port: url.port ? Number(url.port) : url.protocol === "http:" ? 80 : 443 };
}

/**
 * The problem line for a kubeconfig whose server did not answer (`error` is the connect error's
 * code), in the config problems' format. A secret kubeconfig shows neither its value nor its server.
 */
export function deadEndpointProblem(check: EndpointCheck, server: string, error: string): string {
  const where = check.secret ? "a server" : server;
  return `${check.key}: ${show(check.value, check.secret)} points at ${where}, which does not answer (${error}); start the cluster, or fix the kubeconfig's server (\`kubectl cluster-info --kubeconfig <file>\` shows what answers)`;
}

/**
 * TCP-connects to each address at once; resolves to the error code per address, "" for one that
 * answered. In-process: the program awaits it before it declares anything.
 */
export function probeAddresses(targets: { host: string; port: number }[], timeoutMs = 5000): Promise<string[]> {
  return Promise.all(
    targets.map(
      (t) =>
        new Promise<string>((resolve) => {
          const socket = net.connect({ host: t.host, port: t.port });
          const done = (code: string) => {
            socket.destroy();
            resolve(code);
          };
          socket.setTimeout(timeoutMs, () => done("ETIMEDOUT"));
          socket.on("connect", () => done(""));
          socket.on("error", (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
        }),
    ),
  );
}

/** Probes every check's server; returns one problem line per server that did not answer. */
export async function endpointProblems(
  checks: EndpointCheck[],
  probe: typeof probeAddresses = probeAddresses,
): Promise<string[]> {
  if (checks.length === 0) return [];
  const servers = checks.map((c) => parseKubeconfig(c.kubeconfig).server);
  const codes = await probe(servers.map(serverAddress));
  return checks.flatMap((c, i) => (codes[i] ? [deadEndpointProblem(c, servers[i], codes[i])] : []));
}
