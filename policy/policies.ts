/**
 * The iko-plus policies, each wired to its pure rule in policy/rules/ (index.ts makes them a pack).
 * Every policy is mandatory (a violation fails the preview or update) but `clusters-protected`,
 * which is advisory (a warning) and has a mandatory twin for production-tagged stacks.
 */
import {
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { CILIUM_MESH_UNIQUE_CLUSTERS, duplicateMeshClusters } from "./rules/cilium-mesh";
import { NO_PLAIN_CREDENTIALS, plainCredentials } from "./rules/credentials";
import { PRODUCTION_GKE_DELETION_PROTECTION, unprotectedProductionGke } from "./rules/gke";
import { PINNED_IMAGES, unpinnedImages } from "./rules/images";
import { REMOTE_IKO_WEBHOOKS_OFF, remoteIkoWebhooks } from "./rules/iko-webhooks";
import { LICENSED_IRIS_NEEDS_LICENSE_KEY, missingLicenseKeys } from "./rules/license";
import { PLACEMENT_NAMES_JOINED_CLUSTERS, unjoinedPlacements } from "./rules/placement";
import { CLUSTERS_PROTECTED, PRODUCTION_CLUSTERS_PROTECTED, unprotectedClusters } from "./rules/protection";
import { PolicyResource, StackFinding } from "./rules/values";
import { policyResource } from "./sdk";

/** A resource policy's check: every message it returns is one violation. */
export function resourceRule(check: (r: PolicyResource, args: ResourceValidationArgs) => string[]) {
  return (args: ResourceValidationArgs, report: ReportViolation): void => {
    for (const message of check(policyResource(args), args)) report(message);
  };
}

/** A stack policy's check: every finding is one violation, reported on its resource. */
export function stackRule(check: (resources: PolicyResource[]) => StackFinding[]) {
  return (args: StackValidationArgs, report: ReportViolation): void => {
    for (const f of check(args.resources.map(policyResource))) report(f.message, f.urn);
  };
}

/** The pack's policies; docs/policy.md describes each. */
export function ikoPlusPolicies(): (ResourceValidationPolicy | StackValidationPolicy)[] {
  return [
    {
      name: NO_PLAIN_CREDENTIALS,
      description: "No kubeconfig, token or private key in an input that is not a Pulumi secret.",
      validateResource: resourceRule((r) => plainCredentials(r)),
    },
    {
      name: PINNED_IMAGES,
      description: "No container image without a tag or with the tag latest.",
      validateResource: resourceRule((r) => unpinnedImages(r)),
    },
    {
      name: LICENSED_IRIS_NEEDS_LICENSE_KEY,
      description: "An IrisCluster with a licensed IRIS image names a license key Secret declared in the stack.",
      validateStack: stackRule(missingLicenseKeys),
    },
    {
      name: PLACEMENT_NAMES_JOINED_CLUSTERS,
      description: "Karmada placements and overrides name only clusters joined in the stack.",
      validateStack: stackRule(unjoinedPlacements),
    },
    {
      name: REMOTE_IKO_WEBHOOKS_OFF,
      description: "A remote (works-from-home) IKO release has both admission webhooks off.",
      validateResource: resourceRule((r) => remoteIkoWebhooks(r)),
    },
    {
      name: PRODUCTION_GKE_DELETION_PROTECTION,
      description: "GKE clusters keep deletion protection on in stacks tagged iko-plus:environment=production.",
      validateResource: resourceRule((r, args) => unprotectedProductionGke(r, args.stackTags)),
    },
    {
      name: CLUSTERS_PROTECTED,
      description:
        "kind and GKE clusters and Karmada joins are protected, so a change that would replace or delete them (and everything on them) fails the preview.",
      enforcementLevel: "advisory",
      validateResource: resourceRule((r, args) => unprotectedClusters(r, args.stackTags, false)),
    },
    {
      name: PRODUCTION_CLUSTERS_PROTECTED,
      description:
        "In stacks tagged iko-plus:environment=production, kind and GKE clusters and Karmada joins are protected.",
      validateResource: resourceRule((r, args) => unprotectedClusters(r, args.stackTags, true)),
    },
    {
      name: CILIUM_MESH_UNIQUE_CLUSTERS,
      description: "The Cilium releases of a ClusterMesh each have their own cluster id and name.",
      validateStack: stackRule(duplicateMeshClusters),
    },
  ];
}
