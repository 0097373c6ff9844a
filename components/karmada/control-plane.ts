/**
 * KarmadaControlPlane: the Karmada API, either installed by Helm on a host cluster or given by
 * kubeconfig (an existing Karmada, such as the lab's). Either way it is exposed as a secret
 * kubeconfig and a provider for the Karmada API.
 */
import * as fs from "fs";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import {
  ClusterHandle,
  KUBECONFIG_REACH_HINT,
  checkKubeconfigSource,
  clusterIdentity,
  clusterOptions,
  hostedIdentity,
  withoutDependencies,
  readKubeconfigFile,
  whenReachable,
} from "../cluster";
import { kubeconfigCredentials, parseKubeconfig, rewriteServer } from "../kubeconfig";
import {
  DEFAULT_API_READY_TIMEOUT_SECONDS,
  KARMADA_API_GROUPS,
  KARMADA_APISERVER_GROUPS,
  KARMADA_CONTROLLER_LEASES,
  KarmadaApiReady,
  releaseRevision,
} from "./api-ready";
import {
  ArgProblem,
  chartImageValues,
  checkField,
  checkImageRef,
  checkNodePort,
  checkWholeNumber,
  throwIfArgProblems,
} from "../names";
import { DEFAULT_POSTRENDER_DIR, writePostRenderer } from "../postrender/wrapper";
import { ProbeTiming, karmadaPostRenderPatch } from "./postrender";
import {
  KARMADA_CHART_REPO,
  KARMADA_CHART_VERSION,
  KARMADA_IMAGE_KEYS,
  KARMADA_NAMESPACE,
  KARMADA_RELEASE,
  KarmadaImages,
  endpointHost,
  karmadaValues,
  parseChartVersion,
} from "./values";

/** What other components need of a Karmada API. */
export interface KarmadaHandle {
  /** Kubeconfig of the Karmada API valid from the Pulumi host (the recipe's "ikokamino"). Secret. */
  readonly kubeconfig: pulumi.Output<string>;
  /** The Karmada API server URL. */
  readonly endpoint: pulumi.Output<string>;
  /** A provider for the Karmada API. */
  readonly provider: k8s.Provider;
  /**
   * The Karmada API's identity: new exactly when its host is (a new host runs a new, empty
   * Karmada); an existing Karmada's from its CA. Stamped on every object put in it.
   */
  readonly identity: pulumi.Output<string>;
  /**
   * The Karmada version its control plane runs, e.g. `v1.18.2`: in Helm mode the chart's version.
   * A Pull member's karmada-agent defaults to the same version, so a Karmada upgrade moves the
   * agents with it. Not known (undefined) for an existing Karmada.
   */
  readonly version?: string;
  /** What must exist before objects go into the Karmada API. */
  readonly readyGate: pulumi.Resource[];
  /**
   * What must exist before CRDs go into the Karmada API: only its apiserver answering, which in
   * Helm mode comes before the controllers run. A CRD there before the controller-manager starts is
   * seen by its first resource discovery instead of one up to 30 s later. Never later than `readyGate`.
   */
  readonly apiGate: pulumi.Resource[];
}

export interface KarmadaHelmArgs {
  /** The host cluster. */
  host: ClusterHandle;
  /**
   * The Karmada API as reached from the Pulumi host, e.g. `https://127.0.0.1:32443` when kind maps
   * host port 32443 to the NodePort. Its host goes into the certificate before the first install.
   */
  endpoint: string;
  /** NodePort of the karmada-apiserver Service. @default 32443 */
  nodePort?: number;
  /** A local chart directory or .tgz. @default chart `karmada` v1.18.2 from Karmada's repository */
  chartPath?: string;
  /**
   * Chart version: from the repository, or, with `chartPath`, the Karmada version of that local
   * chart (its Chart.yaml says 0.0.0 in the Go module). Either way it keys what differs between
   * chart versions (the default images, certificate hosts; see components/karmada/values.ts).
   * v1.16.0 stays supported as the version an upgrade starts from. @default v1.18.2
   */
  chartVersion?: string;
  /** kubectl image for the chart's jobs. @default docker.io/bitnamilegacy/kubectl:1.33.4 */
  kubectlImage?: string;
  /**
   * The chart's images by key (apiServer, kubeControllerManager, etcd, cfssl, kubectl,
   * aggregatedApiServer, controllerManager, scheduler, webhook), each pinned. @default karmadaDefaultImages(chartVersion)
   */
  images?: KarmadaImages;
  /**
   * Seconds Helm waits for the chart's pre-install jobs, and then the wait for the Karmada apiserver
   * to answer (Helm does not wait for the Deployments: the waits below judge Karmada by its API).
   * @default 900
   */
  timeoutSeconds?: number;
  /**
   * Seconds to wait, once the apiserver answers, until the Karmada API serves its groups (the chart
   * applies them in a Job), its controllers hold their leader Leases and its webhook admits a
   * policy. @default 300
   */
  apiReadyTimeoutSeconds?: number;
  /**
   * The Karmada apiserver's readiness probe, set by a Helm post-renderer. The chart hard-codes a
   * first probe 10 s after the start and one every 10 s; until the probe passes, the apiserver's
   * Service routes nowhere, so the other Karmada components, the chart's jobs and the NodePort wait.
   * `false` keeps the chart's probe (the post-renderer still makes the aggregated apiserver's
   * Service headless, see components/karmada/postrender.ts).
   * @default { initialDelaySeconds: 1, periodSeconds: 2 }
   */
  apiServerReadinessProbe?: ProbeTiming | false;
  /**
   * The folder the post-renderer's wrapper is written to on install and upgrade (never in a
   * preview), relative to the project. @default ".iko-plus/postrender"
   */
  workDir?: string;
}

/** The apiserver's readiness probe timing KarmadaControlPlane sets by default. */
export const DEFAULT_APISERVER_READINESS: ProbeTiming = { initialDelaySeconds: 1, periodSeconds: 2 };

export interface KarmadaControlPlaneArgs {
  /** Install Karmada by Helm on a host cluster. Exactly one of `helm` and `existing` is required. */
  helm?: KarmadaHelmArgs;
  /** An existing Karmada API by kubeconfig contents (secret) or file path. */
  existing?: { kubeconfig?: pulumi.Input<string>; kubeconfigPath?: string };
}

/** The fields `checkKarmadaControlPlaneArgs` judges (no cluster handle is needed to check them). */
export interface KarmadaControlPlaneCheckedArgs {
  helm?: Partial<
    Pick<
      KarmadaHelmArgs,
      "endpoint" | "nodePort" | "chartVersion" | "kubectlImage" | "images" | "apiServerReadinessProbe"
    >
  >;
  existing?: { kubeconfig?: unknown; kubeconfigPath?: string };
}

/**
 * Problems of KarmadaControlPlane args, as `[field, value, problem]` (`helm.endpoint`,
 * `helm.images.webhook`, `existing.kubeconfigPath`); the stack config reports them under
 * `karmada.*`.
 */
export function checkKarmadaControlPlaneArgs(args: KarmadaControlPlaneCheckedArgs): ArgProblem[] {
  const problems: ArgProblem[] = [];
  if ((args.helm === undefined) === (args.existing === undefined)) {
    problems.push([
      "helm",
      undefined,
      "or existing is required (exactly one): install Karmada by Helm on a host cluster, or use an existing Karmada API",
    ]);
    return problems;
  }
  const h = args.helm;
  if (h) {
    if (h.endpoint === undefined || !/^https:\/\/[^/\s]+:\d+$/.test(h.endpoint)) {
      problems.push([
        "helm.endpoint",
        h.endpoint,
        "must be the Karmada API as reached from this machine, https://<host>:<port>, e.g. https://127.0.0.1:32443 (a kind host port mapped to the NodePort)",
      ]);
    }
    checkField(problems, "helm.nodePort", h.nodePort, checkNodePort);
    if (h.chartVersion !== undefined && parseChartVersion(h.chartVersion) === undefined) {
      problems.push([
        "helm.chartVersion",
        h.chartVersion,
        `must be a Karmada chart version, v<major>.<minor>.<patch>, e.g. ${KARMADA_CHART_VERSION} (Karmada's chart versions carry the "v")`,
      ]);
    } else if (h.chartVersion !== undefined && !h.chartVersion.startsWith("v")) {
      problems.push([
        "helm.chartVersion",
        h.chartVersion,
        `must start with "v", e.g. v${h.chartVersion} (Karmada's chart versions carry the "v")`,
      ]);
    }
    checkField(problems, "helm.kubectlImage", h.kubectlImage, checkImageRef);
    const probe = h.apiServerReadinessProbe;
    if (probe !== undefined && probe !== false) {
      checkField(
        problems,
        "helm.apiServerReadinessProbe.initialDelaySeconds",
        probe.initialDelaySeconds,
        checkWholeNumber(0, 600),
      );
      checkField(problems, "helm.apiServerReadinessProbe.periodSeconds", probe.periodSeconds, checkWholeNumber(1, 600));
    }
    for (const key of KARMADA_IMAGE_KEYS) {
      const ref = h.images?.[key];
      if (ref === undefined) continue;
      const problem =
        checkImageRef(ref) ??
        (chartImageValues(ref)
          ? undefined
          : "must name its registry, e.g. docker.io/karmada/karmada-webhook:v1.18.2 (the chart takes registry, repository and tag apart)");
      if (problem) problems.push([`helm.images.${key}`, ref, problem]);
    }
    if (h.kubectlImage !== undefined && h.images?.kubectl !== undefined) {
      problems.push([
        "helm.kubectlImage",
        h.kubectlImage,
        "is set twice (images.kubectl names the kubectl image too); keep one",
      ]);
    }
  }
  if (args.existing) problems.push(...checkKubeconfigSource(args.existing, "existing."));
  return problems;
}

export class KarmadaControlPlane extends pulumi.ComponentResource implements KarmadaHandle {
  declare public readonly kubeconfig: pulumi.Output<string>;
  declare public readonly endpoint: pulumi.Output<string>;
  declare public readonly provider: k8s.Provider;
  declare public readonly identity: pulumi.Output<string>;
  declare public readonly version: string | undefined;
  declare public readonly readyGate: pulumi.Resource[];
  /** Helm mode: the release. */
  declare public readonly release: k8s.helm.v3.Release | undefined;
  /** Helm mode: the wait until the Karmada apiserver answers (after the release). */
  declare public readonly apiServing: KarmadaApiReady | undefined;
  /** Helm mode: the wait until the Karmada API serves its groups, runs its controllers and admits policies. */
  declare public readonly apiReady: KarmadaApiReady | undefined;
  declare public readonly apiGate: pulumi.Resource[];

  constructor(name: string, args: KarmadaControlPlaneArgs, opts?: pulumi.ComponentResourceOptions) {
    throwIfArgProblems("KarmadaControlPlane", name, checkKarmadaControlPlaneArgs(args));
    super("iko-plus:karmada:KarmadaControlPlane", name, {}, opts);
    if (args.helm) {
      const h = args.helm;
      const chartVersion = h.chartVersion ?? KARMADA_CHART_VERSION;
      this.version = chartVersion;
      const values = karmadaValues({
        nodePort: h.nodePort ?? 32443,
        extraCertHosts: [endpointHost(h.endpoint)],
        kubectlImage: h.kubectlImage,
        images: h.images,
        chartVersion,
      });
      const chart =
        h.chartPath !== undefined
          ? { chart: h.chartPath }
          : {
              chart: "karmada",
              version: chartVersion,
              repositoryOpts: { repo: KARMADA_CHART_REPO },
            };
      const probe = h.apiServerReadinessProbe ?? DEFAULT_APISERVER_READINESS;
      // Helm runs post-renderers only on install and upgrade: a preview computes the path, writes nothing.
      const postrender = writePostRenderer(
        h.workDir ?? DEFAULT_POSTRENDER_DIR,
        karmadaPostRenderPatch({
          probe:
            probe === false
              ? undefined
              : {
                  deployment: `${KARMADA_RELEASE}-apiserver`,
                  container: `${KARMADA_RELEASE}-apiserver`,
                  timing: { initialDelaySeconds: probe.initialDelaySeconds, periodSeconds: probe.periodSeconds },
                },
          headlessServices: [`${KARMADA_RELEASE}-aggregated-apiserver`],
        }),
        { write: !pulumi.runtime.isDryRun() },
      );
      this.release = new k8s.helm.v3.Release(
        `${name}-karmada`,
        {
          name: KARMADA_RELEASE,
          namespace: KARMADA_NAMESPACE,
          createNamespace: true,
          ...chart,
          values,
          postrender,
          timeout: h.timeoutSeconds ?? 900,
          // Helm runs the pre-install jobs (the certificates, the kubeconfig Secret) either way; the
          // Deployments are judged by the waits below, through the Karmada API, so the CRDs can go
          // in as soon as the apiserver answers instead of after the slowest Deployment.
          skipAwait: true,
        },
        clusterOptions(this, h.host),
      );
      // The chart's pre-install job writes this Secret (outside the release); read it back.
      const generated = k8s.core.v1.Secret.get(
        `${name}-generated-kubeconfig`,
        `${KARMADA_NAMESPACE}/${KARMADA_RELEASE}-kubeconfig`,
        { parent: this, provider: h.host.provider, dependsOn: [this.release] },
      );
      this.kubeconfig = pulumi.secret(
        generated.data.apply((d) =>
          rewriteServer(
            Buffer.from(d?.["kubeconfig"] ?? "", "base64").toString("utf8"),
            h.endpoint,
            "karmada-kubeconfig",
          ),
        ),
      );
      this.endpoint = pulumi.output(h.endpoint);
      const credentials = this.kubeconfig.apply((t) =>
        kubeconfigCredentials(t, "the Karmada kubeconfig", (f) => fs.readFileSync(f, "utf8")),
      );
      // The chart goes in without Helm's wait: after an upgrade the old pods may still answer.
      // The first wait sees the release's Deployments and StatefulSet rolled out on the host; a
      // new chart or values (the revision) makes both waits run again.
      const revision = releaseRevision(chart, values);
      const hostCredentials = h.host.kubeconfig.apply((t) =>
        kubeconfigCredentials(t, "the Karmada host's kubeconfig", (f) => fs.readFileSync(f, "utf8")),
      );
      this.apiServing = new KarmadaApiReady(
        `${name}-api-serving`,
        {
          karmada: credentials,
          groups: KARMADA_APISERVER_GROUPS,
          rollout: pulumi.output(hostCredentials).apply((host) => ({ host, namespace: KARMADA_NAMESPACE })),
          revision,
          timeoutSeconds: h.timeoutSeconds ?? 900,
        },
        { parent: this, dependsOn: [this.release] },
      );
      this.apiReady = new KarmadaApiReady(
        `${name}-api-ready`,
        {
          karmada: credentials,
          groups: KARMADA_API_GROUPS,
          leases: KARMADA_CONTROLLER_LEASES,
          admission: true,
          revision,
          timeoutSeconds: h.apiReadyTimeoutSeconds ?? DEFAULT_API_READY_TIMEOUT_SECONDS,
        },
        { parent: this, dependsOn: [this.apiServing] },
      );
    } else {
      // checkKarmadaControlPlaneArgs has made sure `existing` gives exactly one kubeconfig source.
      const e = args.existing as { kubeconfig?: pulumi.Input<string>; kubeconfigPath?: string };
      const text =
        e.kubeconfigPath !== undefined
          ? pulumi.output(readKubeconfigFile(e.kubeconfigPath, `Karmada "${name}" kubeconfigPath`))
          : pulumi.output(e.kubeconfig as pulumi.Input<string>);
      this.kubeconfig = pulumi.secret(text);
      this.endpoint = pulumi.unsecret(text.apply((t) => parseKubeconfig(t, `Karmada "${name}" kubeconfig`).server));
      this.release = undefined;
      this.apiServing = undefined;
      this.apiReady = undefined;
    }
    // A hosted Karmada API is new exactly when its host is (a new, empty etcd); an existing one is
    // identified by its own CA.
    this.identity = args.existing
      ? pulumi.unsecret(
          this.kubeconfig.apply((t) => {
            const s = parseKubeconfig(t, `Karmada "${name}" kubeconfig`);
            return clusterIdentity(`${name}-karmada-api`, s.caData, s.server);
          }),
        )
      : (args.helm as KarmadaHelmArgs).host.identity.apply((identity) =>
          hostedIdentity(`${name}-karmada-api`, { name: (args.helm as KarmadaHelmArgs).host.name, identity }),
        );
    this.provider = new k8s.Provider(
      `${name}-karmada-api`,
      // Given a file, the provider gets its path (as ExistingCluster's does): state records where the
      // credentials are, not a copy of them.
      {
        kubeconfig: args.existing
          ? whenReachable(
              args.existing.kubeconfigPath ?? this.kubeconfig,
              `Karmada "${name}"'s API (existing)`,
              KUBECONFIG_REACH_HINT,
              {
                isPath: args.existing.kubeconfigPath !== undefined,
                showServer: args.existing.kubeconfigPath !== undefined,
              },
            )
          : this.kubeconfig,
        clusterIdentifier: withoutDependencies(this.identity),
      },
      // Configured once the apiserver answers: the provider reads the API's schema when it starts.
      { parent: this, ...(this.apiServing ? { dependsOn: [this.apiServing] } : {}) },
    );
    if (this.release && this.apiReady && this.apiServing) {
      this.readyGate = [this.release, this.apiReady];
      this.apiGate = [this.release, this.apiServing];
    } else {
      // An existing Karmada: objects go in once its provider has started, shown by reading the
      // `default` namespace. Pulumi checks each new resource's inputs one at a time, and a check
      // waits for its provider to start (it reads the whole API schema); without the gate the
      // first Karmada object holds back every member's objects behind it for that long.
      const reachable = k8s.core.v1.Namespace.get(`${name}-karmada-reachable`, "default", {
        parent: this,
        provider: this.provider,
      });
      this.readyGate = [reachable];
      this.apiGate = [reachable];
    }
    // The kubeconfigs stay out of the component's recorded outputs: state already holds them (encrypted)
    // where diff and delete need them, and every copy is rewritten with each checkpoint.
    this.registerOutputs({ endpoint: this.endpoint });
  }
}
