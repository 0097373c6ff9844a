/**
 * A Pulumi dynamic provider over the kind CLI. kind cannot update a cluster, so every input
 * change replaces it. Kubeconfigs go through a private temporary directory that is always
 * removed: nothing is written to the working directory or to ~/.kube/config.
 *
 * This module is serialised into the dynamic provider process, so it only uses Node built-ins.
 */
import * as pulumi from "@pulumi/pulumi";
import { configDisablesCni, configNodeImage, createFailureMessage, kubeletFailure, nodeReadiness } from "./diagnose";
import type { NodeFile } from "./mirror";
import { clusterIdentity } from "../cluster/identity";

export interface KindClusterInputs {
  /** kind cluster name. */
  name: string;
  /** The kind config YAML (from `kindConfigYaml`). */
  configYaml: string;
  /** The kind executable (name on PATH or path). */
  kindCommand: string;
  /** The docker executable kind drives (name on PATH or path). */
  dockerCommand: string;
  /** Files written into every node right after `kind create cluster` (registry host files). */
  nodeFiles: NodeFile[];
  /** How long create waits for every node to be Ready before it fails and deletes the cluster. */
  readyTimeoutSeconds: number;
}

export interface KindClusterState extends KindClusterInputs {
  /** External kubeconfig (host port-forward on 127.0.0.1). Secret. */
  kubeconfig: string;
  /** Internal kubeconfig (`<name>-control-plane:6443` on the docker network). Secret. */
  peerKubeconfig: string;
  /**
   * The cluster's identity (`clusterIdentity`: its name and its CA's fingerprint), recorded when
   * it is created. Absent from state written before identities existed.
   */
  identity?: string;
}

/** The first cluster's `certificate-authority-data` of a kubeconfig as kind writes it. */
export function kindCaData(kubeconfig: string): string | undefined {
  return /^\s*certificate-authority-data:\s*(\S+)\s*$/m.exec(kubeconfig)?.[1];
}

/** The identity of a kind cluster, from its external kubeconfig. */
export function kindClusterIdentity(name: string, kubeconfig: string): string {
  const server = /^\s*server:\s*(\S+)\s*$/m.exec(kubeconfig)?.[1] ?? "";
  return clusterIdentity(`kind:${name}`, kindCaData(kubeconfig), server);
}

/** Inputs whose change replaces the cluster; the executables and the timeout can change freely. */
export const REPLACING_INPUTS: (keyof KindClusterInputs)[] = ["name", "configYaml", "nodeFiles"];

interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a CLI, turning "not installed" into one clear error that names the fix. Asynchronous: all
 * dynamic resources of a program share one provider process, so a blocking call would make a
 * second cluster wait for the first one's whole create.
 */
function run(command: string, args: string[], what: string, input?: string): Promise<RunResult> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cp: typeof import("child_process") = require("child_process");
  return new Promise((resolve, reject) => {
    const proc = cp.spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    proc.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    proc.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    proc.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "EACCES") {
        reject(new Error(`${what}: "${command}" was not found or is not executable. ` + installHint(what)));
      } else {
        reject(new Error(`${what}: running "${command}" failed: ${err.message}`));
      }
    });
    proc.on("close", (code) => resolve({ status: code ?? 1, stdout, stderr }));
    // A process that exits before reading stdin closes the pipe; that is not an error here.
    proc.stdin.on("error", () => undefined);
    proc.stdin.end(input ?? "");
  });
}

/** The last words of a CLI's stderr for a message: trimmed, at most `max` characters, no final period. */
function tail(stderr: string, max = 400): string {
  return stderr
    .trim()
    .slice(-max)
    .replace(/[.\s]+$/, "");
}

function installHint(what: string): string {
  return what === "docker"
    ? "kind clusters need a Docker engine: install Docker and start it, or use existing clusters by kubeconfig (the lab stacks do)."
    : "Install kind v0.30.0 (https://kind.sigs.k8s.io/docs/user/quick-start/#installation) and put it on PATH (a program of your own can instead give KindCluster's kindCommand the binary's path).";
}

/** Fails unless docker answers and kind runs; called before any create. */
export async function preflight(inputs: Pick<KindClusterInputs, "kindCommand" | "dockerCommand">): Promise<void> {
  const docker = await run(inputs.dockerCommand, ["info", "--format", "{{.ServerVersion}}"], "docker");
  if (docker.status !== 0) {
    throw new Error(
      `docker: "${inputs.dockerCommand} info" failed (is the Docker engine running?): ${tail(docker.stderr)}; ` +
        installHint("docker"),
    );
  }
  const kind = await run(inputs.kindCommand, ["version"], "kind");
  if (kind.status !== 0) throw new Error(`kind: "${inputs.kindCommand} version" failed: ${tail(kind.stderr)}`);
}

async function listClusters(kindCommand: string): Promise<string[]> {
  const res = await run(kindCommand, ["get", "clusters"], "kind");
  if (res.status !== 0) throw new Error(`kind get clusters failed: ${tail(res.stderr)}`);
  return res.stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** Reads a kubeconfig from kind; the output is secret and never goes into an error message. */
async function getKubeconfig(kindCommand: string, name: string, internal: boolean): Promise<string> {
  const args = ["get", "kubeconfig", "--name", name];
  if (internal) args.push("--internal");
  const res = await run(kindCommand, args, "kind");
  if (res.status !== 0)
    throw new Error(`kind get kubeconfig --name ${name}${internal ? " --internal" : ""} failed: ${tail(res.stderr)}`);
  return res.stdout;
}

/** The node containers of a cluster (`kind get nodes`), which are also its Kubernetes node names. */
async function listNodes(kindCommand: string, name: string): Promise<string[]> {
  const res = await run(kindCommand, ["get", "nodes", "--name", name], "kind");
  if (res.status !== 0) throw new Error(`kind get nodes --name ${name} failed: ${tail(res.stderr)}`);
  return res.stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith("No kind nodes"))
    .sort();
}

/** Writes one file into a node container (contents on stdin, so nothing lands on the host). */
async function writeNodeFile(dockerCommand: string, node: string, file: NodeFile): Promise<void> {
  const script = 'mkdir -p "$(dirname "$1")" && cat > "$1"';
  const res = await run(
    dockerCommand,
    ["exec", "-i", node, "sh", "-c", script, "sh", file.path],
    "docker",
    file.content,
  );
  if (res.status !== 0) throw new Error(`writing ${file.path} into kind node ${node} failed: ${tail(res.stderr)}`);
}

/**
 * Waits until every node is Ready (kind returns success while a worker's kubelet is dead); with
 * kind's default CNI off, until every node is up and waits only for its CNI (which the CNI's
 * own install makes Ready: CiliumCni). A
 * kubelet that died of a known cause fails at once with that cause and its fix; otherwise the
 * wait fails after `readyTimeoutSeconds`, naming the nodes that are not Ready and why.
 */
async function waitForReadyNodes(inputs: KindClusterInputs, nodes: string[]): Promise<void> {
  const controlPlane = nodes.find((n) => n.endsWith("-control-plane")) ?? `${inputs.name}-control-plane`;
  const deadline = Date.now() + inputs.readyTimeoutSeconds * 1000;
  let lastCheck = 0;
  for (;;) {
    const res = await run(
      inputs.dockerCommand,
      ["exec", controlPlane, "kubectl", "--kubeconfig=/etc/kubernetes/admin.conf", "get", "nodes", "-o", "json"],
      "docker",
    );
    const state = nodeReadiness(res.status === 0 ? res.stdout : "", nodes, {
      cniPending: configDisablesCni(inputs.configYaml),
    });
    if (state.notReady.length === 0) return;
    const timedOut = Date.now() >= deadline;
    if (timedOut || Date.now() - lastCheck > 10_000) {
      lastCheck = Date.now();
      for (const n of state.notReady) {
        const journal = await run(
          inputs.dockerCommand,
          ["exec", n.name, "journalctl", "-u", "kubelet", "--no-pager", "-o", "cat", "-n", "300"],
          "docker",
        );
        const cause = kubeletFailure(journal.stdout);
        if (cause) throw new Error(`kind cluster "${inputs.name}": node ${n.name} never became Ready: ${cause}`);
      }
    }
    if (timedOut) {
      const which = state.notReady.map((n) => `${n.name} (${n.reason})`).join(", ");
      throw new Error(
        `kind cluster "${inputs.name}": nodes not Ready after ${inputs.readyTimeoutSeconds} s: ${which}; ` +
          `see \`docker exec <node> journalctl -u kubelet\`, or raise readyTimeoutSeconds on a slow machine`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export class KindClusterProvider implements pulumi.dynamic.ResourceProvider {
  async diff(_id: string, olds: KindClusterState, news: KindClusterInputs): Promise<pulumi.dynamic.DiffResult> {
    // State written before nodeFiles existed has none: the same as an empty list.
    const same = (k: keyof KindClusterInputs) =>
      JSON.stringify(olds[k] ?? (k === "nodeFiles" ? [] : undefined)) === JSON.stringify(news[k]);
    const replaces = REPLACING_INPUTS.filter((k) => !same(k));
    const changed =
      replaces.length > 0 || !same("kindCommand") || !same("dockerCommand") || !same("readyTimeoutSeconds");
    return { changes: changed, replaces, deleteBeforeReplace: true };
  }

  async create(inputs: KindClusterInputs): Promise<pulumi.dynamic.CreateResult> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fs: typeof import("fs") = require("fs");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const os: typeof import("os") = require("os");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const path: typeof import("path") = require("path");
    await preflight(inputs);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-kind-"));
    fs.chmodSync(dir, 0o700);
    try {
      const file = path.join(dir, "kubeconfig");
      const res = await run(
        inputs.kindCommand,
        ["create", "cluster", "--name", inputs.name, "--config", "-", "--kubeconfig", file],
        "kind",
        inputs.configYaml,
      );
      if (res.status !== 0)
        throw new Error(createFailureMessage(inputs.name, res.stderr, configNodeImage(inputs.configYaml)));
      try {
        const nodes = await listNodes(inputs.kindCommand, inputs.name);
        for (const node of nodes)
          for (const f of inputs.nodeFiles ?? []) await writeNodeFile(inputs.dockerCommand, node, f);
        await waitForReadyNodes(inputs, nodes);
      } catch (err) {
        // A cluster that never became usable is not left behind: the next `up` starts afresh.
        await run(inputs.kindCommand, ["delete", "cluster", "--name", inputs.name, "--kubeconfig", file], "kind");
        throw err;
      }
      const kubeconfig = fs.readFileSync(file, "utf8");
      const peerKubeconfig = await getKubeconfig(inputs.kindCommand, inputs.name, true);
      const identity = kindClusterIdentity(inputs.name, kubeconfig);
      const outs: KindClusterState = { ...inputs, kubeconfig, peerKubeconfig, identity };
      return { id: inputs.name, outs };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  async read(id: string, props: KindClusterState): Promise<pulumi.dynamic.ReadResult> {
    if (!(await listClusters(props.kindCommand)).includes(id)) {
      // The cluster is gone: an empty id tells the engine the resource no longer exists.
      return { id: "", props: {} };
    }
    const kubeconfig = await getKubeconfig(props.kindCommand, id, false);
    const peerKubeconfig = await getKubeconfig(props.kindCommand, id, true);
    return { id, props: { ...props, kubeconfig, peerKubeconfig } };
  }

  async delete(id: string, props: KindClusterState): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fs: typeof import("fs") = require("fs");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const os: typeof import("os") = require("os");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const path: typeof import("path") = require("path");
    // `kind delete cluster` succeeds when the cluster does not exist, so delete is idempotent. It
    // also removes the cluster's context from a kubeconfig file, so it is pointed at a private empty one and
    // the user's ~/.kube/config is never touched.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-kind-"));
    try {
      const res = await run(
        props.kindCommand,
        ["delete", "cluster", "--name", id, "--kubeconfig", path.join(dir, "kubeconfig")],
        "kind",
      );
      if (res.status !== 0) throw new Error(`kind delete cluster --name ${id} failed: ${tail(res.stderr)}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
