/**
 * The kind tier's environment: what testbed/kind-tier/build.sh built (kind-tier.env), the Docker CLI, the
 * registry mirror, and reads of real kind clusters with @kubernetes/client-node.
 */
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { KARMADA_NAMESPACE } from "../../components/karmada/values";
import { PulumiCli } from "../lab/pulumi-cli";

/** The tier's cache folder (testbed/kind-tier/build.sh). */
export function kindCache(): string {
  return process.env.IKO_KIND_CACHE ?? path.join(os.homedir(), ".cache", "iko-plus-kind");
}

/** KEY=value lines of kind-tier.env: KIND_BIN, HELM_BIN, NODE_IMAGE, image names. */
export function tierEnv(): Record<string, string> {
  const file = path.join(kindCache(), "kind-tier.env");
  if (!fs.existsSync(file)) throw new Error(`no ${file}: run \`bash testbed/kind-tier/build.sh\` first`);
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2].replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1");
  }
  return env;
}

/**
 * A Pulumi CLI for a kind test (its own file backend and passphrase), with the tier's kind on PATH.
 * Make it in the suite's `before`, not in its describe body: a suite that never runs then leaves
 * no backend behind.
 */
export function kindPulumiCli(env: Record<string, string>): PulumiCli {
  const cli = new PulumiCli("kind-test-passphrase");
  cli.env.PATH = `${path.dirname(env.KIND_BIN)}:${cli.env.PATH}`;
  return cli;
}

/** The mirror as kind nodes reach it (testbed/kind-tier/registry.sh). */
export function mirrorEndpoint(): string {
  return `http://${process.env.IKO_REGISTRY_NAME ?? "iko-plus-registry"}:5000`;
}

/** The mirror as this host reaches it. */
export function mirrorHostAddress(): string {
  return `127.0.0.1:${process.env.IKO_REGISTRY_PORT ?? "5001"}`;
}

export interface Exec {
  code: number;
  stdout: string;
  stderr: string;
}

export function sh(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Exec {
  const res = child.spawnSync(command, args, {
    encoding: "utf8",
    env: opts.env ?? process.env,
    input: opts.input,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: res.status ?? 1, stdout: res.stdout ?? "", stderr: res.stderr ?? "" };
}

export function docker(...args: string[]): Exec {
  return sh("docker", args);
}

/** Names of every container (running or not) whose name starts with one of `prefixes`. */
export function containersNamed(prefixes: string[]): string[] {
  const out = docker("ps", "-a", "--format", "{{.Names}}")
    .stdout.split("\n")
    .filter((n) => n.length > 0);
  return out.filter((n) => prefixes.some((p) => n.startsWith(p))).sort();
}

/** When Docker created a container, in ms since the epoch. */
export function containerCreated(name: string): number {
  const res = docker("inspect", "--format", "{{.Created}}", name);
  if (res.code !== 0) throw new Error(`docker inspect ${name}: ${res.stderr.trim()}`);
  return Date.parse(res.stdout.trim());
}

/** The repositories and tags on the mirror (its catalog), sorted, e.g. "docker.io/library/x:1". */
export async function mirrorContent(): Promise<string[]> {
  const base = `http://${mirrorHostAddress()}/v2`;
  const catalog = (await (await fetch(`${base}/_catalog?n=10000`)).json()) as { repositories?: string[] };
  const out: string[] = [];
  for (const repo of catalog.repositories ?? []) {
    const tags = (await (await fetch(`${base}/${repo}/tags/list`)).json()) as { tags?: string[] | null };
    for (const t of tags.tags ?? []) out.push(`${repo}:${t}`);
  }
  return out.sort();
}

/** Files and folders in the working tree that git does not track, ignored ones included. */
export function untrackedFiles(repo: string): string[] {
  const res = sh("git", ["-C", repo, "status", "--porcelain", "--ignored", "--untracked-files=all"]);
  return res.stdout
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => l.slice(3))
    .sort();
}

/** A listing of ~/.kube (names, sizes and modification times), to show nothing there changed. */
export function kubeDirListing(): string[] {
  const dir = path.join(os.homedir(), ".kube");
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = fs.statSync(p);
        out.push(`${p} ${st.size} ${st.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** The stand-in images the tier builds (kind-tier.env), pulled by clusters through the mirror. */
export function standinImages(env: Record<string, string> = tierEnv()): { iko: string; iris: string } {
  return {
    iko: env.IKO_STANDIN_IMAGE ?? "containers.intersystems.com/intersystems/iris-operator-amd:3.8.42.100-standin",
    iris: env.IRIS_STANDIN_IMAGE ?? "containers.intersystems.com/intersystems/iris-community:2025.1-standin",
  };
}

/** The stand-in operator image of the next version (testbed/kind-tier/standins.sh), what an IKO upgrade moves to. */
export const NEXT_IKO_STANDIN_IMAGE = "containers.intersystems.com/intersystems/iris-operator-amd:3.8.43.100-standin";

/**
 * The next version of the stand-in IKO chart, written into `dir` from the fixture: Chart.yaml
 * 3.8.43 (appVersion 3.8.43.100), and one values key renamed, `operator.numThreads` to
 * `operator.threads` (its template reads the new key), as a chart upgrade that changes its values
 * would. Returns the chart folder. (test/fixtures/iko-chart/iris-operator/README.md says so.)
 */
export function nextIkoStandinChart(dir: string): string {
  const from = path.join(__dirname, "../fixtures/iko-chart/iris-operator");
  const to = path.join(dir, "iris-operator");
  fs.cpSync(from, to, { recursive: true });
  const edit = (file: string, pairs: [string | RegExp, string][]) => {
    let text = fs.readFileSync(path.join(to, file), "utf8");
    for (const [a, b] of pairs) {
      const next = text.replace(a, b);
      if (next === text) throw new Error(`nextIkoStandinChart: ${String(a)} not found in ${file}`);
      text = next;
    }
    fs.writeFileSync(path.join(to, file), text);
  };
  edit("Chart.yaml", [
    [/^version: 3\.8\.42$/m, "version: 3.8.43"],
    [/^appVersion: 3\.8\.42\.100$/m, "appVersion: 3.8.43.100"],
  ]);
  edit("values.yaml", [[/^ {2}numThreads: /m, "  threads: "]]);
  edit("templates/deployment.yaml", [[".Values.operator.numThreads", ".Values.operator.threads"]]);
  return to;
}

/**
 * Config overrides of Pulumi.dev.yaml for the wfh stack on the tier: both clusters from the tier's
 * node image with kind's default CNI (no Cilium), the stand-in IKO chart, CRD and operator image,
 * one IrisCluster of the IRIS stand-in, every image through the mirror.
 */
export function kindWfhConfig(
  homeName: string,
  workName: string,
  irisName: string,
  env: Record<string, string> = tierEnv(),
): Record<string, unknown> {
  const images = standinImages(env);
  const cluster = (name: string) => ({
    name,
    source: "kind",
    workers: 1,
    nodeImage: env.NODE_IMAGE,
    cilium: { enabled: false },
  });
  return {
    "iko-plus:home": cluster(homeName),
    "iko-plus:work": cluster(workName),
    "iko-plus:iko": {
      chartPath: "./test/fixtures/iko-chart/iris-operator",
      crdManifestPath: "./test/fixtures/crds/irisclusters.intersystems.com.yaml",
      image: images.iko,
    },
    "iko-plus:irisClusters": [{ name: irisName, image: images.iris, serviceType: "ClusterIP" }],
    "iko-plus:registryMirror": { endpoint: mirrorEndpoint() },
  };
}

/** KEY=value lines of karmada-images.env (testbed/kind-tier/karmada-images.sh): the chart folder and image names. */
export function karmadaTierEnv(): Record<string, string> {
  const file = path.join(kindCache(), "karmada-images.env");
  if (!fs.existsSync(file)) throw new Error(`no ${file}: run \`bash testbed/kind-tier/karmada-images.sh build\` first`);
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

/** The Karmada chart's release namespace on the tier's host clusters. */
export const KARMADA_HOST_NAMESPACE = KARMADA_NAMESPACE;
/** The Deployments the Karmada chart (v1.18.2, the same in v1.16.0) makes there. */
export const KARMADA_HOST_DEPLOYMENTS = [
  "karmada-aggregated-apiserver",
  "karmada-apiserver",
  "karmada-controller-manager",
  "karmada-kube-controller-manager",
  "karmada-scheduler",
  "karmada-webhook",
];

/**
 * For a failed test's afterEach: prints why Karmada on `hostCluster` does not serve, read on its
 * control-plane node by testbed/kind-tier/karmada-diagnose.sh (the pods, Services and EndpointSlices; the
 * APIService and its ExternalName Service in the Karmada API; what that name resolves to from the
 * Karmada apiserver's pod and who answers there; each server's log tail), before the clusters go.
 */
export function printKarmadaDiagnostics(hostCluster: string, nodePort = 32443): void {
  const script = path.join(__dirname, "../../testbed/kind-tier/karmada-diagnose.sh");
  const r = sh("bash", [script, hostCluster, KARMADA_HOST_NAMESPACE, String(nodePort)]);
  console.log(`      diagnostics of Karmada on ${hostCluster} (exit ${r.code}):`);
  console.log(`${r.stdout}${r.stderr}`.replace(/^/gm, "        "));
}

/** Prints what testbed/kind-tier/mesh-diagnose.sh reads of a ClusterMesh between `clusters` (after a failed step). */
export function printMeshDiagnostics(clusters: string[]): void {
  const script = path.join(__dirname, "../../testbed/kind-tier/mesh-diagnose.sh");
  const r = sh("bash", [script, ...clusters]);
  console.log(`      diagnostics of the ClusterMesh ${clusters.join(", ")} (exit ${r.code}):`);
  console.log(`${r.stdout}${r.stderr}`.replace(/^/gm, "        "));
}

/**
 * Config overrides of Pulumi.fleet.yaml for the fleet stack in Helm mode on the tier: host and
 * member as one-node kind clusters of the tier's node image with kind's default CNI (no Cilium),
 * the host's NodePort 32443 mapped to 127.0.0.1:32443, Karmada's chart from karmada-images.sh with
 * its images (kube-apiserver and kube-controller-manager: the node image's preloaded ones), the
 * stand-in IKO chart, CRD and operator on both, one federated IrisCluster of the IRIS stand-in
 * with a license Secret, one fleet Secret, every image through the mirror.
 */
export function kindFleetConfig(
  hostName: string,
  memberName: string,
  kenv: Record<string, string> = karmadaTierEnv(),
  env: Record<string, string> = tierEnv(),
) {
  const images = standinImages(env);
  const cluster = (name: string) => ({
    name,
    source: "kind",
    workers: 0,
    nodeImage: env.NODE_IMAGE,
    cilium: { enabled: false },
  });
  return {
    "iko-plus:clusters": [
      { ...cluster(hostName), extraPortMappings: [{ containerPort: 32443, hostPort: 32443 }] },
      { ...cluster(memberName), join: { provider: "kind", labels: { role: "clone" } } },
    ],
    "iko-plus:karmada": {
      mode: "helm",
      host: hostName,
      endpoint: "https://127.0.0.1:32443",
      nodePort: 32443,
      chartPath: kenv.KARMADA_CHART_PATH,
      chartVersion: kenv.KARMADA_VERSION,
      images: {
        apiServer: env.KUBE_APISERVER_IMAGE,
        kubeControllerManager: env.KUBE_CONTROLLER_MANAGER_IMAGE,
        etcd: kenv.KARMADA_IMAGE_ETCD,
        cfssl: kenv.KARMADA_IMAGE_CFSSL,
        kubectl: kenv.KARMADA_IMAGE_KUBECTL,
        aggregatedApiServer: kenv.KARMADA_IMAGE_AGGREGATED_API_SERVER,
        controllerManager: kenv.KARMADA_IMAGE_CONTROLLER_MANAGER,
        scheduler: kenv.KARMADA_IMAGE_SCHEDULER,
        webhook: kenv.KARMADA_IMAGE_WEBHOOK,
      },
    },
    "iko-plus:iko": {
      chartPath: "./test/fixtures/iko-chart/iris-operator",
      crdManifestPath: "./test/fixtures/crds/irisclusters.intersystems.com.yaml",
      image: images.iko,
      values: { apiserver: { enableMutatingWebhook: false, enableValidatingWebhook: false } },
    },
    "iko-plus:federatedIrisClusters": [
      {
        name: "federated-iris",
        image: images.iris,
        serviceType: "ClusterIP",
        policyName: "iriscluster-propagate",
        licenseKeyConfig: "irisLicenseKey",
        placement: { clusterNames: [memberName] },
      },
    ],
    "iko-plus:fleetSecrets": [{ name: "shhhh-secret", dataKey: "shhhhSecretData", clusterNames: [memberName] }],
    "iko-plus:registryMirror": { endpoint: mirrorEndpoint() },
  };
}

/**
 * Capabilities this host's bounding set lacks of those Cilium's agent asks for (CAP_SYS_RESOURCE
 * on this VM, testbed/kind-tier/README.md): kind nodes cannot grant them, so `cilium.dropCapabilities`.
 */
export function hostLacksCapabilities(status = fs.readFileSync("/proc/self/status", "utf8")): string[] {
  const m = /^CapBnd:\s*([0-9a-f]+)$/m.exec(status);
  if (!m) return [];
  const bnd = BigInt(`0x${m[1]}`);
  return (bnd >> 24n) & 1n ? [] : ["SYS_RESOURCE"];
}
