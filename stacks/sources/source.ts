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
import type { FleetClusterConfig } from "../config/fleet";
import type { ProgramName } from "../config/project";
import type { Raw, Reader } from "../config/read";

/** Options shared by every cluster of a stack. */
export interface ClusterEnv {
  /** Secret config values by key (e.g. workKubeconfig). */
  secrets: Record<string, pulumi.Output<string>>;
  /** The stack's registry mirror: every kind cluster pulls its images through it. Default: none. */
  registryMirror?: RegistryMirror;
}

/** A validated cluster of any stack program, with the fleet and region programs' extra settings. */
export type StackCluster = ClusterConfig & Partial<Pick<FleetClusterConfig, "gke" | "extraPortMappings">>;

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

/** What a source's entry keys give a cluster config (each field undefined unless the source sets it). */
export type EntrySettings = Partial<Pick<ClusterConfig, "kubeconfigPath" | "kubeconfigSecretKey">>;

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

/** What a source's program-level settings give a fleet or region cluster config. */
export type StackSettings = Partial<Pick<FleetClusterConfig, "gke">>;

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
  /**
   * The cluster exists before the stack and is reached through a kubeconfig: pre-flight probes its
   * API server. Default: false (the stack creates it).
   */
  existing?: boolean;
  /** Default of a region member's `provider` label. Default: undefined (no label). */
  defaultProvider?: string;
  /**
   * The problem with a zone name of `region`'s, for sources whose zones follow a naming rule.
   * Default: undefined (any zone name).
   */
  zoneProblem?(region: string, zone: string): string | undefined;
}

/** One source of stack clusters (the value of `<key>.source`). */
export interface ClusterSource {
  /** The `source` value naming it. */
  readonly name: string;
  /** The stack programs whose clusters may come from it. Default: every program. */
  readonly programs?: readonly ProgramName[];
  /** What the shared code asks about its clusters. */
  readonly traits: ClusterSourceTraits;
  /** Whether an entry without `source` comes from this source. Default: never. */
  impliedBy?(entry: ClusterEntry): boolean;
  /**
   * Reads the source's keys of every entry, whichever its source (under another one, a key that
   * is set is a problem), right after `source`. Default: the source has no entry keys.
   */
  readEntry?(r: Reader, entry: SourcedClusterEntry): EntrySettings;
  /**
   * Reads the source's program-level settings of a fleet or region entry, whichever its source
   * (under another one, a key that is set is a problem). Default: none.
   */
  readSettings?(r: Reader, ctx: SettingsContext): StackSettings;
  /** Declares the cluster's handle (before its CNI). */
  declare(c: StackCluster, env: ClusterEnv): ClusterHandle;
}
