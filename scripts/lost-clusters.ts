/**
 * Before `up` (and `preview`) of a stack: finds the stack's kind clusters that no longer exist
 * (`kind get clusters` does not list them: deleted out of band, a Docker reset) and, for `up`,
 * drops them and every object that went with them from the state, so the `up` that follows
 * recreates them whole. A cluster that exists but does not answer (paused, stopped) is not lost:
 * nothing is dropped, and `up` fails naming it.
 *
 * A kind cluster whose control plane is paused or stopped is named with the command that brings
 * it back (before `up`, `preview` and `destroy`).
 *
 * Usage (scripts/pulumi.sh runs it): lost-clusters.ts <recover|report|check> <stack> [working stack file]
 * (the working copy of the stack file scripts/pulumi.sh gives every command: `--config-file`)
 *   recover (before up), report (before preview: says what up would do), check (before destroy:
 *   only the paused or stopped warnings)
 * Needs `pulumi` on PATH and the backend and passphrase variables scripts/pulumi.sh sets.
 */
import * as child from "child_process";
import { StateResource, kindClustersInState, lostResourceUrns, stoppedClusterWarning } from "../components/kind/lost";

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return child.spawnSync(command, args, { encoding: "utf8", env, maxBuffer: 256 * 1024 * 1024 });
}

function fail(message: string): never {
  process.stderr.write(`lost-clusters: ${message}\n`);
  process.exit(1);
}

function main(): void {
  const [mode, stack, configFile] = process.argv.slice(2);
  if (!["recover", "report", "check"].includes(mode) || !stack)
    fail("usage: lost-clusters.ts <recover|report|check> <stack> [working stack file]");
  const exported = run("pulumi", ["stack", "export", "--stack", stack]);
  if (exported.status !== 0) fail(`pulumi stack export --stack ${stack} failed: ${exported.stderr.trim()}`);
  if (exported.stdout.trim() === "") return; // a stack with no state yet
  const resources = ((JSON.parse(exported.stdout) as { deployment?: { resources?: StateResource[] } }).deployment
    ?.resources ?? []) as StateResource[];
  const clusters = kindClustersInState(resources);
  if (clusters.length === 0) return;
  const existing = new Map<string, string[]>();
  for (const kindCommand of new Set(clusters.map((c) => c.kindCommand))) {
    const res = run(kindCommand, ["get", "clusters"]);
    if (res.error || res.status !== 0) {
      // Without an answer no cluster is taken for lost: `up` goes on and fails on what it cannot reach.
      const why = res.error ? res.error.message : res.stderr.trim();
      process.stderr.write(
        `lost-clusters: cannot tell which kind clusters exist (${kindCommand} get clusters: ${why})\n`,
      );
      return;
    }
    existing.set(
      kindCommand,
      res.stdout.split("\n").map((l) => l.trim()),
    );
  }
  const lost = clusters.filter((c) => !(existing.get(c.kindCommand) ?? []).includes(c.name));
  for (const c of clusters.filter((x) => !lost.includes(x))) {
    const res = run(c.dockerCommand, ["inspect", "--format", "{{.State.Status}}", `${c.name}-control-plane`]);
    const warning = res.status === 0 ? stoppedClusterWarning(c.name, res.stdout.trim()) : undefined;
    if (warning) process.stderr.write(`lost-clusters: ${warning}\n`);
  }
  if (lost.length === 0 || mode === "check") return;
  const urns = lostResourceUrns(
    resources,
    lost.map((c) => c.urn),
  );
  const names = lost.map((c) => `kind cluster "${c.name}"`).join(", ");
  if (mode === "report") {
    process.stderr.write(
      `lost-clusters: ${names} no longer exist${lost.length === 1 ? "s" : ""} (deleted outside the stack); ` +
        `this preview still shows the state's copy. \`npm run up\` recreates ${lost.length === 1 ? "it" : "them"} ` +
        `and the ${urns.length - lost.length} objects that went with ${lost.length === 1 ? "it" : "them"}.\n`,
    );
    return;
  }
  process.stderr.write(
    `lost-clusters: ${names} no longer exist${lost.length === 1 ? "s" : ""} (deleted outside the stack): ` +
      `dropping ${lost.length === 1 ? "it" : "them"} and the ${urns.length - lost.length} objects that went with ` +
      `${lost.length === 1 ? "it" : "them"} from the state; this up recreates them\n`,
  );
  // Only these resources are refreshed, and only they may leave the state because their cluster does
  // not answer: a cluster that is merely paused keeps everything.
  const args = [
    "refresh",
    "--yes",
    "--skip-preview",
    "--stack",
    stack,
    ...(configFile ? ["--config-file", configFile] : []),
    ...urns.flatMap((u) => ["--target", u]),
  ];
  const refresh = child.spawnSync("pulumi", args, {
    stdio: "inherit",
    env: { ...process.env, PULUMI_K8S_DELETE_UNREACHABLE: "true" },
  });
  if (refresh.status !== 0) fail(`dropping the lost clusters' objects from the state failed (pulumi refresh)`);
}

main();
