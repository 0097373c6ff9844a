/**
 * One measured run each: the recipe script or `pulumi up` of a lab fleet stack, on a fresh lab.
 */
import * as child from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { labClients, labKubectl, maybe, waitFor } from "../../test/lab/kube";
import { PulumiCli, REPO, labBinDir } from "../../test/lab/pulumi-cli";
import { LabStack } from "../../test/lab/stacks";
import { fieldsNotIn } from "./fixture-match";
import { Sample, measure } from "./measure";

export const BENCH_LAB_DIR = path.join(REPO, ".lab-bench");
process.env.IKO_LAB_DIR = BENCH_LAB_DIR;

function npmLab(cmd: "up" | "down", members: string[]): void {
  const res = child.spawnSync("node", ["-r", "ts-node/register/transpile-only", "testbed/lab/src/cli.ts", cmd], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, IKO_LAB_DIR: BENCH_LAB_DIR, IKO_LAB_MEMBERS: members.join(",") },
  });
  if (res.status !== 0) throw new Error(`lab ${cmd} failed: ${(res.stderr || res.stdout).slice(-2000)}`);
}

/** Runs `fn` on a freshly started lab with these members, and always stops the lab. */
export async function onFreshLab<T>(members: string[], fn: () => Promise<T>): Promise<T> {
  npmLab("up", members);
  try {
    // The members serve IrisClusters before the timed run, as in the article, whose step 2 installs
    // IKO (and with it the CRD) on every cluster before Karmada joins them. Created during the run,
    // a member's CRD would make the member's API server hold the first IrisCluster create for 2 s
    // (apiextensions-apiserver sleeps on creates within 2 s of the CRD becoming Established), which
    // the stack, whose IrisCluster reaches the member about a second after the CRD, would always pay
    // and the recipe, whose join takes 4 s, never.
    for (const m of members) createFixtureCrd(m);
    await warmKarmadaForIrisClusters();
    return await fn();
  } finally {
    npmLab("down", members);
  }
}

const CRD_FIXTURE = path.join(REPO, "test/fixtures/crds/irisclusters.intersystems.com.yaml");

/**
 * Creates the IrisCluster CRD on a lab cluster (a member or Karmada) exactly as the fixture holds
 * it, with kubectl as the recipe does, and checks it. Exactly matters: the stack (and, in Karmada,
 * the recipe) apply the fixture again, and a change to a CRD's spec makes the API server replace the
 * IrisCluster storage and end every IrisCluster watch, Karmada's detector's among them, which then
 * sees new IrisClusters only after it watches again (2 s and more here). @kubernetes/client-node's
 * typed create drops the fixture's `x-kubernetes-preserve-unknown-fields` keys, so it made that
 * change for the stack (whose apply comes a second before its IrisCluster) and hid it in the recipe
 * (whose apply comes 4 s before).
 */
function createFixtureCrd(cluster: string): void {
  labKubectl(cluster, ["create", "-f", CRD_FIXTURE]);
  const fixture = YAML.parse(fs.readFileSync(CRD_FIXTURE, "utf8"));
  const live = JSON.parse(labKubectl(cluster, ["get", "crd", fixture.metadata.name, "-o", "json"]));
  const differs = fieldsNotIn(fixture.spec, live.spec, "spec");
  if (differs.length > 0)
    throw new Error(`the IrisCluster CRD on ${cluster} differs from ${CRD_FIXTURE} at ${differs.join(", ")}`);
}

/**
 * Karmada's resource detector discovers new kinds on a fixed 30 s tick (pkg/detector: discoverResources
 * every 30*time.Second), so the first IrisCluster in a fresh Karmada waits up to 30 s whoever
 * created it. To time what the recipe and the stack do (not where that tick falls), the IrisCluster
 * CRD is created in Karmada beforehand and a probe IrisCluster shows when the detector sees the kind.
 */
export async function warmKarmadaForIrisClusters(): Promise<void> {
  const k = labClients("karmada");
  createFixtureCrd("karmada");
  const probe = { group: "intersystems.com", version: "v1alpha1", plural: "irisclusters", namespace: "default" };
  const policy = {
    group: "policy.karmada.io",
    version: "v1alpha1",
    plural: "propagationpolicies",
    namespace: "default",
  };
  await waitFor(
    "the IrisCluster CRD to be served",
    () => maybe(() => k.custom.listNamespacedCustomObject(probe)),
    60_000,
    200,
  );
  await k.custom.createNamespacedCustomObject({
    ...policy,
    body: {
      apiVersion: "policy.karmada.io/v1alpha1",
      kind: "PropagationPolicy",
      metadata: { name: "bench-probe" },
      spec: {
        resourceSelectors: [{ apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster", name: "bench-probe" }],
        placement: { clusterAffinity: { clusterNames: ["none"] } },
      },
    },
  });
  await k.custom.createNamespacedCustomObject({
    ...probe,
    body: {
      apiVersion: "intersystems.com/v1alpha1",
      kind: "IrisCluster",
      metadata: { name: "bench-probe" },
      spec: { topology: { data: { image: "x/y:1" } } },
    },
  });
  await waitFor(
    "Karmada's detector to see IrisClusters",
    () =>
      maybe(() =>
        k.custom.getNamespacedCustomObject({
          group: "work.karmada.io",
          version: "v1alpha2",
          plural: "resourcebindings",
          namespace: "default",
          name: "bench-probe-iriscluster",
        }),
      ),
    90_000,
    200,
  );
  await k.custom.deleteNamespacedCustomObject({ ...probe, name: "bench-probe" });
  await k.custom.deleteNamespacedCustomObject({ ...policy, name: "bench-probe" });
}

async function waitForClones(members: string[]): Promise<void> {
  for (const m of members) {
    const c = labClients(m);
    await waitFor(
      `federated-iris on ${m}`,
      () =>
        maybe(() =>
          c.custom.getNamespacedCustomObject({
            group: "intersystems.com",
            version: "v1alpha1",
            plural: "irisclusters",
            namespace: "default",
            name: "federated-iris",
          }),
        ),
      300_000,
      200,
    );
  }
}

/** The article's steps as a script (testbed/bench/recipe.sh), until the IrisCluster is on every member. */
export async function recipeRun(members: string[]): Promise<Sample> {
  const { sample } = await measure(BENCH_LAB_DIR, async () => {
    const res = child.spawnSync("bash", [path.join(REPO, "testbed", "bench", "recipe.sh"), ...members], {
      encoding: "utf8",
      env: { ...process.env, IKO_LAB_DIR: BENCH_LAB_DIR, IKO_LAB_BIN_DIR: labBinDir() },
    });
    if (res.status !== 0) throw new Error(`recipe failed: ${res.stderr.slice(-2000)}`);
  });
  return sample;
}

/** Bytes of the stack's checkpoint file in a file:// backend (what the backend rewrites after every step). */
export function checkpointBytes(backendDir: string, stack: string): number {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === `${stack}.json` || e.name === `${stack}.json.gz`) found.push(p);
    }
  };
  walk(path.join(backendDir, ".pulumi", "stacks"));
  if (found.length !== 1)
    throw new Error(`expected one checkpoint of ${stack} under ${backendDir}, found ${found.length}`);
  return fs.statSync(found[0]).size;
}

export interface StackSamples {
  /** `pulumi up` until the IrisCluster is on every member. */
  up: Sample;
  /** The no-change `pulumi preview` after it. */
  noopPreview: Sample;
  /** The checkpoint's size after the up. */
  stateBytes: number;
}

/**
 * `pulumi up` of a fleet stack doing the recipe's work, until the IrisCluster is on every member;
 * then a no-change preview. `cliDir`: a folder with another `pulumi` CLI to run (default the lab's).
 */
export async function stackRun(members: string[], cliDir?: string): Promise<StackSamples> {
  const cli = new PulumiCli(undefined, cliDir);
  const name = "labtest-bench";
  const stack = new LabStack(cli, name, "Pulumi.lab-fleet.yaml", {
    "iko-plus:clusters": members.map((m) => ({
      name: m,
      kubeconfigPath: path.join(BENCH_LAB_DIR, m, "kubeconfig"),
      iko: false,
      join: { provider: "kind" },
    })),
    "iko-plus:karmada": { mode: "existing", kubeconfigPath: path.join(BENCH_LAB_DIR, "karmada", "kubeconfig") },
    "iko-plus:federatedIrisClusters": [
      {
        name: "federated-iris",
        image: "containers.intersystems.com/intersystems/iris-community:2025.1",
        serviceType: "LoadBalancer",
        policyName: "iriscluster-propagate",
        placement: { clusterNames: members },
      },
    ],
    "iko-plus:fleetSecrets": [],
  });
  try {
    await stack.init();
    const up = await measure(BENCH_LAB_DIR, async () => {
      await stack.up();
      await waitForClones(members);
    });
    const stateBytes = checkpointBytes(cli.backendDir, name);
    const noop = await measure(BENCH_LAB_DIR, () => stack.preview(["--expect-no-changes"]));
    return { up: up.sample, noopPreview: noop.sample, stateBytes };
  } finally {
    await stack.remove();
    cli.dispose();
  }
}

export { waitForClones };
