/**
 * Config of the IKO operator of a stack.
 */
import {
  IKO_DEFAULTS,
  IKO_WEBHOOK_VALUES,
  IkoHomeOperatorArgs,
  IkoImage,
  IkoRemoteArgs,
  checkIkoHomeOperatorArgs,
} from "../../components/iko";
import { chartImageValues, checkImageRef } from "../../components/names";
import { Raw, Reader } from "./read";

export interface IkoConfig {
  chartPath?: string;
  chartRepo?: string;
  chartVersion?: string;
  releaseName: string;
  namespace: string;
  image?: IkoImage;
  imagePullSecrets: string[];
  values?: Raw;
  credentials: "serviceAccount" | "admin";
  credentialGeneration: number;
  secretName: string;
  secretKey: string;
  kubeconfigPath: string;
  crdManifestPath?: string;
  crdFrom: "manifest" | "home";
}

const IKO_KEYS = [
  "chartPath",
  "chartRepo",
  "chartVersion",
  "releaseName",
  "namespace",
  "image",
  "imagePullSecrets",
  "values",
  "credentials",
  "credentialGeneration",
  "secretName",
  "secretKey",
  "kubeconfigPath",
  "crdManifestPath",
  "crdFrom",
];

/** Splits `registry/repository:tag` into the chart's three image values (the shared rule, `chartImageValues`). */
export const splitImage: (ref: string) => IkoImage | undefined = chartImageValues;

/** Config key of each IkoHomeOperator field, for the component's problems. */
const IKO_FIELD_KEYS: Record<string, string> = {
  "chart.path": "iko.chartPath",
  "chart.repo": "iko.chartRepo",
  "chart.version": "iko.chartVersion",
  releaseName: "iko.releaseName",
  namespace: "iko.namespace",
  imagePullSecrets: "iko.imagePullSecrets",
  "remote.secretName": "iko.secretName",
  "remote.secretKey": "iko.secretKey",
  "remote.kubeconfigPath": "iko.kubeconfigPath",
  "remote.crdManifestPath": "iko.crdManifestPath",
  ...Object.fromEntries(IKO_WEBHOOK_VALUES.map((h) => [`values.apiserver.${h}`, `iko.values.apiserver.${h}`])),
};

/** The config keys of the other choice a component's fix names, for a field left unset or empty. */
const IKO_CONFIG_HINTS: Record<string, string> = {
  "chart.path": "iko.chartRepo, iko.chartVersion",
  "remote.crdManifestPath": "iko.crdFrom: home",
};

export function readIko(r: Reader, raw: unknown, remote: boolean): IkoConfig {
  const key = "iko";
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, IKO_KEYS);
  const chartPath = obj.chartPath === "" ? "" : r.string(`${key}.chartPath`, obj.chartPath);
  const chartRepo = r.string(`${key}.chartRepo`, obj.chartRepo);
  const chartVersion = r.string(`${key}.chartVersion`, obj.chartVersion);
  const releaseName = r.string(`${key}.releaseName`, obj.releaseName, IKO_DEFAULTS.releaseName) as string;
  const namespace = r.string(`${key}.namespace`, obj.namespace, IKO_DEFAULTS.namespace) as string;
  let image: IkoImage | undefined;
  const imageRef = r.string(`${key}.image`, obj.image);
  if (imageRef !== undefined) {
    const p = checkImageRef(imageRef);
    image = splitImage(imageRef);
    if (p) r.problems.add(`${key}.image`, imageRef, p);
    else if (!image)
      r.problems.add(
        `${key}.image`,
        imageRef,
        "needs a registry, a repository and a tag, e.g. containers.intersystems.com/intersystems/iris-operator-amd:3.8.42.100",
      );
  }
  const pullSecrets = obj.imagePullSecrets === undefined ? [] : obj.imagePullSecrets;
  if (!Array.isArray(pullSecrets) || pullSecrets.some((s) => typeof s !== "string")) {
    r.problems.add(
      `${key}.imagePullSecrets`,
      pullSecrets,
      'must be a list of Secret names, e.g. ["intersystems-pull-secret"]',
    );
  }
  const values = obj.values === undefined ? undefined : r.object(`${key}.values`, obj.values);
  const secretName = r.string(`${key}.secretName`, obj.secretName, IKO_DEFAULTS.secretName) as string;
  const secretKey = r.string(`${key}.secretKey`, obj.secretKey, IKO_DEFAULTS.secretKey) as string;
  const kubeconfigPath = r.string(`${key}.kubeconfigPath`, obj.kubeconfigPath, IKO_DEFAULTS.kubeconfigPath) as string;
  const crdFrom = r.oneOf(`${key}.crdFrom`, obj.crdFrom, ["manifest", "home"] as const, "manifest");
  const crdManifestPath = r.string(`${key}.crdManifestPath`, obj.crdManifestPath);
  const cfg: IkoConfig = {
    chartPath,
    chartRepo,
    chartVersion,
    releaseName,
    namespace,
    image,
    imagePullSecrets: Array.isArray(pullSecrets) ? (pullSecrets as string[]) : [],
    values,
    credentials: r.oneOf(`${key}.credentials`, obj.credentials, ["serviceAccount", "admin"] as const, "serviceAccount"),
    credentialGeneration: r.integer(
      `${key}.credentialGeneration`,
      obj.credentialGeneration,
      1,
      1,
      1_000_000,
      "; raise it by one to rotate the operator's credential",
    ),
    secretName,
    secretKey,
    kubeconfigPath,
    crdManifestPath,
    crdFrom,
  };
  const given = ikoInstallArgs(cfg);
  const problems = checkIkoHomeOperatorArgs({
    ...given,
    remote: remote
      ? {
          ...ikoRemoteSettings(cfg),
          crdManifestPath: crdFrom === "manifest" ? crdManifestPath : undefined,
          crdFromCluster: crdFrom === "home" ? "home" : undefined,
        }
      : undefined,
  });
  // A chart key that is set but not a string has its own message: no second one about the chart.
  const chartReported = ["chartPath", "chartRepo", "chartVersion"].some((k) => r.problems.has(`${key}.${k}`));
  r.componentProblems(
    problems
      .filter(([f]) => !(chartReported && f.startsWith("chart.")))
      .map(([f, v, p]) => [
        f,
        v,
        IKO_CONFIG_HINTS[f] && (v === undefined || v === "") ? `${p} (${IKO_CONFIG_HINTS[f]})` : p,
      ]),
    IKO_FIELD_KEYS,
  );
  return cfg;
}

/** The IkoHomeOperator args an `iko` config gives, but for the clusters and remote mode: one mapping for every stack. */
export function ikoInstallArgs(
  iko: IkoConfig,
): Omit<IkoHomeOperatorArgs, "home" | "remote" | "timeoutSeconds" | "workDir"> {
  return {
    chart: iko.chartPath !== undefined ? { path: iko.chartPath } : { repo: iko.chartRepo, version: iko.chartVersion },
    releaseName: iko.releaseName,
    namespace: iko.namespace,
    image: iko.image,
    imagePullSecrets: iko.imagePullSecrets,
    values: iko.values,
  };
}

/** The remote-mode args an `iko` config gives, but for the clusters and the CRD's source. */
export function ikoRemoteSettings(
  iko: IkoConfig,
): Omit<IkoRemoteArgs, "target" | "crdManifestPath" | "crdFromCluster" | "identityNamespace"> {
  return {
    secretName: iko.secretName,
    secretKey: iko.secretKey,
    kubeconfigPath: iko.kubeconfigPath,
    credentials: iko.credentials,
    credentialGeneration: iko.credentialGeneration,
  };
}
