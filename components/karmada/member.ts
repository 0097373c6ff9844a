/**
 * KarmadaMember: a member joined as declared resources, in Push mode (`karmadactl join`) or Pull
 * mode (karmada-agent on the member, as `karmadactl register` installs it; see pull.ts).
 *
 * Push: on the member, the karmada-cluster namespace, the two ServiceAccounts with long-lived
 * token Secrets, and the ClusterRole/Binding Karmada's controllers act with. In Karmada: the token
 * Secrets and the Cluster object.
 *
 * Pull: in Karmada, the agent's ServiceAccount and token Secret, its RBAC (its own Cluster, its
 * execution namespace `karmada-es-<member>` and Works, its lease, events) and the Cluster object
 * (syncMode Pull, with the placement labels); on the member, the karmada-cluster namespace, the
 * agent's kubeconfig Secret, ServiceAccount, scoped ClusterRole/Binding and Deployment. The agent
 * registers into the Cluster and reports its status; Karmada never calls the member's API.
 *
 * Destroy unjoins in the safe order: first a wait (MemberWorksGone) until Karmada has removed this
 * stack's propagated objects from the member (its Works in `karmada-es-<member>` are gone; in Pull
 * mode the agent removes them, so it goes only after the wait), then the Cluster, then the
 * credentials, then the member side. The federated objects depend on `joined` (the Cluster, and
 * the agent in Pull mode), so they go before those; the wait's delete runs beside theirs.
 */
import * as fs from "fs";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle } from "../cluster";
import { kubeconfigCredentials } from "../kubeconfig";
import {
  ArgProblem,
  checkField,
  checkImageRef,
  checkKarmadaClusterName,
  checkWholeNumber,
  throwIfArgProblems,
} from "../names";
import { KarmadaHandle } from "./control-plane";
import { MemberAccess } from "./join";
import { SYNC_MODES, SyncMode } from "./pull";
import { declarePullJoin } from "./pull-join";
import { DEFAULT_RELEASE_TIMEOUT_SECONDS, PullMemberRelease } from "./pull-release";
import { MemberPrerequisites, declarePushJoin } from "./push";

export { MemberPrerequisites, memberPrerequisites } from "./push";
import { PropagatedObject } from "./works";
import { DEFAULT_WORKS_READY_TIMEOUT_SECONDS, DEFAULT_WORKS_TIMEOUT_SECONDS, MemberWorksGone } from "./works-provider";

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
  /** Pull mode: the karmada-agent image, pinned. @default docker.io/karmada/karmada-agent:v1.16.0 */
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
  /** How long destroy waits for those Works while the member is not Ready before it fails, keeping the member joined. @default 120 */
  worksTimeoutSeconds?: number;
  /** How long it waits while the member is Ready (Karmada retries a failed delete after up to 1000 s). @default 1020 */
  worksReadyTimeoutSeconds?: number;
}

/**
 * Problems of KarmadaMember args, as `[field, value, problem]` (the stack config reports the same
 * problems under its own keys). The constructor passes the member handle's name as `clusterName`
 * when it is not set.
 */
export function checkKarmadaMemberArgs(
  args: Pick<
    KarmadaMemberArgs,
    | "clusterName"
    | "worksTimeoutSeconds"
    | "worksReadyTimeoutSeconds"
    | "syncMode"
    | "agentImage"
    | "agentTlsServerName"
  > & { agentKarmadaServer?: unknown },
): ArgProblem[] {
  const problems: ArgProblem[] = [];
  checkField(problems, "clusterName", args.clusterName, checkKarmadaClusterName);
  checkField(problems, "worksTimeoutSeconds", args.worksTimeoutSeconds, checkWaitSeconds);
  checkField(problems, "worksReadyTimeoutSeconds", args.worksReadyTimeoutSeconds, checkWaitSeconds);
  checkField(problems, "syncMode", args.syncMode, (m: string) =>
    (SYNC_MODES as readonly string[]).includes(m)
      ? undefined
      : `is not a sync mode; use one of: ${SYNC_MODES.join(", ")}`,
  );
  checkField(problems, "agentImage", args.agentImage, checkImageRef);
  if (args.syncMode !== "Pull") {
    for (const field of ["agentImage", "agentKarmadaServer", "agentTlsServerName"] as const) {
      if (args[field] !== undefined)
        problems.push([
          field,
          typeof args[field] === "string" ? args[field] : "(an output)",
          'is only used in Pull mode; set syncMode to "Pull" or remove it',
        ]);
    }
  }
  return problems;
}

/** A destroy-time wait in seconds: a whole number from 1 to 86400. */
const checkWaitSeconds = checkWholeNumber(1, 86400, " (seconds; leave it out for the default)");

export class KarmadaMember extends pulumi.ComponentResource {
  /** The member's name in Karmada. */
  declare public readonly clusterName: string;
  /** The Cluster object in Karmada. */
  declare public readonly cluster: k8s.apiextensions.CustomResource;
  /** The destroy-time wait for the member's Works (deleted before the Cluster). */
  declare public readonly worksGone: MemberWorksGone;
  /**
   * What an object propagated to this member depends on: the Cluster, and in Pull mode the agent.
   * Not the destroy-time wait: that one's delete runs beside the objects' deletion and lasts until
   * Karmada has removed them, so nothing waits for its provider to start on `up`.
   */
  declare public readonly joined: pulumi.Resource[];

  constructor(name: string, args: KarmadaMemberArgs, opts?: pulumi.ComponentResourceOptions) {
    const member = args.member;
    const cluster = args.clusterName ?? member.name;
    throwIfArgProblems("KarmadaMember", name, checkKarmadaMemberArgs({ ...args, clusterName: cluster }));
    super("iko-plus:karmada:KarmadaMember", name, {}, opts);
    this.clusterName = cluster;
    const kubeSystem = k8s.core.v1.Namespace.get(`${name}-kube-system`, "kube-system", {
      parent: this,
      provider: member.provider,
      dependsOn: member.readyGate,
    });
    const join = { self: this, name, args, cluster, kubeSystem };
    let agent: k8s.apps.v1.Deployment | undefined;
    if (args.syncMode === "Pull") {
      const pull = declarePullJoin(join);
      this.cluster = pull.cluster;
      agent = pull.agent;
    } else {
      this.cluster = declarePushJoin(join);
    }
    // Deleted before the Cluster (and in Pull mode before the agent, which does the removing):
    // waits until Karmada has removed this stack's objects from the member.
    const joined: pulumi.Resource[] = agent ? [this.cluster, agent] : [this.cluster];
    const karmadaCredentials = pulumi.secret(
      args.karmada.kubeconfig.apply((text) =>
        kubeconfigCredentials(text, `the Karmada kubeconfig (for ${cluster}'s unjoin)`, (file) =>
          fs.readFileSync(file, "utf8"),
        ),
      ),
    );
    // Pull mode: when the member cluster is replaced, this goes first and lets the Cluster go (the
    // old agent cannot release its Works once Karmada removes its Role); on destroy or unjoin it goes
    // after the unjoin wait below, with nothing left to release.
    const release =
      args.syncMode === "Pull"
        ? new PullMemberRelease(
            `${name}-release`,
            {
              cluster,
              memberIdentity: member.identity,
              timeoutSeconds: DEFAULT_RELEASE_TIMEOUT_SECONDS,
              karmada: karmadaCredentials,
            },
            { parent: this, dependsOn: [this.cluster], replaceOnChanges: ["memberIdentity"] },
          )
        : undefined;
    this.worksGone = new MemberWorksGone(
      `${name}-works-gone`,
      {
        cluster,
        objects: args.propagated ?? [],
        timeoutSeconds: args.worksTimeoutSeconds ?? DEFAULT_WORKS_TIMEOUT_SECONDS,
        readyTimeoutSeconds: args.worksReadyTimeoutSeconds ?? DEFAULT_WORKS_READY_TIMEOUT_SECONDS,
        karmada: karmadaCredentials,
      },
      {
        parent: this,
        dependsOn: afterBoth([...joined, ...(release ? [release] : [])], this.cluster, args.waitRegistersAfter),
      },
    );
    this.joined = joined;
    this.registerOutputs({ clusterName: cluster });
  }
}

/**
 * `dependsOn` that is `dependencies` (`trigger` among them), resolved once `trigger` is registered
 * and `after` has settled. An Output of `trigger`'s URN, so a failed `trigger` fails it as a plain
 * `dependsOn` would; `after` is a promise and so adds no dependency.
 */
export function afterBoth(
  dependencies: pulumi.Resource[],
  trigger: pulumi.Resource,
  after: Promise<unknown> | undefined,
): pulumi.Input<pulumi.Resource[]> {
  if (after === undefined) return dependencies;
  return trigger.urn.apply(() => after.then(() => dependencies));
}
