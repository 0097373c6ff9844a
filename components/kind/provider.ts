/**
 * A Pulumi dynamic provider over the kind CLI. kind cannot update a cluster, so every input
 * change replaces it. Kubeconfigs go through a private temporary directory that is always
 * removed: nothing is written to the working directory or to ~/.kube/config.
 *
 * This module is serialised into the dynamic provider process, so it only uses Node built-ins.
 */
import * as pulumi from "@pulumi/pulumi";

export interface KindClusterInputs {
  /** kind cluster name. */
  name: string;
  /** The kind config YAML (from `kindConfigYaml`). */
  configYaml: string;
  /** The kind executable (name on PATH or path). */
  kindCommand: string;
  /** The docker executable kind drives (name on PATH or path). */
  dockerCommand: string;
}

export interface KindClusterState extends KindClusterInputs {
  /** External kubeconfig (host port-forward on 127.0.0.1). Secret. */
  kubeconfig: string;
  /** Internal kubeconfig (`<name>-control-plane:6443` on the docker network). Secret. */
  peerKubeconfig: string;
}

/** Inputs whose change replaces the cluster; the executables can change freely. */
export const REPLACING_INPUTS: (keyof KindClusterInputs)[] = ["name", "configYaml"];

interface RunResult { status: number; stdout: string; stderr: string }

/** Runs a CLI, turning "not installed" into one clear error that names the fix. */
function run(command: string, args: string[], what: string, input?: string): RunResult {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cp: typeof import("child_process") = require("child_process");
  const res = cp.spawnSync(command, args, { input, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (res.error) {
    const code = (res.error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES") {
      throw new Error(`${what}: "${command}" was not found or is not executable. ` + installHint(what));
    }
    throw new Error(`${what}: running "${command}" failed: ${res.error.message}`);
  }
  return { status: res.status ?? 1, stdout: res.stdout ?? "", stderr: res.stderr ?? "" };
}

function installHint(what: string): string {
  return what === "docker"
    ? "kind clusters need a Docker engine: install Docker and start it, or use existing clusters by kubeconfig (the lab stacks do)."
    : "Install kind v0.30.0 (https://kind.sigs.k8s.io/docs/user/quick-start/#installation) or set the kind command path.";
}

/** Fails unless docker answers and kind runs; called before any create. */
export function preflight(inputs: Pick<KindClusterInputs, "kindCommand" | "dockerCommand">): void {
  const docker = run(inputs.dockerCommand, ["info", "--format", "{{.ServerVersion}}"], "docker");
  if (docker.status !== 0) {
    throw new Error(`docker: "${inputs.dockerCommand} info" failed (is the Docker engine running?): ${docker.stderr.trim().slice(0, 400)}. ` + installHint("docker"));
  }
  const kind = run(inputs.kindCommand, ["version"], "kind");
  if (kind.status !== 0) throw new Error(`kind: "${inputs.kindCommand} version" failed: ${kind.stderr.trim().slice(0, 400)}`);
}

function listClusters(kindCommand: string): string[] {
  const res = run(kindCommand, ["get", "clusters"], "kind");
  if (res.status !== 0) throw new Error(`kind get clusters failed: ${res.stderr.trim().slice(0, 400)}`);
  return res.stdout.split("\n").map((l) => l.trim()).filter((l) => l.length > 0);
}

/** Reads a kubeconfig from kind; the output is secret and never goes into an error message. */
function getKubeconfig(kindCommand: string, name: string, internal: boolean): string {
  const args = ["get", "kubeconfig", "--name", name];
  if (internal) args.push("--internal");
  const res = run(kindCommand, args, "kind");
  if (res.status !== 0) throw new Error(`kind get kubeconfig --name ${name}${internal ? " --internal" : ""} failed: ${res.stderr.trim().slice(0, 400)}`);
  return res.stdout;
}

export class KindClusterProvider implements pulumi.dynamic.ResourceProvider {
  async diff(_id: string, olds: KindClusterState, news: KindClusterInputs): Promise<pulumi.dynamic.DiffResult> {
    const replaces = REPLACING_INPUTS.filter((k) => olds[k] !== news[k]);
    const changed = replaces.length > 0 || olds.kindCommand !== news.kindCommand || olds.dockerCommand !== news.dockerCommand;
    return { changes: changed, replaces, deleteBeforeReplace: true };
  }

  async create(inputs: KindClusterInputs): Promise<pulumi.dynamic.CreateResult> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fs: typeof import("fs") = require("fs");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const os: typeof import("os") = require("os");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const path: typeof import("path") = require("path");
    preflight(inputs);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-kind-"));
    fs.chmodSync(dir, 0o700);
    try {
      const file = path.join(dir, "kubeconfig");
      const res = run(inputs.kindCommand, ["create", "cluster", "--name", inputs.name, "--config", "-", "--kubeconfig", file], "kind", inputs.configYaml);
      if (res.status !== 0) {
        throw new Error(`kind create cluster --name ${inputs.name} failed: ${res.stderr.trim().slice(-800)}`);
      }
      const kubeconfig = fs.readFileSync(file, "utf8");
      const peerKubeconfig = getKubeconfig(inputs.kindCommand, inputs.name, true);
      const outs: KindClusterState = { ...inputs, kubeconfig, peerKubeconfig };
      return { id: inputs.name, outs };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  async read(id: string, props: KindClusterState): Promise<pulumi.dynamic.ReadResult> {
    if (!listClusters(props.kindCommand).includes(id)) {
      // The cluster is gone: an empty id tells the engine the resource no longer exists.
      return { id: "", props: {} };
    }
    const kubeconfig = getKubeconfig(props.kindCommand, id, false);
    const peerKubeconfig = getKubeconfig(props.kindCommand, id, true);
    return { id, props: { ...props, kubeconfig, peerKubeconfig } };
  }

  async delete(id: string, props: KindClusterState): Promise<void> {
    // `kind delete cluster` succeeds when the cluster does not exist, so delete is idempotent.
    const res = run(props.kindCommand, ["delete", "cluster", "--name", id], "kind");
    if (res.status !== 0) throw new Error(`kind delete cluster --name ${id} failed: ${res.stderr.trim().slice(0, 400)}`);
  }
}
