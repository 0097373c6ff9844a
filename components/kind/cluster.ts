/**
 * KindCluster: a kind cluster as a Pulumi resource, exposed as a cluster handle.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, withoutDependencies } from "../cluster/handle";
import { describeCluster } from "../cluster/identity";
import { kindReachHint, whenReachable } from "../cluster/reach";
import { parseKubeconfig } from "../kubeconfig";
import {
  ArgProblem,
  checkCidr,
  checkClusterName,
  checkField,
  checkImageRef,
  checkWholeNumber,
  throwIfArgProblems,
} from "../names";
import { KindConfigArgs, kindConfigYaml } from "./config";
import { checkRegistryMirror, mirrorNodeFiles } from "./mirror";
import { KindClusterInputs, KindClusterProvider } from "./provider";

export interface KindClusterArgs extends KindConfigArgs {
  /** kind cluster name. @default the resource name */
  clusterName?: string;
  /** The kind executable. @default "kind" on PATH */
  kindCommand?: string;
  /** The docker executable kind drives. @default "docker" on PATH */
  dockerCommand?: string;
  /**
   * The stack's name for this cluster (e.g. `work`), put before its source in messages:
   * `work (kind cluster "ikowork")`. @default none: messages say `kind cluster "ikowork"`
   */
  role?: string;
  /**
   * How long creating waits for every node to be Ready; then it fails, naming the nodes and why,
   * and deletes the cluster. @default 300 seconds
   */
  readyTimeoutSeconds?: number;
  /**
   * Protects the cluster (Pulumi's `protect`): a change that would replace it (node image,
   * subnets, workers, kube-proxy mode, mirror, name) or delete it fails `preview` and `up` with
   * "unable to replace resource ... as it is currently marked for protection", before anything is
   * touched, and so does `destroy`. To make such a change on purpose, set it false and run `up`
   * first. @default not protected (unless the component itself is, by Pulumi's `protect`
   * option): a change that replaces the cluster replaces it, and everything on it (IrisClusters,
   * operator, joins) with it
   */
  protect?: boolean;
}

/** Default of `readyTimeoutSeconds`. */
export const DEFAULT_READY_TIMEOUT_SECONDS = 300;

/** Most worker nodes a KindCluster accepts. */
export const KIND_WORKERS_MAX = 20;

/**
 * Problems of KindCluster args, as `[field, value, problem]`, in a fixed order (the stack config
 * reports the same problems under its own keys). Only the fields given are checked; `clusterName`
 * is the kind name (the constructor passes the resource name when it is not set).
 */
export function checkKindClusterArgs(args: KindClusterArgs): ArgProblem[] {
  const problems: ArgProblem[] = [];
  checkField(problems, "clusterName", args.clusterName, checkClusterName);
  checkField(problems, "nodeImage", args.nodeImage, checkImageRef);
  for (const field of ["podSubnet", "serviceSubnet"] as const) checkField(problems, field, args[field], checkCidr);
  checkField(problems, "workers", args.workers, checkWholeNumber(0, KIND_WORKERS_MAX));
  if (args.registryMirror) {
    for (const [field, value, problem] of checkRegistryMirror(args.registryMirror))
      problems.push([`registryMirror.${field}`, value, problem]);
  }
  checkField(problems, "readyTimeoutSeconds", args.readyTimeoutSeconds, checkWholeNumber(10, 3600, " (seconds)"));
  return problems;
}

/**
 * One provider object for every kind cluster: Pulumi caches a dynamic provider's serialized code
 * per object, so a shared one is serialized once per program instead of once per cluster.
 */
const KIND_PROVIDER = new KindClusterProvider();

/** The dynamic resource; its kubeconfig outputs are stored as secrets. */
class KindClusterResource extends pulumi.dynamic.Resource {
  declare public readonly kubeconfig: pulumi.Output<string>;
  declare public readonly peerKubeconfig: pulumi.Output<string>;
  /** Absent (undefined) in state written before identities existed. */
  declare public readonly identity: pulumi.Output<string | undefined>;
  constructor(name: string, inputs: KindClusterInputs, opts?: pulumi.CustomResourceOptions) {
    super(
      KIND_PROVIDER,
      name,
      { ...inputs, kubeconfig: undefined, peerKubeconfig: undefined, identity: undefined },
      { ...opts, additionalSecretOutputs: ["kubeconfig", "peerKubeconfig"] },
      "kind",
      "Cluster",
    );
  }
}

export class KindCluster extends pulumi.ComponentResource implements ClusterHandle {
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
  /** The kind config YAML this cluster was created from. */
  declare public readonly configYaml: string;

  constructor(name: string, args: KindClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("KindCluster", name, checkKindClusterArgs({ ...args, clusterName: args.clusterName ?? name }));
    super("iko-plus:kind:KindCluster", name, {}, opts);
    this.name = args.clusterName ?? name;
    this.description = describeCluster(`kind cluster "${this.name}"`, args.role);
    this.configYaml = kindConfigYaml(args);
    const cluster = new KindClusterResource(
      `${name}-kind`,
      {
        name: this.name,
        configYaml: this.configYaml,
        kindCommand: args.kindCommand ?? "kind",
        dockerCommand: args.dockerCommand ?? "docker",
        nodeFiles: args.registryMirror ? mirrorNodeFiles(args.registryMirror) : [],
        readyTimeoutSeconds: args.readyTimeoutSeconds ?? DEFAULT_READY_TIMEOUT_SECONDS,
      },
      { parent: this, protect: args.protect },
    );
    this.kubeconfig = pulumi.secret(cluster.kubeconfig);
    this.peerKubeconfig = pulumi.secret(cluster.peerKubeconfig);
    this.endpoint = pulumi.unsecret(
      cluster.kubeconfig.apply((k) => parseKubeconfig(k, `kind cluster "${this.name}"`).server),
    );
    this.peerEndpoint = pulumi.unsecret(
      cluster.peerKubeconfig.apply((k) => parseKubeconfig(k, `kind cluster "${this.name}" (internal)`).server),
    );
    this.caData = pulumi.unsecret(
      cluster.kubeconfig.apply((k) => parseKubeconfig(k, `kind cluster "${this.name}"`).caData ?? ""),
    );
    // A cluster created before identities existed keeps its name as its identity: upgrading the
    // product replaces nothing; its next replacement records an identity.
    this.identity = cluster.identity.apply((identity) => identity ?? this.name);
    this.provider = new k8s.Provider(
      `${name}-k8s`,
      {
        kubeconfig: whenReachable(this.kubeconfig, this.description, kindReachHint(this.name), { endRun: true }),
        clusterIdentifier: withoutDependencies(this.identity),
      },
      { parent: this },
    );
    this.readyGate = [];
    // The kubeconfigs stay out of the component's recorded outputs: state already holds them (encrypted)
    // where diff and delete need them, and every copy is rewritten with each checkpoint.
    this.registerOutputs({ endpoint: this.endpoint });
  }
}
