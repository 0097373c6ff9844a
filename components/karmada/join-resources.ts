/**
 * What both join modes declare (Push: push-join.ts, Pull: pull-join.ts): the join's inputs, where
 * its objects in Karmada go, its prerequisites and the member's Cluster object in Karmada.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterTarget, clusterOptions } from "../cluster";
import { ClusterObjectArgs, clusterHead } from "./join-manifests";
import type { KarmadaMemberArgs, MemberPrerequisites } from "./member-types";
import { Cluster } from "./types";

/**
 * What a join is declared from: the KarmadaMember, its resource name and args, the member's name
 * in Karmada and its kube-system namespace.
 */
export interface Join {
  self: pulumi.ComponentResource;
  name: string;
  args: KarmadaMemberArgs;
  cluster: string;
  kubeSystem: k8s.core.v1.Namespace;
}

/**
 * Where a join's objects in Karmada go: the Karmada API, stamped with the member's identity (and
 * Karmada's): a new member cluster is a new join, so they are made again with it. Karmada's Cluster
 * depends on the join's objects on the member and goes first, while the old member still runs.
 */
export function joinInKarmada(args: Pick<KarmadaMemberArgs, "karmada" | "member">): ClusterTarget & {
  readyGate: pulumi.Resource[];
} {
  return {
    provider: args.karmada.provider,
    readyGate: args.karmada.readyGate,
    identity: pulumi
      .all([args.member.identity, args.karmada.identity])
      .apply(([member, karmada]) => `${member} in ${karmada}`),
  };
}

export type { MemberPrerequisites } from "./member-types";

/** The prerequisites of a join, given its objects on the member (called once, after they are declared). */
export function memberPrerequisites(
  dependsOn: MemberPrerequisites | undefined,
  memberSide: pulumi.Resource[],
): pulumi.Resource[] {
  return typeof dependsOn === "function" ? dependsOn(memberSide) : (dependsOn ?? []);
}

/**
 * The member's Cluster object in Karmada, `${name}-cluster`: apiVersion, kind and metadata from
 * its name and labels, the spec from the member's peer endpoint, kube-system UID and placement.
 */
export function declareClusterObject(
  { self, name, args, cluster, kubeSystem }: Join,
  specOf: (s: Omit<ClusterObjectArgs, "name" | "labels">) => Cluster["spec"],
  dependsOn: pulumi.Resource[],
): k8s.apiextensions.CustomResource {
  const { provider, region, zones } = args;
  return new k8s.apiextensions.CustomResource(
    `${name}-cluster`,
    {
      ...clusterHead({ name: cluster, labels: args.labels }),
      spec: pulumi
        .all([args.member.peerEndpoint, kubeSystem.metadata.uid])
        .apply(([apiEndpoint, id]) => specOf({ apiEndpoint, id, provider, region, zones })),
    },
    { ...clusterOptions(self, joinInKarmada(args), dependsOn), protect: args.protect },
  );
}
