/**
 * Config of the IKO operator of a stack.
 */
import * as fs from "fs";
import { IKO_WEBHOOK_VALUES, IkoImage } from "../../components/iko";
import { chartImageValues, checkDns1123Label, checkDns1123Subdomain, checkImageRef } from "../../components/names";
import { Raw, Reader, isObject } from "./read";

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

const IKO_KEYS = ["chartPath", "chartRepo", "chartVersion", "releaseName", "namespace", "image", "imagePullSecrets", "values",
  "credentials", "credentialGeneration", "secretName", "secretKey", "kubeconfigPath", "crdManifestPath", "crdFrom"];

/** Splits `registry/repository:tag` into the chart's three image values (the shared rule, `chartImageValues`). */
export const splitImage: (ref: string) => IkoImage | undefined = chartImageValues;

export function readIko(r: Reader, raw: unknown, remote: boolean): IkoConfig {
  const key = "iko";
  const obj = r.object(key, raw);
  r.unknownKeys(key, obj, IKO_KEYS);
  const given = (v: unknown) => v !== undefined && v !== null;
  const chartPath = obj.chartPath === "" ? undefined : r.string(`${key}.chartPath`, obj.chartPath);
  if (obj.chartPath === "") {
    r.problems.add(`${key}.chartPath`, "", "is empty; set it to the IKO chart folder of the InterSystems download (chart/iris-operator), or leave it out and set iko.chartRepo and iko.chartVersion");
  }
  const chartRepo = r.string(`${key}.chartRepo`, obj.chartRepo);
  const chartVersion = r.string(`${key}.chartVersion`, obj.chartVersion);
  // A chart source that is set but invalid has its own message above: no second "is required".
  if (given(obj.chartPath) || given(obj.chartRepo)) {
    if (chartPath !== undefined && chartRepo !== undefined) {
      r.problems.add(`${key}.chartRepo`, chartRepo, "is set together with iko.chartPath; keep one chart source");
    } else if (chartPath !== undefined && !fs.existsSync(chartPath)) {
      r.problems.add(`${key}.chartPath`, chartPath, "does not exist; point it at the IKO chart folder (chart/iris-operator of the InterSystems download)");
    } else if (chartRepo !== undefined && !given(obj.chartVersion)) {
      r.problems.add(`${key}.chartVersion`, undefined, "is required with iko.chartRepo; pin the chart version, e.g. 3.8.42");
    }
  } else {
    r.problems.add(`${key}.chartPath`, undefined, "is required; set it to the IKO chart folder of the InterSystems download (chart/iris-operator), or set iko.chartRepo and iko.chartVersion");
  }
  const releaseName = r.string(`${key}.releaseName`, obj.releaseName, "iko") as string;
  const releaseProblem = checkDns1123Label(releaseName);
  if (releaseProblem) r.problems.add(`${key}.releaseName`, releaseName, releaseProblem);
  const namespace = r.string(`${key}.namespace`, obj.namespace, "iko") as string;
  const nsProblem = checkDns1123Label(namespace);
  if (nsProblem) r.problems.add(`${key}.namespace`, namespace, nsProblem);
  let image: IkoImage | undefined;
  const imageRef = r.string(`${key}.image`, obj.image);
  if (imageRef !== undefined) {
    const p = checkImageRef(imageRef);
    image = splitImage(imageRef);
    if (p) r.problems.add(`${key}.image`, imageRef, p);
    else if (!image) r.problems.add(`${key}.image`, imageRef, "needs a registry, a repository and a tag, e.g. containers.intersystems.com/intersystems/iris-operator-amd:3.8.42.100");
  }
  const pullSecrets = obj.imagePullSecrets === undefined ? [] : obj.imagePullSecrets;
  if (!Array.isArray(pullSecrets) || pullSecrets.some((s) => typeof s !== "string" || checkDns1123Subdomain(s))) {
    r.problems.add(`${key}.imagePullSecrets`, pullSecrets, "must be a list of Secret names, e.g. [\"intersystems-pull-secret\"]");
  }
  let values: Raw | undefined;
  if (obj.values !== undefined) {
    values = r.object(`${key}.values`, obj.values);
    const apiserver = isObject(values.apiserver) ? values.apiserver : {};
    for (const hook of IKO_WEBHOOK_VALUES) {
      if (remote && (apiserver[hook] === true || apiserver[hook] === "true")) {
        r.problems.add(`${key}.values.apiserver.${hook}`, apiserver[hook], "turns a webhook on, but a remote operator must run with both webhooks off (they would sit on the home cluster); remove it");
      }
    }
  }
  const secretName = r.string(`${key}.secretName`, obj.secretName, "work-kubeconfig") as string;
  if (checkDns1123Subdomain(secretName)) r.problems.add(`${key}.secretName`, secretName, checkDns1123Subdomain(secretName) as string);
  const secretKey = r.string(`${key}.secretKey`, obj.secretKey, "config") as string;
  if (!/^[-._a-zA-Z0-9]+$/.test(secretKey) || secretKey.length > 253) {
    r.problems.add(`${key}.secretKey`, secretKey, "is not a valid Secret key; use letters, digits, '-', '_' and '.', e.g. \"config\"");
  }
  const kubeconfigPath = r.string(`${key}.kubeconfigPath`, obj.kubeconfigPath, "/airgap/.kube/config") as string;
  if (!/^\/[^'"\s\\]+$/.test(kubeconfigPath) || kubeconfigPath.endsWith("/") || kubeconfigPath.split("/").filter(Boolean).length < 2) {
    r.problems.add(`${key}.kubeconfigPath`, kubeconfigPath, "must be an absolute file path below a folder, without quotes or spaces, e.g. /airgap/.kube/config");
  }
  const crdFrom = r.oneOf(`${key}.crdFrom`, obj.crdFrom, ["manifest", "home"] as const, "manifest");
  const crdManifestPath = r.string(`${key}.crdManifestPath`, obj.crdManifestPath);
  if (remote && crdFrom === "manifest") {
    if (crdManifestPath === undefined && !given(obj.crdManifestPath)) {
      r.problems.add(`${key}.crdManifestPath`, undefined, "is required for a remote operator; export the CRD with `kubectl get crd irisclusters.intersystems.com -o yaml > ikocrds.yaml`, or set iko.crdFrom to \"home\"");
    } else if (crdManifestPath !== undefined && !fs.existsSync(crdManifestPath)) {
      r.problems.add(`${key}.crdManifestPath`, crdManifestPath, "does not exist; point it at a YAML file holding the irisclusters.intersystems.com CRD");
    }
  }
  return {
    chartPath, chartRepo, chartVersion, releaseName, namespace, image,
    imagePullSecrets: Array.isArray(pullSecrets) ? pullSecrets as string[] : [],
    values,
    credentials: r.oneOf(`${key}.credentials`, obj.credentials, ["serviceAccount", "admin"] as const, "serviceAccount"),
    credentialGeneration: r.integer(`${key}.credentialGeneration`, obj.credentialGeneration, 1, 1, 1_000_000, "; raise it by one to rotate the operator's credential"),
    secretName, secretKey, kubeconfigPath, crdManifestPath, crdFrom,
  };
}
