/**
 * The fleet stack's `karmada` entry: Karmada installed by Helm on one of the stack's clusters, or an
 * existing Karmada API by kubeconfig. KarmadaControlPlane's own checks judge the fields it takes;
 * this maps their problems onto the config keys.
 */
import { ArgProblem } from "../../components/names";
import { KARMADA_IMAGE_KEYS, KarmadaImages, checkKarmadaControlPlaneArgs } from "../../components/karmada";
import { Raw, Reader, configNumber } from "./read";
import { readSecretRef } from "./secret-ref";

/** The cluster names the `karmada` entry may host Karmada on. */
interface NamedCluster {
  name: string;
}

export interface KarmadaConfig {
  mode: "helm" | "existing";
  host?: string;
  endpoint?: string;
  nodePort: number;
  chartPath?: string;
  chartVersion?: string;
  kubectlImage?: string;
  /** The chart's images by key (`karmada.images.<key>`), each pinned. */
  images?: KarmadaImages;
  kubeconfigPath?: string;
  kubeconfigSecret?: string;
  /** The Karmada API as Pull members' agents reach it (and the name its certificate is checked for). */
  agentServer?: string;
  agentTlsServerName?: string;
}

export function readKarmada(
  r: Reader,
  rawK: unknown,
  clusters: NamedCluster[],
  raw: Raw,
  secretKeys: string[],
  referenced: Set<string>,
): KarmadaConfig {
  const k = r.object("karmada", rawK);
  r.unknownKeys("karmada", k, [
    "mode",
    "host",
    "endpoint",
    "nodePort",
    "chartPath",
    "chartVersion",
    "kubectlImage",
    "images",
    "kubeconfigPath",
    "kubeconfigSecret",
    "agentServer",
    "agentTlsServerName",
  ]);
  const mode = r.oneOf("karmada.mode", k.mode, ["helm", "existing"] as const, "helm");
  const givenNodePort = configNumber(k.nodePort);
  const cfg: KarmadaConfig = { mode, nodePort: 32443 };
  // The keys of KarmadaControlPlane's fields, for its problems.
  const keys: Record<string, string | [string, unknown]> = {
    "helm.endpoint": "karmada.endpoint",
    "helm.nodePort": ["karmada.nodePort", k.nodePort],
    "helm.chartVersion": "karmada.chartVersion",
    "helm.kubectlImage": "karmada.kubectlImage",
    "existing.kubeconfigPath": "karmada.kubeconfigPath",
    ...Object.fromEntries(KARMADA_IMAGE_KEYS.map((key) => [`helm.images.${key}`, `karmada.images.${key}`])),
  };
  let problems: ArgProblem[];
  if (mode === "helm") {
    cfg.host = r.string("karmada.host", k.host);
    if (cfg.host === undefined)
      r.problems.add(
        "karmada.host",
        undefined,
        "is required in helm mode; name the cluster that hosts Karmada, e.g. ikofett",
      );
    else if (!clusters.some((c) => c.name === cfg.host))
      r.problems.add(
        "karmada.host",
        cfg.host,
        `is not one of this stack's clusters (${clusters.map((c) => c.name).join(", ")})`,
      );
    cfg.endpoint = r.string("karmada.endpoint", k.endpoint);
    cfg.chartPath = r.string("karmada.chartPath", k.chartPath);
    cfg.chartVersion = r.string("karmada.chartVersion", k.chartVersion);
    cfg.kubectlImage = r.string("karmada.kubectlImage", k.kubectlImage);
    let images: KarmadaImages | undefined;
    if (k.images !== undefined) {
      const imgs = r.object("karmada.images", k.images);
      r.unknownKeys("karmada.images", imgs, [...KARMADA_IMAGE_KEYS]);
      images = {};
      for (const key of KARMADA_IMAGE_KEYS) {
        const ref = r.string(`karmada.images.${key}`, imgs[key]);
        if (ref !== undefined) images[key] = ref;
      }
    }
    problems = checkKarmadaControlPlaneArgs({
      helm: {
        endpoint: cfg.endpoint,
        nodePort: givenNodePort,
        chartVersion: cfg.chartVersion,
        kubectlImage: cfg.kubectlImage,
        images,
      },
    });
    // Only the images the chart can take go into the config; the others have their problem.
    if (images)
      cfg.images = Object.fromEntries(
        Object.entries(images).filter(([key]) => !problems.some(([f]) => f === `helm.images.${key}`)),
      );
  } else {
    cfg.kubeconfigPath = r.string("karmada.kubeconfigPath", k.kubeconfigPath);
    cfg.kubeconfigSecret =
      k.kubeconfigSecret === undefined
        ? undefined
        : readSecretRef(r, "karmada.kubeconfigSecret", k.kubeconfigSecret, raw, secretKeys, referenced, "kubeconfig");
    problems = checkKarmadaControlPlaneArgs({
      existing: { kubeconfigPath: cfg.kubeconfigPath, kubeconfig: cfg.kubeconfigSecret },
    });
  }
  r.componentProblems(
    problems.map(([f, v, p]) => [
      f,
      v,
      f === "existing.kubeconfigPath" && v === undefined ? `${p} (karmada.kubeconfigSecret)` : p,
    ]),
    keys,
  );
  if (givenNodePort !== undefined && !problems.some(([f]) => f === "helm.nodePort")) cfg.nodePort = givenNodePort;
  const agentServer = r.string("karmada.agentServer", k.agentServer);
  if (agentServer !== undefined && !/^https:\/\/[^/\s]+:\d+$/.test(agentServer)) {
    r.problems.add(
      "karmada.agentServer",
      agentServer,
      "must be the Karmada API as Pull members reach it, https://<host>:<port>",
    );
  }
  if (agentServer !== undefined) cfg.agentServer = agentServer;
  const agentTlsServerName = r.string("karmada.agentTlsServerName", k.agentTlsServerName);
  if (agentTlsServerName !== undefined) cfg.agentTlsServerName = agentTlsServerName;
  return cfg;
}
