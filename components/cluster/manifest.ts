/**
 * A Kubernetes object as the pure builders return it, and the one way a component declares a
 * custom resource from it (no casts at each call site).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";

/** The metadata the builders set. */
export interface ManifestMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A typed object of a custom resource kind: apiVersion, kind, metadata and an optional spec. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: ManifestMeta;
  spec?: object;
}

/** Declares `m` as a custom resource named `name`. */
export function customResource(
  name: string,
  m: Manifest,
  opts: pulumi.CustomResourceOptions,
): k8s.apiextensions.CustomResource {
  return new k8s.apiextensions.CustomResource(
    name,
    { apiVersion: m.apiVersion, kind: m.kind, metadata: m.metadata, spec: m.spec },
    opts,
  );
}
