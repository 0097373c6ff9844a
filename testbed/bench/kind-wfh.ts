/**
 * The first article on real kind clusters, side by side in one run: the recipe typed as a user
 * would (testbed/bench/kind-recipe.sh: two `kind create cluster` one after the other, the Secret, `helm
 * install` of the stand-in chart with the article's two changes, the CRD, one IrisCluster) against
 * `pulumi up` of the wfh stack that does the same, each from nothing until the IrisCluster is
 * reconciled (status Running). Sides alternate; clean-up is not timed.
 */
import * as child from "child_process";
import * as path from "path";
import { clientsFromText, waitFor } from "../../test/lab/kube";
import { PulumiCli, REPO, labBinDir } from "../../test/lab/pulumi-cli";
import { LabStack } from "../../test/lab/stacks";
import { kindWfhConfig, mirrorEndpoint, sh, standinImages, tierEnv } from "../../test/kind/tier";

export interface KindWfhTimes {
  recipe: number[];
  up: number[];
}

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

function deleteClusters(kindBin: string, names: string[]): void {
  for (const n of names) sh(kindBin, ["delete", "cluster", "--name", n]);
}

async function recipeOnce(env: Record<string, string>): Promise<number> {
  const names = ["ikpb-rhome", "ikpb-rwork"];
  deleteClusters(env.KIND_BIN, names);
  const images = standinImages(env);
  const t0 = process.hrtime.bigint();
  const res = child.spawnSync("bash", [path.join(REPO, "testbed/bench/kind-recipe.sh"), ...names], {
    cwd: REPO,
    encoding: "utf8",
    env: {
      ...process.env,
      ...env,
      KUBECTL_BIN: env.KUBECTL_BIN ?? path.join(labBinDir(), "kubectl"),
      IKO_STANDIN_IMAGE: images.iko,
      IRIS_STANDIN_IMAGE: images.iris,
      MIRROR: mirrorEndpoint(),
    },
  });
  const t = seconds(t0);
  deleteClusters(env.KIND_BIN, names);
  if (res.status !== 0)
    throw new Error(`testbed/bench/kind-recipe.sh failed: ${(res.stderr || res.stdout).slice(-1500)}`);
  return t;
}

async function stackOnce(env: Record<string, string>, run: number): Promise<number> {
  const names = ["ikpb-home", "ikpb-work"];
  deleteClusters(env.KIND_BIN, names);
  const cli = new PulumiCli("kind-bench-passphrase");
  cli.env.PATH = `${path.dirname(env.KIND_BIN)}:${cli.env.PATH}`;
  const stack = new LabStack(
    cli,
    `kindtest-bench-wfh-${run}`,
    "Pulumi.dev.yaml",
    kindWfhConfig(names[0], names[1], "iris-at-work", env),
  );
  try {
    await stack.init();
    const t0 = process.hrtime.bigint();
    await stack.up();
    const work = clientsFromText(await stack.output("workKubeconfig"));
    await waitFor(
      "iris-at-work Running",
      async () => {
        const obj = (await work.custom.getNamespacedCustomObject({
          group: "intersystems.com",
          version: "v1alpha1",
          namespace: "default",
          plural: "irisclusters",
          name: "iris-at-work",
        })) as { status?: { phase?: string } };
        return obj.status?.phase === "Running";
      },
      300_000,
      500,
    );
    const t = seconds(t0);
    await stack.destroy();
    return t;
  } finally {
    await stack.remove();
    cli.dispose();
    deleteClusters(env.KIND_BIN, names);
  }
}

/** `runs` runs a side, alternating recipe and stack. */
export async function kindWfhBench(runs: number, log: (m: string) => void): Promise<KindWfhTimes> {
  const env = tierEnv();
  const out: KindWfhTimes = { recipe: [], up: [] };
  for (let i = 0; i < runs; i++) {
    log(`kind wfh: recipe, run ${i + 1}/${runs}`);
    out.recipe.push(await recipeOnce(env));
    log(`kind wfh: pulumi up, run ${i + 1}/${runs}`);
    out.up.push(await stackOnce(env, i));
  }
  return out;
}
