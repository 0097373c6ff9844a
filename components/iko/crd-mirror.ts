/**
 * CrdMirror: makes a CRD exist on a target cluster, copied from a source cluster or taken from a
 * manifest file. It is applied with server-side apply and force, so it coexists with an operator
 * that registers the same CRD (whoever writes last owns the fields; nobody fails).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions } from "../cluster/handle";
import { ArgProblem, checkDns1123Subdomain, checkField, throwIfArgProblems } from "../names";
import { IRISCLUSTER_CRD, checkCrdManifestPath, loadCrdManifest } from "./crd";

export interface CrdMirrorArgs {
  /** The cluster (or Karmada API) the CRD must exist on: its provider and ready gate. */
  target: Pick<ClusterHandle, "provider" | "readyGate" | "identity">;
  /** The CRD's name. @default irisclusters.intersystems.com */
  crdName?: string;
  /** A manifest file holding the CRD. One of `manifestPath` and `sourceCluster` is required. */
  manifestPath?: string;
  /** A cluster to copy the live CRD from. One of `manifestPath` and `sourceCluster` is required. */
  sourceCluster?: ClusterHandle;
  /** What must exist before the CRD can be read from the source (e.g. the operator). @default nothing */
  sourceDependsOn?: pulumi.Resource[];
}

/** The fields `checkCrdMirrorArgs` judges; `sourceCluster` only says whether one is given. */
export interface CrdMirrorCheckedArgs {
  crdName?: string;
  manifestPath?: string;
  sourceCluster?: unknown;
}

/** A CRD's name: `<plural>.<group>`, a DNS-1123 subdomain with at least one dot. */
function checkCrdName(name: string): string | undefined {
  return (
    checkDns1123Subdomain(name) ??
    (name.includes(".") ? undefined : "is not a CRD name; use <plural>.<group>, e.g. irisclusters.intersystems.com")
  );
}

/**
 * Problems of CrdMirror args, as `[field, value, problem]`: a CRD name as Kubernetes takes it,
 * exactly one of `manifestPath` and `sourceCluster`, and a manifest file that exists (the fleet and
 * region configs report it under `iko.crdManifestPath`).
 */
export function checkCrdMirrorArgs(args: CrdMirrorCheckedArgs): ArgProblem[] {
  const problems: ArgProblem[] = [];
  checkField(problems, "crdName", args.crdName, checkCrdName);
  if (args.manifestPath !== undefined && args.sourceCluster !== undefined) {
    problems.push([
      "manifestPath",
      args.manifestPath,
      "is set together with sourceCluster; give exactly one of manifestPath and sourceCluster",
    ]);
  } else if (args.manifestPath === undefined && args.sourceCluster === undefined) {
    problems.push([
      "manifestPath",
      undefined,
      "is required unless sourceCluster is given; give exactly one of manifestPath and sourceCluster",
    ]);
  } else {
    checkField(problems, "manifestPath", args.manifestPath, (p) => checkCrdManifestPath(p, args.crdName));
  }
  return problems;
}

export class CrdMirror extends pulumi.ComponentResource {
  /** The CRD on the target cluster. */
  declare public readonly crd: k8s.apiextensions.v1.CustomResourceDefinition;

  constructor(name: string, args: CrdMirrorArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("CrdMirror", name, checkCrdMirrorArgs(args));
    super("iko-plus:iko:CrdMirror", name, {}, opts);
    const crdName = args.crdName ?? IRISCLUSTER_CRD;
    let spec: pulumi.Input<k8s.types.input.apiextensions.v1.CustomResourceDefinitionSpec>;
    let labels: pulumi.Input<Record<string, string>> | undefined;
    if (args.manifestPath !== undefined) {
      const crd = loadCrdManifest(args.manifestPath, crdName, `CrdMirror "${name}" manifestPath`);
      spec = crd.spec;
      labels = crd.metadata.labels;
    } else {
      const source = args.sourceCluster as ClusterHandle;
      const live = k8s.apiextensions.v1.CustomResourceDefinition.get(`${name}-source`, crdName, {
        parent: this,
        provider: source.provider,
        dependsOn: [...source.readyGate, ...(args.sourceDependsOn ?? [])],
      });
      spec = live.spec.apply((s): k8s.types.input.apiextensions.v1.CustomResourceDefinitionSpec => s);
      labels = live.metadata.labels;
    }
    this.crd = new k8s.apiextensions.v1.CustomResourceDefinition(
      `${name}-crd`,
      {
        metadata: { name: crdName, labels, annotations: { "pulumi.com/patchForce": "true" } },
        spec,
      },
      clusterOptions(this, args.target),
    );
    this.registerOutputs({ name: this.crd.metadata.name });
  }
}
