/**
 * KindCluster's errors on the real kind CLI and Docker engine, through a program that uses the
 * component as a library (test/kind/errors-program): each failure is one clear message naming
 * the cause and the fix, and leaves no container behind.
 */
import * as assert from "assert";
import * as path from "path";
import { PulumiCli, REPO } from "../lab/pulumi-cli";
import { containersNamed, sh, tierEnv, kindPulumiCli } from "./tier";

const DIR = path.join(REPO, "test/kind/errors-program");
const NAME = "ikpk-err";
const env = tierEnv();

describe("kind tier: KindCluster errors (real kind CLI and Docker engine)", function () {
  let cli: PulumiCli;
  const kind = (...args: string[]) => sh(env.KIND_BIN, args);
  let stackNo = 0;

  /** The error lines of the Diagnostics section (each problem once), without "update failed". */
  function diagnosticErrors(out: string): string[] {
    const diag = out.slice(out.indexOf("Diagnostics:"), out.indexOf("\nResources:"));
    return diag
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l.startsWith("error:") && l !== "error: update failed");
  }

  /** `pulumi up` of the program in a new stack with this config; returns the output. */
  async function upWith(
    config: Record<string, string>,
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<{ code: number; out: string }> {
    const stack = `kindtest-errors-${++stackNo}`;
    await cli.ok(["stack", "init", stack, "--secrets-provider", "passphrase"], { cwd: DIR });
    for (const [k, v] of Object.entries(config))
      await cli.ok(["config", "set", "--stack", stack, `kinderr:${k}`, v], { cwd: DIR });
    const saved = { ...cli.env };
    Object.assign(cli.env, extraEnv);
    try {
      const res = await cli.run(["up", "--yes", "--skip-preview", "--stack", stack], { cwd: DIR });
      return { code: res.code, out: res.stdout + res.stderr };
    } finally {
      for (const k of Object.keys(extraEnv)) {
        if (saved[k] === undefined) delete cli.env[k];
        else cli.env[k] = saved[k];
      }
      await cli.run(["destroy", "--yes", "--skip-preview", "--stack", stack], { cwd: DIR });
      await cli.run(["stack", "rm", "--yes", "--force", "--stack", stack], { cwd: DIR });
    }
  }

  before(() => {
    cli = kindPulumiCli(env);
    kind("delete", "cluster", "--name", NAME);
  });
  after(() => {
    kind("delete", "cluster", "--name", NAME);
    cli?.dispose();
  });

  it("a Docker engine that does not answer (DOCKER_HOST at a socket with no daemon): one message naming the fix, before kind runs", async () => {
    const res = await upWith(
      { name: NAME, nodeImage: env.NODE_IMAGE },
      { DOCKER_HOST: "unix:///tmp/iko-plus-no-docker-engine.sock" },
    );
    assert.notStrictEqual(res.code, 0);
    const lines = diagnosticErrors(res.out);
    assert.strictEqual(lines.length, 1, res.out);
    assert.match(
      lines[0],
      /^error: docker: "docker info" failed \(is the Docker engine running\?\): Cannot connect to the Docker daemon at unix:\/\/\/tmp\/iko-plus-no-docker-engine\.sock\. Is the docker daemon running\?; kind clusters need a Docker engine: install Docker and start it/,
    );
    assert.deepStrictEqual(containersNamed([`${NAME}-`]), []);
  });

  it("a config kind refuses (two port mappings on one host port): kind's reason in one message, nothing created", async () => {
    const res = await upWith({ name: NAME, nodeImage: env.NODE_IMAGE, duplicateHostPort: "true" });
    assert.notStrictEqual(res.code, 0);
    const lines = diagnosticErrors(res.out);
    assert.strictEqual(lines.length, 1, res.out);
    assert.match(
      lines[0],
      /^error: kind cluster "ikpk-err": kind refused its config \(ERROR: .*127\.0\.0\.1:38080\/TCP.*\); fix the field kind names/,
    );
    assert.deepStrictEqual(containersNamed([`${NAME}-`]), []);
  });

  it("a node image the engine does not have and cannot pull: one message naming nodeImage and the fix, nothing created", async () => {
    const res = await upWith({ name: NAME, nodeImage: "iko-plus/kind-node:v0.0.0-not-built" });
    assert.notStrictEqual(res.code, 0);
    const lines = diagnosticErrors(res.out);
    assert.strictEqual(lines.length, 1, res.out);
    assert.match(
      lines[0],
      /^error: kind cluster "ikpk-err": nodeImage "iko-plus\/kind-node:v0\.0\.0-not-built" is not in the Docker engine and cannot be pulled .*build or load that image/,
    );
    assert.deepStrictEqual(containersNamed([`${NAME}-`]), []);
  });
});
