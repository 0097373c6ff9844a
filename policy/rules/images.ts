/**
 * Rule `pinned-images`: no container image without a tag, or with the tag `latest` (a digest
 * `@sha256:…` pins too). Looked for in every input of every resource:
 * - string fields named `image` or ending in `Image` (`nodeImage`, `kubectlImage`): containers
 *   and init containers of Pods, Deployments, StatefulSets, DaemonSets, Jobs, CronJobs…;
 *   IrisCluster topology images; kind node images; Helm values such as `{image: "repo:tag"}`;
 * - Helm-values style objects `{repository, tag}` (also with `registry`), when `tag` is given
 *   (when it is not, the chart's own default applies, which this rule cannot see).
 * ConfigMaps and Secrets are not looked at (their data is free-form).
 */
import { ImagePinProblem, imagePinProblem, pinProblemOf, splitImageRef } from "../../components/names/images";
import {
  describe,
  isObject,
  joinPath,
  leaves,
  PolicyObject,
  PolicyResource,
  PolicyValue,
  reveal,
  SecretValue,
  UNKNOWN,
} from "./values";

export const PINNED_IMAGES = "pinned-images";

export type ImageProblem = ImagePinProblem;

/** What is wrong with an image reference: no tag, the tag `latest`, or nothing (tag or digest). */
export const imageProblem: (ref: string) => ImageProblem | undefined = imagePinProblem;

/** The repository part of a reference (without tag or digest), for the fix example. */
function repository(ref: string): string {
  return splitImageRef(ref).name;
}

const IMAGE_KEY = /^image$|[a-z0-9]Image$/;

function problemText(problem: ImageProblem): string {
  return problem === "untagged" ? "has no tag (an untagged image means latest)" : 'uses the tag "latest"';
}

/** `{repository, tag}` objects (Helm values) anywhere under a value, with their paths. */
function repositoryTagObjects(v: PolicyValue, path: string, out: { path: string; obj: PolicyObject }[]): void {
  const x = reveal(v);
  if (Array.isArray(x)) x.forEach((e, i) => repositoryTagObjects(e, joinPath(path, i), out));
  else if (isObject(x)) {
    if (typeof reveal(x.repository) === "string" && "tag" in x) out.push({ path, obj: x });
    for (const [k, e] of Object.entries(x)) repositoryTagObjects(e, joinPath(path, k), out);
  }
}

/** ConfigMaps and Secrets hold free-form data: an `image` key there is data, not a container. */
function freeFormData(r: PolicyResource): boolean {
  return /^kubernetes:core\/v1:(Secret|ConfigMap)(Patch)?$/.test(r.type);
}

/** Findings of `pinned-images` for one resource's inputs. */
export function unpinnedImages(r: PolicyResource): string[] {
  if (freeFormData(r)) return [];
  const out: string[] = [];
  for (const leaf of leaves(r.props)) {
    if (typeof leaf.value !== "string" || leaf.value === "" || !IMAGE_KEY.test(leaf.key)) continue;
    const problem = imageProblem(leaf.value);
    if (!problem) continue;
    const shown = leaf.secret ? "[secret]" : JSON.stringify(leaf.value);
    out.push(
      `${describe(r)}: input ${leaf.path} is ${shown}, which ${problemText(problem)}; ` +
        `pin a version tag or a digest, e.g. "${leaf.secret ? "<repository>" : repository(leaf.value)}:<version>" or "…@sha256:<digest>"`,
    );
  }
  const objects: { path: string; obj: PolicyObject }[] = [];
  repositoryTagObjects(r.props, "", objects);
  for (const { path, obj } of objects) {
    const tag = reveal(obj.tag);
    if (tag === UNKNOWN || (tag !== null && typeof tag !== "string") || obj.tag instanceof SecretValue) continue;
    const problem = pinProblemOf({ tag: tag ?? undefined });
    if (!problem) continue;
    const repo = [reveal(obj.registry), reveal(obj.repository)]
      .filter((s) => typeof s === "string" && s !== "")
      .join("/");
    const tagPath = joinPath(path, "tag");
    out.push(
      `${describe(r)}: input ${tagPath} is ${JSON.stringify(tag)} for image ${JSON.stringify(repo)}, which ${problemText(problem)}; ` +
        `set ${tagPath} to a version tag (not "latest")`,
    );
  }
  return out;
}
