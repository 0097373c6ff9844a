/**
 * KarmadaMember's arguments (and the prerequisites type), apart from the component so the join
 * code (join-resources.ts, push-join.ts, pull-join.ts) can use them without importing the
 * component.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ClusterHandle } from "../cluster";
import type { KarmadaHandle } from "./control-plane";
import type { MemberAccess, SyncMode } from "./join-manifests";
import type { PropagatedObject } from "./works";

/** What a member needs before it joins: resources, or a function of the join's objects on the member. */
export type MemberPrerequisites = pulumi.Resource[] | ((memberSide: pulumi.Resource[]) => pulumi.Resource[]);

export interface KarmadaMemberArgs {
  /** The Karmada API to join. */
  karmada: KarmadaHandle;
  /** The member cluster. In Push mode Karmada reaches it at its peer endpoint. */
  member: ClusterHandle;
  /**
   * Who calls whom. "Push": Karmada's controllers call the member's API at its peer endpoint.
   * "Pull": karmada-agent on the member calls the Karmada API (at `agentKarmadaServer`); the
   * member's API need not be reachable from Karmada. @default "Push"
   */
  syncMode?: SyncMode;
  /**
   * Pull mode: the Karmada API as the agent on the member reaches it, https://<host>:<port>.
   * @default the server of the Karmada kubeconfig (the API as this machine reaches it)
   */
  agentKarmadaServer?: pulumi.Input<string>;
  /**
   * Pull mode: the name the agent checks the Karmada API's certificate for, when the server's
   * host is not in it. @default the server's host
   */
  agentTlsServerName?: string;
  /**
   * Pull mode: the karmada-agent image, pinned. @default `docker.io/karmada/karmada-agent:<v>` at
   * the Karmada control plane's version (`karmada.version`; v1.18.2 for an existing Karmada)
   */
  agentImage?: string;
  /** The member's name in Karmada. @default the cluster handle's name */
  clusterName?: string;
  /** `spec.provider` of the Cluster (placement by provider). @default left out */
  provider?: string;
  /** `spec.region`. @default left out */
  region?: string;
  /** `spec.zones`. @default left out */
  zones?: string[];
  /** Labels on the Cluster object, for label-selector placement. @default none */
  labels?: Record<string, string>;
  /**
   * What Karmada's controllers (Push) or the agent (Pull) may do on the member. @default "scoped": nodes and pods read,
   * discovery and health endpoints, and namespaces, Secrets, ConfigMaps and IrisClusters, the kinds
   * this project propagates; "cluster-admin" grants everything, as `karmadactl join` does (set it
   * only to propagate other kinds).
   */
  access?: MemberAccess;
  /**
   * What must exist on the member before the Cluster object is created (IKO, the IrisCluster
   * CRD: Karmada's scheduler only places kinds a member serves). A function is called with the
   * join's own objects on the member (namespace, ServiceAccounts, RBAC, Secrets) and returns what
   * it declares after them; declare a CRD that way. The Kubernetes provider reads the member's whole
   * API schema again on its next step after it creates a CRD, so a CRD created last on the member
   * costs no second read (measured on a 4-member lab: `up` 14.4 s with the CRD first, 11.6 s last).
   * @default nothing
   */
  dependsOn?: MemberPrerequisites;
  /**
   * The objects this stack propagates to the member (`propagatedByMember`): destroy deletes the
   * Cluster only once no Work in `karmada-es-<member>` carries one of them. @default none (no wait)
   */
  propagated?: PropagatedObject[];
  /**
   * Settles when the destroy-time wait (MemberWorksGone) may be registered; it is registered once
   * the Cluster exists and this has settled. A promise adds no dependency: the wait still depends
   * on the Cluster alone, so destroy order is unchanged. The engine checks registrations one at a
   * time, and the first dynamic resource of a stack holds that queue while its provider process
   * starts (0.5 s on the lab), so the fleet stack passes the registration of the objects it
   * propagates: the wait's provider then starts while Karmada propagates them, not before them.
   * @default the wait is registered as soon as the Cluster exists
   */
  waitRegistersAfter?: Promise<unknown>;
  /**
   * Protects the join, the member's Cluster object in Karmada (Pulumi's `protect`): a change that
   * would replace it (a new member cluster, a new name) or delete it, which makes Karmada remove
   * everything it propagated to the member, fails `preview` and `up` before anything is touched,
   * and so does `destroy`. Set it false and run `up` to unjoin on purpose. @default not protected
   * (unless the component itself is, by Pulumi's `protect` option)
   */
  protect?: boolean;
  /** How long destroy waits for those Works while the member is not Ready before it fails, keeping the member joined. @default 120 */
  worksTimeoutSeconds?: number;
  /** How long it waits while the member is Ready (Karmada retries a failed delete after up to 1000 s). @default 1020 */
  worksReadyTimeoutSeconds?: number;
}
