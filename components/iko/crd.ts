/**
 * Pure helpers for the IrisCluster CRD: load it from a manifest and strip server-set fields.
 */
import * as fs from "fs";
import type * as k8s from "@pulumi/kubernetes";
import * as YAML from "yaml";
import { ManifestMeta } from "../cluster/manifest";

export const IRISCLUSTER_CRD = "irisclusters.intersystems.com";

type Obj = Record<string, unknown>;

/**
 * A CustomResourceDefinition as `cleanCrd` returns it. Its spec is carried as the file or cluster
 * gave it (typed as the CRD spec the resource takes; the API server judges it), its metadata as
 * given less what the API server sets.
 */
export interface CrdManifest {
  apiVersion: "apiextensions.k8s.io/v1";
  kind: "CustomResourceDefinition";
  metadata: ManifestMeta & { [field: string]: unknown };
  spec: k8s.types.input.apiextensions.v1.CustomResourceDefinitionSpec;
}

/** Metadata fields the API server sets; a copied CRD must not carry them. */
const SERVER_SET_METADATA = [
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "managedFields",
  "selfLink",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "ownerReferences",
];
const SERVER_SET_ANNOTATIONS = ["kubectl.kubernetes.io/last-applied-configuration"];

/** A CRD as it should be created elsewhere: apiVersion, kind, clean metadata, spec; no status. */
export function cleanCrd(crd: Obj): CrdManifest {
  const metadata: Obj = { ...((crd.metadata as Obj) ?? {}) };
  for (const k of SERVER_SET_METADATA) delete metadata[k];
  if (metadata.annotations) {
    const ann: Obj = { ...(metadata.annotations as Obj) };
    for (const k of SERVER_SET_ANNOTATIONS) delete ann[k];
    for (const k of Object.keys(ann)) if (k.startsWith("pulumi.com/")) delete ann[k];
    if (Object.keys(ann).length === 0) delete metadata.annotations;
    else metadata.annotations = ann;
  }
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: metadata as CrdManifest["metadata"],
    spec: crd.spec as CrdManifest["spec"],
  };
}

/** Finds CRD `name` in a YAML stream (one or more documents). */
export function crdFromYaml(text: string, name: string, source: string): CrdManifest {
  const docs = YAML.parseAllDocuments(text);
  for (const doc of docs) {
    if (doc.errors.length > 0)
      throw new Error(
        `${source} is not valid YAML (${doc.errors[0].message}); pass a CRD manifest such as \`kubectl get crd ${name} -o yaml\` writes`,
      );
    const obj = doc.toJS() as Obj | null;
    if (obj && obj.kind === "CustomResourceDefinition" && (obj.metadata as Obj | undefined)?.name === name)
      return cleanCrd(obj);
  }
  throw new Error(
    `${source} holds no CustomResourceDefinition named ${name}; export it with \`kubectl get crd ${name} -o yaml\``,
  );
}

/** A CRD manifest file that must exist (CrdMirror's manifestPath, a remote operator's CRD). */
export function checkCrdManifestPath(path: string, crdName: string = IRISCLUSTER_CRD): string | undefined {
  return fs.existsSync(path) ? undefined : `does not exist; point it at a YAML file holding the ${crdName} CRD`;
}

/** Reads CRD `name` from a manifest file, with one clear error when the file is missing. */
export function loadCrdManifest(path: string, name: string, key: string): CrdManifest {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(
      `${key}: cannot read CRD manifest "${path}" (${(err as NodeJS.ErrnoException).code ?? "unreadable"}); point it at a readable YAML file holding ${name}`,
    );
  }
  return crdFromYaml(text, name, `${key} ("${path}")`);
}
