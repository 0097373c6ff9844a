/**
 * The second article (Kamino) on real kind clusters, side by side in one run: the recipe typed as
 * a user would (testbed/bench/kind-kamino-recipe.sh: two `kind create cluster`, IKO on each, `helm install
 * karmada` of the real chart, the kubeconfig edit, the CRD export and create, `karmadactl join`,
 * the IrisCluster and its policy) against `pulumi up` of the fleet stack in Helm mode that does
 * the same (and more: the interpreter, the license Secret, a fleet Secret, scoped member access),
 * each from nothing until the IrisCluster is reconciled on the member (status Running). Both sides
 * use the cluster names ikofett and ikoclone, one after the other; clean-up is not timed.
 */
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Clients, clientsFromText, waitFor } from "../../test/lab/kube";
import { PulumiCli, REPO, labBinDir } from "../../test/lab/pulumi-cli";
import { LabStack } from "../../test/lab/stacks";
import { karmadaTierEnv, kindFleetConfig, mirrorEndpoint, sh, standinImages, tierEnv } from "../../test/kind/tier";

export interface KindKaminoTimes {
  recipe: number[];
  up: number[];
}

const NAMES = ["ikofett", "ikoclone"];

/** Waits (up to 10 min, polling every `pollMs`) until the stand-in operator reports federated-iris Running on a member. */
export async function waitIrisRunning(member: Clients, name: string, pollMs: number): Promise<void> {
  await waitFor(
    `federated-iris Running on ${name}`,
    async () => {
      const obj = (await member.custom
        .getNamespacedCustomObject({
          group: "intersystems.com",
          version: "v1alpha1",
          namespace: "default",
          plural: "irisclusters",
          name: "federated-iris",
        })
        .catch(() => undefined)) as { status?: { phase?: string } } | undefined;
      return obj?.status?.phase === "Running";
    },
    600_000,
    pollMs,
  );
}
const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

function deleteClusters(kindBin: string): void {
  for (const n of NAMES) sh(kindBin, ["delete", "cluster", "--name", n]);
}

/**
 * Before a failed run's clusters are deleted: `kind export logs` of both (every pod's and the
 * node's logs) into a fresh folder under the temp folder, named in the error so the cause can be
 * read after the bench has cleaned up.
 */
function exportLogs(kindBin: string, side: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `iko-plus-bench-kamino-${side}-`));
  for (const n of NAMES) sh(kindBin, ["export", "logs", path.join(dir, n), "--name", n]);
  return dir;
}

async function recipeOnce(env: Record<string, string>, kenv: Record<string, string>): Promise<number> {
  deleteClusters(env.KIND_BIN);
  const images = standinImages(env);
  const t0 = process.hrtime.bigint();
  const res = child.spawnSync("bash", [path.join(REPO, "testbed/bench/kind-kamino-recipe.sh"), ...NAMES], {
    cwd: REPO,
    encoding: "utf8",
    env: {
      ...process.env,
      ...env,
      ...kenv,
      KARMADACTL_BIN: path.join(labBinDir(), "karmadactl"),
      IKO_STANDIN_IMAGE: images.iko,
      IRIS_STANDIN_IMAGE: images.iris,
      MIRROR: mirrorEndpoint(),
    },
  });
  const t = seconds(t0);
  const logs = res.status === 0 ? undefined : exportLogs(env.KIND_BIN, "recipe");
  deleteClusters(env.KIND_BIN);
  if (logs)
    throw new Error(
      `testbed/bench/kind-kamino-recipe.sh failed (the clusters' logs are in ${logs}): ${(res.stderr || res.stdout).slice(-1500)}`,
    );
  return t;
}

export async function stackOnce(
  env: Record<string, string>,
  kenv: Record<string, string>,
  run: number,
): Promise<number> {
  deleteClusters(env.KIND_BIN);
  const cli = new PulumiCli("kind-bench-passphrase");
  cli.env.PATH = `${path.dirname(env.KIND_BIN)}:${cli.env.PATH}`;
  const stack = new LabStack(
    cli,
    `kindtest-bench-kamino-${run}`,
    "Pulumi.fleet.yaml",
    kindFleetConfig(NAMES[0], NAMES[1], kenv, env),
  );
  try {
    await stack.init();
    await cli.ok(["config", "set", "--secret", "--stack", stack.name, "irisLicenseKey", "IRIS-LICENSE-KEY-bench"]);
    await cli.ok([
      "config",
      "set",
      "--secret",
      "--stack",
      stack.name,
      "shhhhSecretData",
      JSON.stringify({ password: "bench" }),
    ]);
    const t0 = process.hrtime.bigint();
    // IKO_BENCH_TRACE=<dir>: the OpenTelemetry trace of each timed `up` (each step's start and end
    // times), to see which waits are on the critical path. The CLI writes the providers' gRPC
    // requests and answers into it in plain text, secrets included: the bench's secrets are made
    // up, but keep such a trace of a real stack out of anything shared.
    const traceDir = process.env.IKO_BENCH_TRACE;
    await stack.up(traceDir ? ["--otel-traces", `file://${path.join(traceDir, `kamino-up-${run}.json`)}`] : []);
    const member = clientsFromText(
      (JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>)[NAMES[1]],
    );
    await waitIrisRunning(member, NAMES[1], 500);
    const t = seconds(t0);
    await stack.destroy();
    return t;
  } catch (e) {
    const logs = exportLogs(env.KIND_BIN, "stack");
    throw new Error(`the fleet stack's run ${run} failed (the clusters' logs are in ${logs}): ${(e as Error).message}`);
  } finally {
    await stack.remove();
    cli.dispose();
    deleteClusters(env.KIND_BIN);
  }
}

/** `runs` runs a side, alternating recipe and stack. */
export async function kindKaminoBench(runs: number, log: (m: string) => void): Promise<KindKaminoTimes> {
  const env = tierEnv();
  const kenv = karmadaTierEnv();
  const out: KindKaminoTimes = { recipe: [], up: [] };
  for (let i = 0; i < runs; i++) {
    log(`kind kamino: recipe, run ${i + 1}/${runs}`);
    out.recipe.push(await recipeOnce(env, kenv));
    log(`kind kamino: pulumi up, run ${i + 1}/${runs}`);
    out.up.push(await stackOnce(env, kenv, i));
  }
  return out;
}
