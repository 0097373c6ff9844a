/**
 * Rules `clusters-protected` (advisory) and `production-clusters-protected` (mandatory): every
 * kind or GKE cluster and every Karmada join (a member's Cluster object) is protected by Pulumi's
 * `protect` option.
 *
 * Why: a config change that replaces a cluster (a kind node image or subnet, a GKE setting that
 * forces a new cluster) or a join deletes everything on it, IrisClusters included, and `up` does
 * it without another question. A policy pack is shown each resource's new inputs and options, not
 * the operation the engine plans, so no policy can see "this preview replaces a cluster". What it
 * can see is whether the resource is protected; a protected one cannot be replaced or deleted at
 * all: `preview` and `up` fail, naming it, before anything is touched (the PR preview summary
 * lists what an unprotected one's replacement takes with it, as **Destructive**).
 *
 * Where the stack says so, the rule is mandatory: in stacks tagged `iko-plus:environment` =
 * `production` (as `production-gke-deletion-protection`) the mandatory twin fires instead of the
 * advisory one. Pulumi's policy config (`--policy-pack-config`) can also set either's level.
 * The resource types are the PR preview's destructive ones (preview/destructive.ts).
 */
import { DESTRUCTIVE_TYPES } from "../../preview/destructive";
import { isProduction } from "./gke";
import { describe, PolicyResource, stringAt } from "./values";

export const CLUSTERS_PROTECTED = "clusters-protected";
export const PRODUCTION_CLUSTERS_PROTECTED = "production-clusters-protected";

const JOIN_TYPE = "kubernetes:cluster.karmada.io/v1alpha1:Cluster";

/** What replacing or deleting a resource of each protected type takes with it, and its protect setting. */
function consequence(type: string): { takes: string; fix: string } {
  if (type === JOIN_TYPE)
    return {
      takes:
        "a change that replaces or deletes it (a new member cluster, a new name) makes Karmada remove everything it propagated to the member, IrisClusters included",
      fix: "set protect: true on the member's cluster in the stack config (e.g. clusters[0].protect), or KarmadaMember's protect arg",
    };
  return {
    takes: `a change that replaces it (e.g. ${type.startsWith("gcp:") ? "its location or a setting GKE cannot change in place" : "its node image, subnets or workers"}) or deletes it takes everything on it, IrisClusters included`,
    fix: `set protect: true on the cluster in the stack config (e.g. work.protect or clusters[0].protect), or ${type.startsWith("gcp:") ? "GkeCluster" : "KindCluster"}'s protect arg`,
  };
}

/**
 * Findings for one resource: none unless it is a cluster or join that is not protected, and the
 * stack's production tag matches `production` (the mandatory twin checks production stacks, the
 * advisory one the others).
 */
export function unprotectedClusters(
  r: PolicyResource,
  tags: ReadonlyMap<string, string>,
  production: boolean,
): string[] {
  const what = DESTRUCTIVE_TYPES[r.type];
  if (!what || r.protect === true || isProduction(tags) !== production) return [];
  const cluster = r.type === JOIN_TYPE ? stringAt(r.props, "metadata", "name") : stringAt(r.props, "name");
  const { takes, fix } = consequence(r.type);
  return [
    `${describe(r)} (${what}${cluster ? ` ${JSON.stringify(cluster)}` : ""}) is not protected: ${takes}, ` +
      `and \`up\` would do it without asking; ${fix}. Protected, such a change fails the preview instead ` +
      `(set protect false and run \`up\` to make it on purpose)`,
  ];
}
