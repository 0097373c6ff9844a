/**
 * The memory of the three-cluster Kamino setup on real kind: `pulumi up` of the fleet stack in
 * Helm mode with the Karmada host `ikofett`, `ikoclone` joined in Push mode and `ikopull` in Pull
 * mode (karmada-agent on the member), IKO on both members, the federated IrisCluster placed on
 * both. Once the stand-in operator reports it Running on each member, `docker stats` of the three
 * node containers is read; then the stack is destroyed and the clusters deleted (not timed).
 */
import * as path from "path";
import { clientsFromText } from "../../test/lab/kube";
import { waitIrisRunning } from "./kind-kamino";
import { PulumiCli } from "../../test/lab/pulumi-cli";
import { LabStack } from "../../test/lab/stacks";
import { containersNamed, docker, karmadaTierEnv, kindFleetConfig, sh, tierEnv } from "../../test/kind/tier";

const HOST = "ikofett";
const PUSH = "ikoclone";
const PULL = "ikopull";

export interface ThreeClusterMemory {
  /** Per node container: its name and memory in MiB. */
  nodes: { name: string; mib: number }[];
  totalMib: number;
}

/** `docker stats` MemUsage ("1.297GiB / 23.54GiB", "620.5MiB / …") in MiB. */
export function memUsageMib(usage: string): number {
  const m = /^([\d.]+)\s*(B|KiB|MiB|GiB|kB|MB|GB)\b/.exec(usage.trim());
  if (!m) throw new Error(`unreadable docker stats memory: ${usage}`);
  const unit: Record<string, number> = {
    B: 1 / 2 ** 20,
    KiB: 1 / 1024,
    MiB: 1,
    GiB: 1024,
    kB: 1e3 / 2 ** 20,
    MB: 1e6 / 2 ** 20,
    GB: 1e9 / 2 ** 20,
  };
  return Number(m[1]) * unit[m[2]];
}

function threeClusterConfig(kenv: Record<string, string>, env: Record<string, string>): Record<string, unknown> {
  const base = kindFleetConfig(HOST, PUSH, kenv, env) as Record<string, unknown>;
  const [host, push] = base["iko-plus:clusters"] as Record<string, unknown>[];
  const pull = {
    ...push,
    name: PULL,
    join: { provider: "kind", labels: { role: "clone" }, syncMode: "Pull", agentImage: kenv.KARMADA_IMAGE_AGENT },
  };
  const [iris] = base["iko-plus:federatedIrisClusters"] as Record<string, unknown>[];
  return {
    ...base,
    "iko-plus:clusters": [host, push, pull],
    "iko-plus:federatedIrisClusters": [{ ...iris, placement: { labels: { role: "clone" } } }],
    "iko-plus:fleetSecrets": [],
  };
}

export async function kindThreeClusterMemory(log: (m: string) => void): Promise<ThreeClusterMemory> {
  const env = tierEnv();
  const kenv = karmadaTierEnv();
  const deleteClusters = () => {
    for (const n of [HOST, PUSH, PULL]) sh(env.KIND_BIN, ["delete", "cluster", "--name", n]);
  };
  deleteClusters();
  const cli = new PulumiCli("kind-bench-passphrase");
  cli.env.PATH = `${path.dirname(env.KIND_BIN)}:${cli.env.PATH}`;
  const stack = new LabStack(cli, "kindtest-bench-three", "Pulumi.fleet.yaml", threeClusterConfig(kenv, env));
  try {
    await stack.init();
    await cli.ok(["config", "set", "--secret", "--stack", stack.name, "irisLicenseKey", "IRIS-LICENSE-KEY-bench"]);
    log("kind three clusters: pulumi up (ikofett with Karmada, ikoclone Push, ikopull Pull)");
    await stack.up();
    const kubeconfigs = JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>;
    for (const member of [PUSH, PULL]) {
      await waitIrisRunning(clientsFromText(kubeconfigs[member]), member, 1000);
    }
    const out = docker(
      "stats",
      "--no-stream",
      "--format",
      "{{.Name}}|{{.MemUsage}}",
      ...containersNamed([`${HOST}-`, `${PUSH}-`, `${PULL}-`]),
    ).stdout.trim();
    const nodes = out.split("\n").map((l) => {
      const [name, usage] = l.split("|");
      return { name, mib: memUsageMib(usage) };
    });
    await stack.destroy();
    return { nodes, totalMib: nodes.reduce((a, n) => a + n.mib, 0) };
  } finally {
    await stack.remove();
    cli.dispose();
    deleteClusters();
  }
}
