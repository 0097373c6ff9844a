/**
 * Pure checks the kind provider runs on what kind, docker and kubectl print: which nodes are
 * Ready, why a node is not, and what a failed `kind create cluster` means for the user. Each
 * message names the cluster, the cause and the fix. No imports: the provider is serialized.
 */

/** kind's known issue on inotify limits, and the sysctl that fixes it. */
export const INOTIFY_HELP =
  "the host's inotify limits are too low for this many kind nodes (kind's known issue: " +
  "https://kind.sigs.k8s.io/docs/user/known-issues/#pod-errors-due-to-too-many-open-files); raise them with " +
  "`sudo sysctl -w fs.inotify.max_user_instances=8192 fs.inotify.max_user_watches=1048576` (persist them in /etc/sysctl.d/), then run `pulumi up` again";

export interface NodeReadiness {
  /** Nodes whose Ready condition is True. */
  ready: string[];
  /**
   * Nodes up but waiting for a CNI (Ready=False, the network plugin not ready), counted apart
   * only when the cluster has no default CNI (`cniPending`): Cilium makes them Ready later.
   */
  awaitingCni: string[];
  /** Expected nodes that are not Ready, with what the API says (or "not registered"). */
  notReady: { name: string; reason: string }[];
}

/** The kubelet's Ready message while no CNI config exists on the node. */
const NO_CNI = /NetworkPluginNotReady|cni plugin not initialized|no networks found in \/etc\/cni\/net\.d/i;

interface NodeList {
  items?: {
    metadata?: { name?: string };
    status?: { conditions?: { type?: string; status?: string; reason?: string; message?: string }[] };
  }[];
}

/**
 * Readiness of the `expected` nodes in the output of `kubectl get nodes -o json`. With
 * `cniPending` (kind's default CNI off), a node that waits only for its network plugin is up.
 */
export function nodeReadiness(
  nodesJson: string,
  expected: string[],
  opts: { cniPending?: boolean } = {},
): NodeReadiness {
  let list: NodeList;
  try {
    list = JSON.parse(nodesJson) as NodeList;
  } catch {
    list = {};
  }
  const byName = new Map((list.items ?? []).map((n) => [n.metadata?.name ?? "", n]));
  const out: NodeReadiness = { ready: [], awaitingCni: [], notReady: [] };
  for (const name of expected) {
    const node = byName.get(name);
    if (!node) {
      out.notReady.push({ name, reason: "not registered with the API server" });
      continue;
    }
    const cond = (node.status?.conditions ?? []).find((c) => c.type === "Ready");
    if (cond?.status === "True") out.ready.push(name);
    else if (opts.cniPending && cond?.status === "False" && NO_CNI.test(cond.message ?? "")) out.awaitingCni.push(name);
    else
      out.notReady.push({
        name,
        reason: cond
          ? `Ready=${cond.status ?? "Unknown"}${cond.message ? ` (${cond.message})` : ""}`
          : "no Ready condition yet",
      });
  }
  return out;
}

/** The cause a kubelet journal shows for a node that does not come up, or undefined. */
export function kubeletFailure(journal: string): string | undefined {
  const inotify = journal
    .split("\n")
    .find((l) => /inotify_init|inotify.*too many open files|too many open files.*inotify/i.test(l));
  if (inotify) return `its kubelet failed with "${inotify.trim().slice(0, 200)}": ${INOTIFY_HELP}`;
  return undefined;
}

/** One clear message for a `kind create cluster` that failed with this stderr. */
export function createFailureMessage(name: string, stderr: string, nodeImage: string | undefined): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const error = lines.filter((l) => /^ERROR:/.test(l)).join(" ") || lines.slice(-3).join(" ");
  const detail = error.slice(0, 600);
  const prefix = `kind cluster "${name}":`;
  if (/failed to pull image|image .* not present locally|pull access denied|manifest unknown/i.test(stderr)) {
    return (
      `${prefix} nodeImage ${JSON.stringify(nodeImage ?? "")} is not in the Docker engine and cannot be pulled (${detail}); ` +
      "build or load that image (`docker image ls` lists what the engine has), or set nodeImage to one it has"
    );
  }
  if (/node\(s\) already exist for a cluster with the name/.test(stderr)) {
    return (
      `${prefix} a kind cluster of that name already exists outside this stack (${detail}); ` +
      `delete it with \`kind delete cluster --name ${name}\` or give this cluster another name`
    );
  }
  if (/port is already allocated|address already in use/i.test(stderr)) {
    return `${prefix} a host port of extraPortMappings is already in use (${detail}); free the port or map another hostPort`;
  }
  if (
    /invalid configuration|is not a valid|invalid (pod|service) subnet|invalid kubeProxyMode|port mapping/i.test(stderr)
  ) {
    return `${prefix} kind refused its config (${detail}); fix the field kind names (the config is this component's args)`;
  }
  return `${prefix} kind create cluster --name ${name} failed: ${detail}`;
}

/** Whether a kind config turns kind's default CNI off (`networking.disableDefaultCNI: true`). */
export function configDisablesCni(configYaml: string): boolean {
  return /^\s*disableDefaultCNI:\s*true\s*$/m.test(configYaml);
}

/** The node image a kind config YAML names first (for messages). */
export function configNodeImage(configYaml: string): string | undefined {
  const m = /^\s*(?:-\s+)?image:\s*("?)([^"\s]+)\1\s*$/m.exec(configYaml);
  return m ? m[2] : undefined;
}
