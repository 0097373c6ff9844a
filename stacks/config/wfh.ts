/**
 * The `wfh` stack's config: home and work clusters, the remote operator, IrisClusters at work.
 */
import { Problems } from "../problems";
import { isSecretConfigKey } from "../../components/names/secrets";
import { RegistryMirror } from "../../components/kind";
import { ClusterConfig, checkClusterSet, readCluster, readRegistryMirror } from "./cluster";
import { IkoConfig, readIko } from "./iko";
import { IrisClusterConfig, readIrisClusters } from "./iris";
import { DEFAULT_IRIS_READY_TIMEOUT_SECONDS, IRIS_READY_TIMEOUT_RANGE } from "../../components/iris";
import { MeshConfig, readMesh } from "./mesh";
import { Raw, Reader } from "./read";

import { PROGRAMS, PROJECT } from "./project";

/** An IrisCluster at work, and whether `up` waits for the operator to run it. */
export interface WfhIrisClusterConfig extends IrisClusterConfig {
  /** `up` waits until the operator reports it running (IrisClusterReady). Config `waitReady`, default true. */
  waitReady: boolean;
  /** How long that wait may take. Config `readyTimeoutSeconds`, default 600. */
  readyTimeoutSeconds: number;
}

export interface WfhConfig {
  program: "wfh";
  home: ClusterConfig;
  work: ClusterConfig;
  iko: IkoConfig;
  irisClusters: WfhIrisClusterConfig[];
  /** Every kind cluster of the stack pulls its images through this mirror. */
  registryMirror?: RegistryMirror;
  /** Cilium ClusterMesh between home and work (or one of them). */
  mesh?: MeshConfig;
}

/** Every key the project reads (without the `iko-plus:` prefix). */
export const KNOWN_KEYS = [
  "program",
  "home",
  "work",
  "iko",
  "irisClusters",
  "homeKubeconfig",
  "workKubeconfig",
  "registryMirror",
  "mesh",
];

/**
 * Validates the raw config of a wfh stack (keys without the project prefix; secret values in
 * plain text, which no message shows; `secretKeys` are the full keys stored as secrets). Throws
 * one ConfigError with every problem.
 */
export function validateWfhConfig(raw: Raw, secretKeys: string[] = []): WfhConfig {
  const isSecret = (k: string) => isSecretConfigKey(k, secretKeys, PROJECT);
  const problems = new Problems(PROJECT, isSecret);
  const r = new Reader(problems);
  r.unknownTopLevelKeys(raw, KNOWN_KEYS, { isSecret });
  r.oneOf("program", raw.program, PROGRAMS, "wfh");
  const secret = (k: string) => (typeof raw[k] === "string" ? (raw[k] as string) : undefined);
  const home = readCluster(
    r,
    "home",
    raw.home,
    { name: "ikohome", clusterId: 1 },
    secret("homeKubeconfig"),
    "homeKubeconfig",
  );
  const work = readCluster(
    r,
    "work",
    raw.work,
    { name: "ikowork", clusterId: 2 },
    secret("workKubeconfig"),
    "workKubeconfig",
  );
  checkClusterSet(r, [home, work]);
  const iko = readIko(r, raw.iko, true);
  // The operator runs in this stack, so an IrisCluster it never runs fails `up` by default.
  const irisClusters: WfhIrisClusterConfig[] = readIrisClusters(
    r,
    raw.irisClusters,
    "irisClusters",
    "licenseKeySecret",
    ["waitReady", "readyTimeoutSeconds"],
    (k, item) => ({
      waitReady: r.boolean(`${k}.waitReady`, item.waitReady, true),
      readyTimeoutSeconds: r.integer(
        `${k}.readyTimeoutSeconds`,
        item.readyTimeoutSeconds,
        DEFAULT_IRIS_READY_TIMEOUT_SECONDS,
        IRIS_READY_TIMEOUT_RANGE.min,
        IRIS_READY_TIMEOUT_RANGE.max,
      ),
    }),
  );
  const registryMirror = readRegistryMirror(r, raw.registryMirror);
  const mesh = readMesh(r, raw.mesh, [home, work]);
  problems.throwIfAny();
  return {
    program: "wfh",
    home,
    work,
    iko,
    irisClusters,
    ...(registryMirror ? { registryMirror } : {}),
    ...(mesh ? { mesh } : {}),
  };
}
