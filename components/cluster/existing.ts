/**
 * ExistingCluster: a handle for a cluster that something else made, given its kubeconfig as a
 * file path or as (secret) contents.
 */
import * as fs from "fs";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle } from "./handle";
import { clusterIdentity, describeCluster } from "./identity";
import { KUBECONFIG_REACH_HINT, whenReachable } from "./reach";
import { KubeconfigError, parseKubeconfig } from "../kubeconfig";
import { ArgProblem, throwIfArgProblems } from "../names";

export interface ExistingClusterArgs {
  /**
   * Kubeconfig contents valid from the Pulumi host. Wrapped as a secret.
   * Exactly one of `kubeconfig` and `kubeconfigPath` is required.
   */
  kubeconfig?: pulumi.Input<string>;
  /**
   * Path of a kubeconfig file, read when the program runs (relative to the project directory).
   * Exactly one of `kubeconfig` and `kubeconfigPath` is required.
   */
  kubeconfigPath?: string;
  /**
   * Kubeconfig valid from pods of other clusters.
   * @default the same kubeconfig as `kubeconfig` (right when every cluster shares one network,
   * as in the lab)
   */
  peerKubeconfig?: pulumi.Input<string>;
  /**
   * The stack's name for this cluster (e.g. `work`), put before its source in messages.
   * @default none: messages say `cluster "<name>" (kubeconfig)`
   */
  role?: string;
}

/** What is wrong with kubeconfig text (never quoted), or `undefined` when it is usable. */
export function kubeconfigTextProblem(text: string): string | undefined {
  try {
    parseKubeconfig(text, "it");
    return undefined;
  } catch (err) {
    const why = err instanceof KubeconfigError ? err.message.replace(/^it:? ?/, "") : String(err);
    return `is not a usable kubeconfig: ${why}`;
  }
}

/** A kubeconfig file: readable, and a usable kubeconfig. */
export function checkKubeconfigFile(path: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    return `cannot be read (${code}); point it at an existing kubeconfig file`;
  }
  return kubeconfigTextProblem(text);
}

/** The fields `checkKubeconfigSource` judges; `kubeconfig` only says whether contents are given. */
export interface KubeconfigSourceArgs {
  kubeconfig?: unknown;
  kubeconfigPath?: string;
}

/**
 * A cluster given by its kubeconfig: exactly one of `kubeconfig` (contents) and `kubeconfigPath`
 * (a file, which must be a readable, usable kubeconfig). ExistingCluster's rule, and an existing
 * Karmada's (KarmadaControlPlane `existing`, with `prefix` "existing.").
 */
export function checkKubeconfigSource(args: KubeconfigSourceArgs, prefix = ""): ArgProblem[] {
  const field = `${prefix}kubeconfigPath`;
  if (args.kubeconfigPath !== undefined && args.kubeconfig !== undefined)
    return [[field, args.kubeconfigPath, "is set together with the kubeconfig's contents; keep one of them"]];
  if (args.kubeconfigPath === undefined) {
    return args.kubeconfig !== undefined
      ? []
      : [[field, undefined, "is required, or give the kubeconfig's contents instead"]];
  }
  const problem = checkKubeconfigFile(args.kubeconfigPath);
  return problem ? [[field, args.kubeconfigPath, problem]] : [];
}

/** Problems of ExistingCluster args, as `[field, value, problem]`: one kubeconfig source. */
export function checkExistingClusterArgs(args: KubeconfigSourceArgs): ArgProblem[] {
  return checkKubeconfigSource(args);
}

/** Reads a kubeconfig file, with one clear error when it is missing or unreadable. */
export function readKubeconfigFile(path: string, key: string): string {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "unreadable";
    throw new KubeconfigError(
      `${key}: cannot read kubeconfig file "${path}" (${code}); point it at an existing, readable kubeconfig file`,
    );
  }
  parseKubeconfig(text, `${key} ("${path}")`);
  return text;
}

export class ExistingCluster extends pulumi.ComponentResource implements ClusterHandle {
  declare public readonly name: string;
  declare public readonly kubeconfig: pulumi.Output<string>;
  declare public readonly peerKubeconfig: pulumi.Output<string>;
  declare public readonly endpoint: pulumi.Output<string>;
  declare public readonly peerEndpoint: pulumi.Output<string>;
  declare public readonly caData: pulumi.Output<string>;
  declare public readonly identity: pulumi.Output<string>;
  declare public readonly description: string;
  declare public readonly provider: k8s.Provider;
  declare public readonly readyGate: pulumi.Resource[];

  constructor(name: string, args: ExistingClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("ExistingCluster", name, checkExistingClusterArgs(args));
    super("iko-plus:cluster:ExistingCluster", name, {}, opts);
    const contents =
      args.kubeconfigPath !== undefined
        ? pulumi.output(readKubeconfigFile(args.kubeconfigPath, `cluster "${name}" kubeconfigPath`))
        : pulumi.output(args.kubeconfig as pulumi.Input<string>);
    this.name = name;
    this.description = describeCluster(`cluster "${name}" (kubeconfig)`, args.role);
    this.kubeconfig = pulumi.secret(contents);
    this.peerKubeconfig = pulumi.secret(
      args.peerKubeconfig !== undefined ? pulumi.output(args.peerKubeconfig) : contents,
    );
    // The endpoint and CA are public; unwrap them from the secret kubeconfig explicitly.
    const summary = pulumi.unsecret(contents.apply((text) => parseKubeconfig(text, `cluster "${name}" kubeconfig`)));
    this.endpoint = summary.apply((s) => s.server);
    this.caData = summary.apply((s) => s.caData ?? "");
    this.identity = summary.apply((s) => clusterIdentity(name, s.caData, s.server));
    this.peerEndpoint = pulumi.unsecret(
      this.peerKubeconfig.apply((text) => parseKubeconfig(text, `cluster "${name}" peerKubeconfig`).server),
    );
    // Given a file, the provider gets its path: the state records where the credentials are, not
    // a copy of them (the program reads the file at every run anyway, and destroy reads it too).
    this.provider = new k8s.Provider(
      `${name}-k8s`,
      {
        kubeconfig: whenReachable(args.kubeconfigPath ?? this.kubeconfig, this.description, KUBECONFIG_REACH_HINT, {
          isPath: args.kubeconfigPath !== undefined,
          showServer: args.kubeconfigPath !== undefined,
        }),
        clusterIdentifier: this.identity,
      },
      { parent: this },
    );
    this.readyGate = [];
    // The kubeconfigs stay out of the component's recorded outputs: state already holds them (encrypted)
    // where diff and delete need them, and every copy is rewritten with each checkpoint.
    this.registerOutputs({ endpoint: this.endpoint });
  }
}
