/**
 * FleetTls: one CA for the whole fleet, and on each member cert-manager, the CA, a ClusterIssuer
 * of kind `ca` and one Certificate per TLS-enabled IrisCluster. Every member's certificates chain
 * to the same CA, so IRIS mirror members placed in different clusters trust each other.
 *
 * Where the CA key goes: into the stack's state (encrypted, as a Pulumi secret) and into a
 * `kubernetes.io/tls` Secret in cert-manager's namespace on each member listed here, written
 * through that member's own provider. It is never put in the Karmada API and never propagated,
 * so it reaches exactly the clusters that issue certificates.
 */
import * as k8s from "@pulumi/kubernetes";
import { CertManager } from "@pulumi/kubernetes-cert-manager";
import * as pulumi from "@pulumi/pulumi";
import { ClusterHandle, clusterOptions, customResource } from "../cluster";
import type { IrisTlsSpec } from "../iris/types";
import { ArgProblem, checkDns1123Label, checkDns1123Subdomain, checkField, throwIfArgProblems } from "../names";
import { FleetCaSource, checkFleetCaOptions, resolveCaOptions } from "./ca";
import { FleetCa } from "./ca-provider";
import {
  CERT_MANAGER_CHART_VERSION,
  CERT_MANAGER_NAMESPACE,
  FLEET_CA_NAME,
  TlsComponent,
  caSecretMeta,
  certManagerArgs,
  certificateManifest,
  clusterIssuerManifest,
  irisCertificateName,
  irisTlsSpec,
} from "./manifests";

/** A Certificate to issue on every member, for one IrisCluster. */
export interface TlsCertificateRequest {
  /** The IrisCluster's name. */
  name: string;
  /** The IrisCluster's namespace; it must exist on every member. @default "default" */
  namespace?: string;
  /** The Secret cert-manager writes (what `spec.tls` mounts). @default `<name>-tls` */
  secretName?: string;
  /** Names in the certificate. @default defaultDnsNames(name, namespace) */
  dnsNames?: string[];
}

export interface FleetTlsArgs {
  /** The clusters that issue certificates and get the CA (each through its own provider). */
  members: ClusterHandle[];
  /** The CA. @default `{generate: {}}`: generated once per stack, see FleetCaOptions for its defaults */
  ca?: FleetCaSource;
  /** Certificates issued on every member. @default none */
  certificates?: TlsCertificateRequest[];
  /**
   * Install cert-manager on each member with `@pulumi/kubernetes-cert-manager` (needs its provider
   * plugin, pulumi-resource-kubernetes-cert-manager). `false` when cert-manager is already there
   * (or, in the lab, where stand-in CRDs replace it). @default true
   */
  installCertManager?: boolean;
  /** The cert-manager chart version (pinned). @default CERT_MANAGER_CHART_VERSION ("v1.19.1") */
  certManagerVersion?: string;
  /** cert-manager's namespace, where the CA Secret goes. @default "cert-manager" */
  namespace?: string;
  /** Create that namespace on each member (deleted on destroy). @default the value of `installCertManager` */
  createNamespace?: boolean;
  /** The ClusterIssuer's name. @default "iko-plus-fleet-ca" */
  issuerName?: string;
  /** The CA Secret's name. @default "iko-plus-fleet-ca" */
  caSecretName?: string;
}

/** The fields `checkFleetTlsArgs` judges; a member only by its name. */
export type FleetTlsCheckedArgs = Partial<Omit<FleetTlsArgs, "members">> & { members?: readonly { name: string }[] };

/** A pinned chart version: x.y.z with an optional v and pre-release, no ranges, no "latest". */
const PINNED_VERSION = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/**
 * Problems of FleetTls args, as `[field, value, problem]` (`members`, `ca.generate.validityDays`,
 * `certificates[0].name`); the fleet config reports them under `fleetTls.*`. Only the fields given
 * are checked, but `members`, which must name at least one cluster, each once.
 */
export function checkFleetTlsArgs(args: FleetTlsCheckedArgs): ArgProblem[] {
  const problems: ArgProblem[] = [];
  const members = args.members ?? [];
  if (members.length === 0)
    problems.push(["members", [], "is empty; list the clusters that issue certificates, e.g. [ikoclone]"]);
  members.forEach((m, i) => {
    if (members.findIndex((o) => o.name === m.name) < i)
      problems.push(["members", m.name, "is listed twice; list each cluster once"]);
  });
  if (args.ca && "generate" in args.ca) {
    for (const [f, v, p] of checkFleetCaOptions(args.ca.generate)) problems.push([`ca.generate.${f}`, v, p]);
  }
  checkField(problems, "certManagerVersion", args.certManagerVersion, (v) => {
    if (!PINNED_VERSION.test(v))
      return `must be a pinned chart version such as ${CERT_MANAGER_CHART_VERSION} (no range, no "latest")`;
    return args.installCertManager === false
      ? "is set but installCertManager is false, so nothing installs it; remove it or set installCertManager: true"
      : undefined;
  });
  checkField(problems, "namespace", args.namespace, checkDns1123Label);
  checkField(problems, "issuerName", args.issuerName, checkDns1123Subdomain);
  checkField(problems, "caSecretName", args.caSecretName, checkDns1123Subdomain);
  const seen = new Set<string>();
  (args.certificates ?? []).forEach((c, i) => {
    const k = `certificates[${i}]`;
    checkField(problems, `${k}.name`, c.name, checkDns1123Label);
    checkField(problems, `${k}.namespace`, c.namespace, checkDns1123Label);
    checkField(problems, `${k}.secretName`, c.secretName, checkDns1123Subdomain);
    const id = `${c.namespace ?? "default"}/${c.name}`;
    if (seen.has(id))
      problems.push([
        `${k}.name`,
        c.name,
        `is listed twice in namespace ${c.namespace ?? "default"}; request each certificate once`,
      ]);
    seen.add(id);
  });
  return problems;
}

interface MemberTlsArgs {
  member: ClusterHandle;
  caCertificate: pulumi.Input<string>;
  caPrivateKey: pulumi.Input<string>;
  certificates: (TlsCertificateRequest & { namespace: string })[];
  installCertManager: boolean;
  certManagerVersion: string;
  namespace: string;
  createNamespace: boolean;
  issuerName: string;
  caSecretName: string;
}

/** What FleetTls puts into one member. */
export class MemberTls extends pulumi.ComponentResource {
  declare public readonly certManager: CertManager | undefined;
  declare public readonly caSecret: k8s.core.v1.Secret;
  declare public readonly issuer: k8s.apiextensions.CustomResource;
  /** Certificates by `namespace/name` of their IrisCluster. */
  declare public readonly certificates: Record<string, k8s.apiextensions.CustomResource>;

  constructor(name: string, args: MemberTlsArgs, opts?: pulumi.ComponentResourceOptions) {
    super("iko-plus:tls:MemberTls", name, {}, opts);
    const h = args.member;
    const ns = args.createNamespace
      ? [new k8s.core.v1.Namespace(`${name}-ns`, { metadata: { name: args.namespace } }, clusterOptions(this, h))]
      : [];
    this.certManager = args.installCertManager
      ? new CertManager(
          `${name}-cert-manager`,
          certManagerArgs({ version: args.certManagerVersion, namespace: args.namespace }),
          { parent: this, providers: [h.provider], dependsOn: [...h.readyGate, ...ns] },
        )
      : undefined;
    const cm = this.certManager ? [this.certManager] : [];
    this.caSecret = new k8s.core.v1.Secret(
      `${name}-ca`,
      {
        ...caSecretMeta(args.caSecretName, args.namespace),
        stringData: pulumi.secret({
          "tls.crt": pulumi.output(args.caCertificate),
          "tls.key": pulumi.output(args.caPrivateKey),
          "ca.crt": pulumi.output(args.caCertificate),
        }),
      },
      clusterOptions(this, h, ns),
    );
    // cert-manager's webhook must serve before its objects are created: after the release.
    this.issuer = customResource(
      `${name}-issuer`,
      clusterIssuerManifest(args.issuerName, args.caSecretName),
      clusterOptions(this, h, [this.caSecret, ...cm]),
    );
    this.certificates = {};
    for (const c of args.certificates) {
      const m = certificateManifest({
        irisName: c.name,
        namespace: c.namespace,
        issuerName: args.issuerName,
        secretName: c.secretName,
        dnsNames: c.dnsNames,
      });
      this.certificates[`${c.namespace}/${c.name}`] = customResource(
        `${name}-${c.namespace}-${c.name}-cert`,
        m,
        clusterOptions(this, h, [this.issuer, ...cm]),
      );
    }
    this.registerOutputs({ issuer: args.issuerName });
  }
}

export class FleetTls extends pulumi.ComponentResource {
  /** The generated CA, when the CA is generated. */
  declare public readonly ca: FleetCa | undefined;
  /** The CA certificate (PEM, public): what every member trusts. */
  declare public readonly caCertificate: pulumi.Output<string>;
  /** The cert-manager ClusterIssuer's name on every member. */
  declare public readonly issuerName: string;
  /** The name of the Secret holding the CA on every member. */
  declare public readonly caSecretName: string;
  /** cert-manager's namespace on every member. */
  declare public readonly namespace: string;
  /** Per member, by cluster name. */
  declare public readonly members: Record<string, MemberTls>;
  /** The issued Secret's name by `namespace/name` of its IrisCluster. */
  declare public readonly secretNames: Record<string, string>;

  constructor(name: string, args: FleetTlsArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("FleetTls", name, checkFleetTlsArgs(args));
    super("iko-plus:tls:FleetTls", name, {}, opts);
    const source = args.ca ?? { generate: {} };
    let cert: pulumi.Output<string>;
    let key: pulumi.Output<string>;
    if ("generate" in source) {
      this.ca = new FleetCa(`${name}-ca`, resolveCaOptions(source.generate), { parent: this });
      cert = this.ca.certPem;
      key = pulumi.secret(this.ca.keyPem);
    } else {
      this.ca = undefined;
      // The certificate is public even when it came from secret config.
      cert = pulumi.unsecret(pulumi.output(source.certificatePem));
      key = pulumi.secret(source.privateKeyPem);
    }
    this.caCertificate = cert;
    this.issuerName = args.issuerName ?? FLEET_CA_NAME;
    this.caSecretName = args.caSecretName ?? FLEET_CA_NAME;
    this.namespace = args.namespace ?? CERT_MANAGER_NAMESPACE;
    const installCertManager = args.installCertManager ?? true;
    const certificates = (args.certificates ?? []).map((c) => ({ ...c, namespace: c.namespace ?? "default" }));
    this.secretNames = {};
    for (const c of certificates)
      this.secretNames[`${c.namespace}/${c.name}`] = c.secretName ?? irisCertificateName(c.name);
    this.members = {};
    for (const m of args.members) {
      this.members[m.name] = new MemberTls(
        `${name}-${m.name}`,
        {
          member: m,
          caCertificate: cert,
          caPrivateKey: key,
          certificates,
          installCertManager,
          certManagerVersion: args.certManagerVersion ?? CERT_MANAGER_CHART_VERSION,
          namespace: this.namespace,
          createNamespace: args.createNamespace ?? installCertManager,
          issuerName: this.issuerName,
          caSecretName: this.caSecretName,
        },
        { parent: this },
      );
    }
    this.registerOutputs({ caCertificate: this.caCertificate, issuerName: this.issuerName });
  }

  /** `spec.tls` for an IrisCluster this FleetTls issues a certificate for. */
  tlsSpec(irisName: string, namespace: string, components: readonly TlsComponent[]): IrisTlsSpec {
    const secretName = this.secretNames[`${namespace}/${irisName}`];
    if (secretName === undefined)
      throw new Error(`FleetTls: no certificate for IrisCluster ${namespace}/${irisName}; add it to certificates`);
    return irisTlsSpec(components, secretName);
  }
}
