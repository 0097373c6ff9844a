/**
 * Karmada upgraded on a running Kamino fleet on real kind clusters, side by side in one run: by
 * hand (testbed/bench/kind-karmada-upgrade-recipe.sh: `helm upgrade` of the release with the values the
 * recipe installed it with, then until the member's Cluster is Ready and a new IrisCluster,
 * propagated after the upgrade, runs on the member) against a config change and `pulumi up` of
 * the fleet stack in Helm mode that does the same (the chart and its version moved, the new
 * IrisCluster added to `federatedIrisClusters`). Each side first builds its fleet at the upgrade
 * source (KARMADA_UPGRADE_SOURCES, v1.16.0; not timed): the recipe with
 * testbed/bench/kind-kamino-recipe.sh, the stack with `up`. The article's member is joined in Push mode on
 * both sides, so neither has an agent to move. Cluster names ikofett and ikoclone, one side after
 * the other; clean-up is not timed.
 */
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { karmadaDefaultImages } from "../../components/karmada/values";
import { Clients, clientsFromText, waitFor } from "../../test/lab/kube";
import { PulumiCli, REPO, labBinDir } from "../../test/lab/pulumi-cli";
import { LabStack } from "../../test/lab/stacks";
import { karmadaTierEnv, kindFleetConfig, mirrorEndpoint, sh, standinImages, tierEnv } from "../../test/kind/tier";

export interface KindKarmadaUpgradeTimes {
  from: string;
  to: string;
  recipe: number[];
  up: number[];
}

const NAMES = ["ikofett", "ikoclone"];
const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

function deleteClusters(kindBin: string): void {
  for (const n of NAMES) sh(kindBin, ["delete", "cluster", "--name", n]);
}

/** The upgrade source named by karmada-images.env, and its chart. */
export function upgradeSource(kenv: Record<string, string>): { version: string; chartPath: string } {
  const version = (kenv.KARMADA_UPGRADE_SOURCES ?? "").split(" ")[0];
  const chartPath = kenv[`KARMADA_CHART_PATH_${version.toUpperCase().replace(/\./g, "_")}`];
  if (!version || !chartPath)
    throw new Error(
      "karmada-images.env names no upgrade source and chart; run bash testbed/kind-tier/karmada-images.sh build",
    );
  return { version, chartPath };
}

/** karmada-images.env's entries for Karmada `version` (its chart and its own images); the shared images stay. */
export function karmadaEnvAt(kenv: Record<string, string>, version: string, chartPath: string): Record<string, string> {
  const images = karmadaDefaultImages(version);
  return {
    ...kenv,
    KARMADA_VERSION: version,
    KARMADA_CHART_PATH: chartPath,
    KARMADA_IMAGE_AGGREGATED_API_SERVER: images.aggregatedApiServer,
    KARMADA_IMAGE_CONTROLLER_MANAGER: images.controllerManager,
    KARMADA_IMAGE_SCHEDULER: images.scheduler,
    KARMADA_IMAGE_WEBHOOK: images.webhook,
  };
}

function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): void {
  const res = child.spawnSync("bash", [path.join(REPO, "testbed", "bench", script), ...args], {
    cwd: REPO,
    encoding: "utf8",
    env,
  });
  if (res.status !== 0) throw new Error(`testbed/bench/${script} failed: ${(res.stderr || res.stdout).slice(-1500)}`);
}

async function recipeOnce(env: Record<string, string>, kenv: Record<string, string>): Promise<number> {
  deleteClusters(env.KIND_BIN);
  const from = upgradeSource(kenv);
  const images = standinImages(env);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-bench-kup-"));
  const base = {
    ...process.env,
    ...env,
    KARMADACTL_BIN: path.join(labBinDir(), "karmadactl"),
    IKO_STANDIN_IMAGE: images.iko,
    IRIS_STANDIN_IMAGE: images.iris,
    MIRROR: mirrorEndpoint(),
  };
  try {
    runScript("kind-kamino-recipe.sh", NAMES, {
      ...base,
      ...karmadaEnvAt(kenv, from.version, from.chartPath),
      RECIPE_DIR: dir,
    });
    const t0 = process.hrtime.bigint();
    runScript("kind-karmada-upgrade-recipe.sh", [...NAMES, dir], { ...base, ...kenv });
    return seconds(t0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    deleteClusters(env.KIND_BIN);
  }
}

/** The fleet stack at Karmada `version`, with the federated IrisClusters named (all on the member). */
function stackConfig(
  env: Record<string, string>,
  kenv: Record<string, string>,
  version: string,
  chartPath: string,
  irisNames: string[],
): Record<string, unknown> {
  const base = kindFleetConfig(NAMES[0], NAMES[1], kenv, env);
  const template = base["iko-plus:federatedIrisClusters"][0];
  const karmada = base["iko-plus:karmada"];
  const { apiServer, kubeControllerManager, etcd, cfssl, kubectl } = karmada.images;
  return {
    ...base,
    // Karmada's own images follow chartVersion (docker.io/karmada/*:<version>, as the tier builds them).
    "iko-plus:karmada": {
      ...karmada,
      chartPath,
      chartVersion: version,
      images: { apiServer, kubeControllerManager, etcd, cfssl, kubectl },
    },
    "iko-plus:federatedIrisClusters": irisNames.map((name, i) =>
      i === 0 ? template : { ...template, name, policyName: `${name}-propagate` },
    ),
  };
}

/** Until the operator on the member reports `name` Running (up to 10 min). */
async function irisRunning(member: Clients, name: string): Promise<void> {
  await waitFor(
    `${name} Running on ${NAMES[1]}`,
    async () => {
      const obj = (await member.custom
        .getNamespacedCustomObject({
          group: "intersystems.com",
          version: "v1alpha1",
          namespace: "default",
          plural: "irisclusters",
          name,
        })
        .catch(() => undefined)) as { status?: { phase?: string } } | undefined;
      return obj?.status?.phase === "Running";
    },
    600_000,
    500,
  );
}

async function stackOnce(env: Record<string, string>, kenv: Record<string, string>, run: number): Promise<number> {
  deleteClusters(env.KIND_BIN);
  const from = upgradeSource(kenv);
  const cli = new PulumiCli("kind-bench-passphrase");
  cli.env.PATH = `${path.dirname(env.KIND_BIN)}:${cli.env.PATH}`;
  const first = ["federated-iris"];
  const stack = new LabStack(
    cli,
    `kindtest-bench-kup-${run}`,
    "Pulumi.fleet.yaml",
    stackConfig(env, kenv, from.version, from.chartPath, first),
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
    await stack.up();
    const member = clientsFromText(
      (JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>)[NAMES[1]],
    );
    await irisRunning(member, first[0]);
    const next = stackConfig(env, kenv, kenv.KARMADA_VERSION, kenv.KARMADA_CHART_PATH, [...first, "after-upgrade"]);
    stack.edit((c) => Object.assign(c, next));
    const t0 = process.hrtime.bigint();
    await stack.up();
    await irisRunning(member, "after-upgrade");
    const t = seconds(t0);
    await stack.destroy();
    return t;
  } finally {
    await stack.remove();
    cli.dispose();
    deleteClusters(env.KIND_BIN);
  }
}

/** `runs` runs a side, alternating recipe and stack. */
export async function kindKarmadaUpgradeBench(
  runs: number,
  log: (m: string) => void,
): Promise<KindKarmadaUpgradeTimes> {
  const env = tierEnv();
  const kenv = karmadaTierEnv();
  const out: KindKarmadaUpgradeTimes = {
    from: upgradeSource(kenv).version,
    to: kenv.KARMADA_VERSION,
    recipe: [],
    up: [],
  };
  for (let i = 0; i < runs; i++) {
    log(`kind Karmada upgrade ${out.from} -> ${out.to}: recipe (helm upgrade), run ${i + 1}/${runs}`);
    out.recipe.push(await recipeOnce(env, kenv));
    log(`kind Karmada upgrade ${out.from} -> ${out.to}: pulumi up, run ${i + 1}/${runs}`);
    out.up.push(await stackOnce(env, kenv, i));
  }
  return out;
}
