/**
 * Pure builder of kind's `kind.x-k8s.io/v1alpha4` Cluster config.
 * @see https://kind.sigs.k8s.io/docs/user/configuration/
 */
import * as YAML from "yaml";
import { RegistryMirror, mirrorContainerdPatch } from "./mirror";

/** kind v0.30.0's node image for Kubernetes 1.34.0, pinned by digest. */
export const DEFAULT_NODE_IMAGE =
  "kindest/node:v1.34.0@sha256:7416a61b42b1662ca6ca89f02028ac133a309a2a30ba309614e8ec94d976dc5a";

export interface KindPortMapping {
  /** Port inside the node container. */
  containerPort: number;
  /** Port on the host. */
  hostPort: number;
  /** @default 127.0.0.1: only this machine reaches the port */
  listenAddress?: string;
  /** @default TCP */
  protocol?: "TCP" | "UDP" | "SCTP";
}

export interface KindConfigArgs {
  /** Node image for every node. @default DEFAULT_NODE_IMAGE (Kubernetes 1.34.0, digest-pinned) */
  nodeImage?: string;
  /** Number of worker nodes beside the single control-plane node. @default 1, as in the recipes */
  workers?: number;
  /** Turn off kindnet so a CNI (Cilium) can be installed. @default true */
  disableDefaultCNI?: boolean;
  /** kube-proxy mode; `none` lets Cilium replace kube-proxy. @default iptables (kind's default) */
  kubeProxyMode?: "iptables" | "ipvs" | "nftables" | "none";
  /** Pod subnet. @default kind's 10.244.0.0/16 (left out of the config) */
  podSubnet?: string;
  /** Service subnet. @default kind's 10.96.0.0/16 (left out of the config) */
  serviceSubnet?: string;
  /** Host port mappings on the control-plane node (e.g. a Karmada API NodePort). @default none */
  extraPortMappings?: KindPortMapping[];
  /**
   * Pull every image of the mirrored registries from one local OCI registry (air-gapped).
   * @default none: nodes pull from the registries themselves
   */
  registryMirror?: RegistryMirror;
}

/** A kind node in the `kind.x-k8s.io/v1alpha4` config. */
export interface KindNode {
  role: "control-plane" | "worker";
  image: string;
  extraPortMappings?: Required<KindPortMapping>[];
}

/** The `kind.x-k8s.io/v1alpha4` Cluster config (the fields iko-plus sets). */
export interface KindConfig {
  kind: "Cluster";
  apiVersion: "kind.x-k8s.io/v1alpha4";
  nodes: KindNode[];
  networking?: {
    disableDefaultCNI?: boolean;
    kubeProxyMode?: "ipvs" | "nftables" | "none";
    podSubnet?: string;
    serviceSubnet?: string;
  };
  containerdConfigPatches?: string[];
}

/** The kind config object for these args. Keys kind would default are left out. */
export function kindConfig(args: KindConfigArgs): KindConfig {
  const image = args.nodeImage ?? DEFAULT_NODE_IMAGE;
  const workers = args.workers ?? 1;
  const controlPlane: KindNode = { role: "control-plane", image };
  if (args.extraPortMappings && args.extraPortMappings.length > 0) {
    controlPlane.extraPortMappings = args.extraPortMappings.map((m) => ({
      containerPort: m.containerPort,
      hostPort: m.hostPort,
      listenAddress: m.listenAddress ?? "127.0.0.1",
      protocol: m.protocol ?? "TCP",
    }));
  }
  const nodes: KindNode[] = [controlPlane];
  for (let i = 0; i < workers; i++) nodes.push({ role: "worker", image });
  const networking: NonNullable<KindConfig["networking"]> = {};
  if (args.disableDefaultCNI ?? true) networking.disableDefaultCNI = true;
  if (args.kubeProxyMode && args.kubeProxyMode !== "iptables") networking.kubeProxyMode = args.kubeProxyMode;
  if (args.podSubnet) networking.podSubnet = args.podSubnet;
  if (args.serviceSubnet) networking.serviceSubnet = args.serviceSubnet;
  const config: KindConfig = { kind: "Cluster", apiVersion: "kind.x-k8s.io/v1alpha4", nodes };
  if (Object.keys(networking).length > 0) config.networking = networking;
  if (args.registryMirror) config.containerdConfigPatches = [mirrorContainerdPatch()];
  return config;
}

/** The kind config as YAML, as fed to `kind create cluster --config -`. */
export function kindConfigYaml(args: KindConfigArgs): string {
  return YAML.stringify(kindConfig(args));
}
