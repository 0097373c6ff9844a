/**
 * Where a stack cluster comes from (`<key>.source`): one `ClusterSource` per source, each in its
 * own folder under stacks/sources, listed in one registry (./index.ts). A source maps its own
 * config keys onto a cluster config, declares its cluster handle, and answers the questions the
 * shared code asks about such a cluster (its traits). Validation stays in the components' check
 * functions; a source only maps keys to args.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ClusterHandle } from "../../components/cluster";
import type { RegistryMirror } from "../../components/kind";
import type { ClusterConfig } from "../config/cluster";
import type { ProgramName } from "../config/project";
import type { Raw, Reader } from "../config/read";
import type { EndpointCheck } from "../endpoint-check";
import type { SourceSettings } from "./index";

/** Options shared by every cluster of a stack. */
export interface ClusterEnv {
  /** Secret config values by key (e.g. workKubeconfig). */
  secrets: Record<string, pulumi.Output<string>>;
  /** The stack's registry mirror: every kind cluster pulls its images through it. Default: none. */
  registryMirror?: RegistryMirror;
}

/**
 * A validated cluster of any stack program, with what the sources' settings keys give a fleet or
 * region cluster (`SourceSettings`) and the fleet's `extraPortMappings` (default: none).
 */
export type StackCluster = ClusterConfig &
  SourceSettings & { extraPortMappings?: { containerPort: number; hostPort: number }[] };

/** A cluster entry as `readCluster` reads it, before its source is known. */
export interface ClusterEntry {
  /** Config key of the cluster, e.g. "home" or "clusters[0]". */
  key: string;
  /** The entry's keys as given. */
  entry: Raw;
  /** The kubeconfig text from the secret config key the entry names, if any (never shown). */
  secretKubeconfig?: string;
  /** The secret config key holding that kubeconfig (or where it would be set). */
  secretKey: string;
}

/** A cluster entry being read, with the source it names (or implies). */
export interface SourcedClusterEntry extends ClusterEntry {
  /** The entry's source: a registered source's name. */
  source: string;
}

/** A fleet or region cluster entry whose program-level settings (e.g. `<key>.gke`) are read. */
export interface SettingsContext {
  /** Config key of the cluster, e.g. "clusters[0]" or "member". */
  key: string;
  /** The entry's keys as given. */
  entry: Raw;
  /** The entry's source (as validated): a registered source's name. */
  source: string;
  /** The cluster's name (as validated). */
  clusterName: string;
  /**
   * The region stack's region, and its config key: a region member lies in it. Default: none
   * (a fleet cluster).
   */
  region?: { key: string; value: string };
}

/** What the shared code asks about a cluster of a source. */
export interface ClusterSourceTraits {
  /**
   * The cluster runs its own CNI (e.g. "a GKE cluster, which runs Dataplane V2 (Cilium-based)
   * already"): `cilium.enabled: true` is a problem naming this, and no CiliumCni is declared.
   * Default: undefined (Cilium may run on it).
   */
  ownCni?: string;
  /** Default of `cilium.enabled`. Default: false (only a source creating a bare cluster enables it). */
  ciliumByDefault?: boolean;
  /** The pod subnet when `podSubnet` is not set. Default: undefined (not known). */
  defaultPodSubnet?: string;
  /**
   * The control-plane address other clusters reach, known before the cluster exists (a fresh
   * preview shows it). Default: undefined (known only once it runs, or set in config).
   */
  controlPlaneAddress?(clusterName: string): string;
  /**
   * The stack creates the cluster with `kubeProxyMode`, so Cilium replaces kube-proxy when that is
   * "none". Default: false (the cluster's kube-proxy is not the stack's to replace).
   */
  createsWithKubeProxyMode?: boolean;
  /** Default of a region member's `provider` label. Default: undefined (no label). */
  defaultProvider?: string;
  /**
   * The problem with a zone name of `region`'s, for sources whose zones follow a naming rule.
   * Default: undefined (any zone name).
   */
  zoneProblem?(region: string, zone: string): string | undefined;
}

/**
 * One source of stack clusters (the value of `<key>.source`). `Entry` is what its entry keys give
 * every cluster config (e.g. the kubeconfig source's `kubeconfigPath`), `Settings` what its
 * settings keys give a fleet or region cluster config (e.g. the GKE source's `gke`): typed
 * objects, each field set on every cluster, undefined unless the cluster comes from this source.
 * The registry (./index.ts) adds both to the config types.
 */
export interface ClusterSource<Entry extends object = object, Settings extends object = object> {
  /** The `source` value naming it. */
  readonly name: string;
  /** The stack programs whose clusters may come from it. Default: every program. */
  readonly programs?: readonly ProgramName[];
  /** What the shared code asks about its clusters. */
  readonly traits: ClusterSourceTraits;
  /**
   * The cluster entry keys `readEntry` reads: known keys of every entry of the source's programs.
   * Default: none.
   */
  readonly entryKeys?: readonly string[];
  /**
   * The keys `readSettings` reads: known keys of a fleet or region entry (of the source's programs).
   * Default: none.
   */
  readonly settingsKeys?: readonly string[];
  /** Whether an entry without `source` comes from this source. Default: never. */
  impliedBy?(entry: ClusterEntry): boolean;
  /**
   * Reads the source's keys of every entry, whichever its source (under another one, a key that
   * is set is a problem), right after `source`. Default: the source has no entry keys.
   */
  readEntry?(r: Reader, entry: SourcedClusterEntry): Entry;
  /**
   * Reads the source's program-level settings of a fleet or region entry, whichever its source
   * (under another one, a key that is set is a problem). Default: none.
   */
  readSettings?(r: Reader, ctx: SettingsContext): Settings;
  /**
   * What pre-flight probes for a cluster of this source, which exists before the stack: its
   * kubeconfig (`raw`: the stack's raw config, secrets in plain text). Default: nothing (the stack
   * creates the cluster).
   */
  endpointCheck?(c: ClusterConfig, raw: Raw): EndpointCheck | undefined;
  /** Declares the cluster's handle (before its CNI). */
  declare(c: StackCluster, env: ClusterEnv): ClusterHandle;
}
