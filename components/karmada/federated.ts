/**
 * FederatedIrisCluster: an IrisCluster template in the Karmada API with its PropagationPolicy,
 * per-cluster OverridePolicies and the Secrets/ConfigMaps it references (selected by the same
 * policy, so they reach exactly the IrisCluster's members without the PropagateDeps gate, which
 * the Karmada chart turns off). FleetSecret: one Secret in Karmada propagated to chosen members.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { onCluster } from "../cluster/handle";
import { customResource } from "../cluster/manifest";
import {
  IRIS_LICENSE_KEY,
  IrisCluster,
  IrisClusterSpec,
  checkIrisClusterRef,
  licenseKeySecretRef,
  licenseSecretName,
} from "../iris";
import { ArgProblem, checkDns1123Label, checkDns1123Subdomain, checkField, throwIfArgProblems } from "../names";
import { checkFailover, checkOverrides, checkPlacement } from "./checks";
import { KarmadaHandle } from "./control-plane";
import { irisClusterInterpreter } from "./interpreter";
import {
  Failover,
  PlaintextOverride,
  Placement,
  ResourceSelector,
  overridePolicy,
  propagationPolicy,
} from "./policies";
import { ClusterTarget } from "./selectors";

/** Objects in the Karmada API are templates: Pulumi must not wait for readiness Karmada never reports there. */
const TEMPLATE_ANNOTATIONS = { "pulumi.com/skipAwait": "true" };

export interface IrisOverride {
  /** OverridePolicy name. @default `<name>-override-<index>` */
  name?: string;
  /** The members it applies to. */
  target: ClusterTarget;
  /** The changes, e.g. `{path: "/spec/storageClassName", operator: "add", value: "standard-rwo"}`. */
  plaintext: PlaintextOverride[];
}

export interface FederatedIrisClusterArgs {
  /** The Karmada control plane the template and its policies go into. */
  karmada: KarmadaHandle;
  /** The IrisCluster (apiVersion, kind, metadata.name/namespace, spec), e.g. from irisClusterManifest. */
  irisCluster: IrisCluster;
  /** PropagationPolicy name. @default `<name>-propagate` */
  policyName?: string;
  /** Where clones go. */
  placement: Placement;
  /**
   * When Karmada moves clones off a member (the policy's `spec.failover`); with ordered
   * `placement.affinities` they move to the next group (disaster recovery). @default none
   */
  failover?: Failover;
  /** Per-cluster differences. @default none */
  overrides?: IrisOverride[];
  /**
   * An IRIS license key (secret): becomes Secret `<name>-license` (key `iris.key`) in Karmada,
   * referenced by `spec.licenseKeySecret` and propagated with the IrisCluster. @default none
   */
  licenseKey?: pulumi.Input<string>;
  /** Existing Secrets in Karmada (same namespace) to propagate with the IrisCluster. @default none */
  secrets?: string[];
  /** Existing ConfigMaps in Karmada (same namespace) to propagate with the IrisCluster. @default none */
  configMaps?: string[];
  /** What must exist first and be deleted last (the IrisCluster CRD in Karmada, the joins). @default nothing */
  dependsOn?: pulumi.Resource[];
}

/** The fields `checkFederatedIrisClusterArgs` judges; of the IrisCluster only its name and namespace. */
export type FederatedIrisClusterCheckedArgs = Partial<
  Pick<FederatedIrisClusterArgs, "policyName" | "placement" | "failover" | "overrides" | "secrets" | "configMaps">
> & { irisCluster?: { metadata?: { name?: unknown; namespace?: unknown } } };

/**
 * Problems of FederatedIrisCluster args, as `[field, value, problem]` (`irisCluster.metadata.name`,
 * `policyName`, `placement.labels.region`, `overrides[0].plaintext[0].path`, `failover.application.
 * gracePeriodSeconds`, `secrets[1]`); the fleet config reports them under `federatedIrisClusters[i].*`.
 * The constructor passes the default policy name when none is set. Whether the members a placement
 * names are joined is the stack's rule.
 */
export function checkFederatedIrisClusterArgs(args: FederatedIrisClusterCheckedArgs): ArgProblem[] {
  const problems: ArgProblem[] = [];
  if (args.irisCluster !== undefined)
    problems.push(
      ...checkIrisClusterRef(
        args.irisCluster.metadata ?? {},
        "irisCluster.metadata.name",
        "irisCluster.metadata.namespace",
      ),
    );
  checkField(problems, "policyName", args.policyName, checkDns1123Label);
  if (args.placement) problems.push(...checkPlacement(args.placement));
  if (args.failover) problems.push(...checkFailover(args.failover));
  problems.push(...checkOverrides(args.overrides ?? []));
  (args.overrides ?? []).forEach((o, i) => checkField(problems, `overrides[${i}].name`, o.name, checkDns1123Label));
  for (const field of ["secrets", "configMaps"] as const)
    (args[field] ?? []).forEach((n, i) => checkField(problems, `${field}[${i}]`, n, checkDns1123Subdomain));
  return problems;
}

export class FederatedIrisCluster extends pulumi.ComponentResource {
  /** The IrisCluster template in the Karmada API. */
  declare public readonly template: k8s.apiextensions.CustomResource;
  /** Its PropagationPolicy. */
  declare public readonly policy: k8s.apiextensions.CustomResource;
  /** The PropagationPolicy's name. */
  declare public readonly policyName: string;

  constructor(name: string, args: FederatedIrisClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    const ic = args.irisCluster;
    const md = ic.metadata;
    const policyName = args.policyName ?? `${md.name}-propagate`;
    throwIfArgProblems("FederatedIrisCluster", name, checkFederatedIrisClusterArgs({ ...args, policyName }));
    super("iko-plus:karmada:FederatedIrisCluster", name, {}, opts);
    const namespace = md.namespace ?? "default";
    this.policyName = policyName;
    const base = { parent: this, ...onCluster(args.karmada) };
    const deps = [...args.karmada.readyGate, ...(args.dependsOn ?? [])];
    const spec: IrisClusterSpec = { ...ic.spec };
    const selectors: ResourceSelector[] = [{ apiVersion: ic.apiVersion, kind: ic.kind, name: md.name }];
    const depObjects: pulumi.Resource[] = [];
    if (args.licenseKey !== undefined) {
      const secretName = licenseSecretName(md.name);
      spec.licenseKeySecret = licenseKeySecretRef(secretName);
      depObjects.push(
        new k8s.core.v1.Secret(
          `${name}-license`,
          {
            metadata: { name: secretName, namespace },
            stringData: { [IRIS_LICENSE_KEY]: pulumi.secret(args.licenseKey) },
          },
          { ...base, dependsOn: deps },
        ),
      );
      selectors.push({ apiVersion: "v1", kind: "Secret", name: secretName });
    }
    for (const s of args.secrets ?? []) selectors.push({ apiVersion: "v1", kind: "Secret", name: s });
    for (const c of args.configMaps ?? []) selectors.push({ apiVersion: "v1", kind: "ConfigMap", name: c });
    const policy = propagationPolicy({
      name: this.policyName,
      namespace,
      resourceSelectors: selectors,
      placement: args.placement,
      failover: args.failover,
    });
    this.policy = customResource(`${name}-policy`, policy, { ...base, dependsOn: deps });
    const overrides = (args.overrides ?? []).map((o, i) => {
      const op = overridePolicy({
        name: o.name ?? `${md.name}-override-${i}`,
        namespace,
        resourceSelectors: [selectors[0]],
        target: o.target,
        plaintext: o.plaintext,
      });
      return customResource(`${name}-override-${i}`, op, { ...base, dependsOn: deps });
    });
    // The template last: on destroy it goes first, while policies and members still exist.
    this.template = new k8s.apiextensions.CustomResource(
      `${name}-template`,
      {
        apiVersion: ic.apiVersion,
        kind: ic.kind,
        metadata: { name: md.name, namespace, annotations: TEMPLATE_ANNOTATIONS },
        spec,
      },
      { ...base, dependsOn: [...deps, this.policy, ...overrides, ...depObjects] },
    );
    this.registerOutputs({ policyName: this.policyName });
  }
}

export interface FleetSecretArgs {
  /** The Karmada control plane the Secret and its policy go into. */
  karmada: KarmadaHandle;
  /** The Secret's name, in Karmada and on every member it goes to. */
  name: string;
  /** The Secret's namespace. @default "default" */
  namespace?: string;
  /** The Secret's data (string values); stored as a Pulumi secret. */
  data: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** The members that get it. */
  placement: Placement;
  /** What must exist first and be deleted last (the joins). @default nothing */
  dependsOn?: pulumi.Resource[];
}

/**
 * Problems of FleetSecret args, as `[field, value, problem]`: the Secret's name and namespace, and
 * a placement that sends it somewhere (the fleet config reports them under `fleetSecrets[i].*`).
 */
export function checkFleetSecretArgs(
  args: Partial<Pick<FleetSecretArgs, "name" | "namespace" | "placement">>,
): ArgProblem[] {
  const problems: ArgProblem[] = [];
  checkField(problems, "name", args.name, checkDns1123Label);
  checkField(problems, "namespace", args.namespace, checkDns1123Label);
  if (args.placement)
    problems.push(
      ...checkPlacement(
        args.placement,
        "placement",
        "sends the Secret nowhere; set clusterNames, labels or matchExpressions",
      ),
    );
  return problems;
}

export class FleetSecret extends pulumi.ComponentResource {
  /** The Secret in the Karmada API. */
  declare public readonly secret: k8s.core.v1.Secret;
  /** Its PropagationPolicy. */
  declare public readonly policy: k8s.apiextensions.CustomResource;

  constructor(name: string, args: FleetSecretArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("FleetSecret", name, checkFleetSecretArgs(args));
    super("iko-plus:karmada:FleetSecret", name, {}, opts);
    const namespace = args.namespace ?? "default";
    const deps = [...args.karmada.readyGate, ...(args.dependsOn ?? [])];
    const base = { parent: this, ...onCluster(args.karmada) };
    const p = propagationPolicy({
      name: `${args.name}-propagate`,
      namespace,
      resourceSelectors: [{ apiVersion: "v1", kind: "Secret", name: args.name }],
      placement: args.placement,
    });
    this.policy = customResource(`${name}-policy`, p, { ...base, dependsOn: deps });
    this.secret = new k8s.core.v1.Secret(
      `${name}-secret`,
      {
        metadata: { name: args.name, namespace },
        type: "Opaque",
        stringData: pulumi.secret(args.data),
      },
      { ...base, dependsOn: [...deps, this.policy] },
    );
    this.registerOutputs({ name: args.name });
  }
}

/** The IrisCluster ResourceInterpreterCustomization in the Karmada API. */
export function declareIrisInterpreter(
  name: string,
  karmada: KarmadaHandle,
  parent?: pulumi.Resource,
): k8s.apiextensions.CustomResource {
  return customResource(name, irisClusterInterpreter(), {
    parent,
    ...onCluster(karmada),
    dependsOn: karmada.readyGate,
  });
}
