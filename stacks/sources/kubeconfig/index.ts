/**
 * Source `kubeconfig`: a cluster that exists already (ExistingCluster), reached through a
 * kubeconfig file (`<key>.kubeconfigPath`) or a secret config key; implied when an entry gives
 * either.
 */
import { ExistingCluster, checkExistingClusterArgs, kubeconfigTextProblem } from "../../../components/cluster";
import type { Reader } from "../../config/read";
import { kubeconfigCheck } from "../../endpoint-check";
import type { ClusterSource } from "../source";

/** Checks kubeconfig text (never shown) and reports its problem under `key`. */
export function checkKubeconfigText(r: Reader, key: string, text: string, secret: boolean, shown: unknown): void {
  const problem = kubeconfigTextProblem(text);
  if (problem) r.problems.add(key, shown, problem, { secret });
}

/** What the kubeconfig source's entry keys give every cluster config. */
export interface KubeconfigEntry {
  /** A kubeconfig file (`<key>.kubeconfigPath`; source kubeconfig). Default: none. */
  kubeconfigPath?: string;
  /** The secret config key holding the kubeconfig contents (source kubeconfig). Default: none. */
  kubeconfigSecretKey?: string;
}

export const kubeconfigSource: ClusterSource<KubeconfigEntry> = {
  name: "kubeconfig",
  traits: {},
  entryKeys: ["kubeconfigPath"],
  impliedBy: ({ entry, secretKubeconfig }) => secretKubeconfig !== undefined || entry.kubeconfigPath !== undefined,
  readEntry(r, { key, entry, source, secretKubeconfig, secretKey }) {
    const kubeconfigPath = r.string(`${key}.kubeconfigPath`, entry.kubeconfigPath);
    if (source === "kubeconfig") {
      // ExistingCluster's rules (one source, a usable file); with neither, the config's own fix.
      const problems = checkExistingClusterArgs({ kubeconfig: secretKubeconfig, kubeconfigPath });
      if (problems.some(([, v]) => v === undefined)) {
        r.problems.add(
          `${key}.source`,
          source,
          `needs a kubeconfig; set ${key}.kubeconfigPath or \`pulumi config set --secret ${secretKey} "$(cat <file>)"\``,
        );
      } else {
        r.componentProblems(problems, { kubeconfigPath: `${key}.kubeconfigPath` });
      }
      if (kubeconfigPath === undefined && secretKubeconfig !== undefined)
        checkKubeconfigText(r, secretKey, secretKubeconfig, true, secretKubeconfig);
      return { kubeconfigPath, kubeconfigSecretKey: secretKubeconfig !== undefined ? secretKey : undefined };
    }
    if (kubeconfigPath !== undefined) {
      r.problems.add(
        `${key}.kubeconfigPath`,
        kubeconfigPath,
        `is set but ${key}.source is "${source}"; set ${key}.source to "kubeconfig" or remove the path`,
      );
    }
    return { kubeconfigPath, kubeconfigSecretKey: undefined };
  },
  endpointCheck: (c, raw) => kubeconfigCheck(`${c.key}.kubeconfigPath`, c.kubeconfigPath, c.kubeconfigSecretKey, raw),
  declare: (c, env) =>
    new ExistingCluster(
      c.name,
      c.kubeconfigPath !== undefined
        ? { kubeconfigPath: c.kubeconfigPath, role: c.key }
        : { kubeconfig: env.secrets[c.kubeconfigSecretKey as string], role: c.key },
    ),
};
