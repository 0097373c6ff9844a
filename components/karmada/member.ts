/**
 * KarmadaMember: a member joined as declared resources, in Push mode (`karmadactl join`) or Pull
 * mode (karmada-agent on the member, as `karmadactl register` installs it; see pull-manifests.ts).
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
import { kubeconfigCredentials } from "../kubeconfig";
import {
  ArgProblem,
  checkField,
  checkImageRef,
  checkKarmadaClusterName,
  checkWholeNumber,
  throwIfArgProblems,
} from "../names";
import { SYNC_MODES } from "./join-manifests";
import { declarePullJoin } from "./pull-join";
import { DEFAULT_RELEASE_TIMEOUT_SECONDS, PullMemberRelease } from "./pull-release";
import { declarePushJoin } from "./push-join";
import type { KarmadaMemberArgs } from "./member-types";

export { memberPrerequisites } from "./join-resources";
export type { MemberPrerequisites } from "./member-types";
import { DEFAULT_WORKS_READY_TIMEOUT_SECONDS, DEFAULT_WORKS_TIMEOUT_SECONDS, MemberWorksGone } from "./works-provider";

export type { KarmadaMemberArgs } from "./member-types";

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
