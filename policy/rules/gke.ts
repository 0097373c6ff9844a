/**
 * Rule `production-gke-deletion-protection`: in a stack marked production, every GKE cluster
 * (`gcp:container/cluster:Cluster`) keeps deletion protection on.
 *
 * A stack is marked production by the stack tag `iko-plus:environment` = `production`
 * (`pulumi stack tag set iko-plus:environment production`; on Pulumi Cloud also through the
 * stack config `pulumi:tags`). Policy packs see stack tags, not stack config.
 * `deletionProtection` unset means the provider's default, which is on (true).
 */
import { describe, PolicyResource, reveal, stringAt, UNKNOWN } from "./values";

export const PRODUCTION_GKE_DELETION_PROTECTION = "production-gke-deletion-protection";

export const ENVIRONMENT_TAG = "iko-plus:environment";
export const GKE_CLUSTER_TYPE = "gcp:container/cluster:Cluster";

/** Whether the stack tags mark a production stack. */
export function isProduction(tags: ReadonlyMap<string, string>): boolean {
  return tags.get(ENVIRONMENT_TAG) === "production";
}

/** Findings of the rule for one resource's inputs. */
export function unprotectedProductionGke(r: PolicyResource, tags: ReadonlyMap<string, string>): string[] {
  if (r.type !== GKE_CLUSTER_TYPE || !isProduction(tags)) return [];
  const dp = reveal(r.props.deletionProtection);
  if (dp === undefined || dp === UNKNOWN || dp === true) return [];
  const cluster = stringAt(r.props, "name") ?? r.name;
  return [
    `${describe(r)} (GKE cluster ${JSON.stringify(cluster)}): input deletionProtection is ${JSON.stringify(dp)} in a production stack ` +
      `(stack tag ${ENVIRONMENT_TAG}=production); set deletionProtection to true (config clusters[].gke.deletionProtection: true), ` +
      `or remove the tag if this stack is not production`,
  ];
}
