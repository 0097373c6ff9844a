/**
 * The PR preview command (preview/run.ts) with its commands faked: git, npm, the lab CLI and pulumi
 * answer from a script here, so the tests see the plan (which commands, in which folder, with
 * which environment and config files), the summary it writes, its exit code and its clean-up,
 * without a lab or a Pulumi CLI. The helpers (output tail, stack files, lab secrets, Pulumi's
 * environment, the real process runner) are checked on their own.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import {
  Run,
  RunOptions,
  Runner,
  main,
  okRunner,
  pulumiEnv,
  readStackFile,
  secretValue,
  spawnRun,
  tail,
} from "../../preview/run";
import { fileBackendUrl } from "../../preview/backend";

/** The checkout preview/run.ts runs its lab CLI from. */
const TOOL = path.resolve(__dirname, "..", "..");
const BASE_SHA = "a".repeat(40);
const HEAD_SHA = "b".repeat(40);
const LAB_CLI = path.join(TOOL, "testbed", "lab", "src", "cli.ts");

interface Call {
  cmd: string;
  args: string[];
  opts: RunOptions;
}

const done = (stdout = "", code = 0, stderr = ""): Run => ({ code, stdout, stderr });

/** What the fake commands answer; every field has the happy default. */
interface World {
  /** Files of the base worktree (`git worktree add` writes them). */
  baseFiles: Record<string, string>;
  /** Folders `git worktree add` creates in the worktree (e.g. node_modules). */
  baseDirs?: string[];
  dirty?: boolean;
  /** `git worktree add` fails. */
  worktreeFails?: boolean;
  /** `git rev-parse --verify` fails (unknown base). */
  unknownBase?: boolean;
  /** Exit code of `pulumi up` per stack. */
  upCode?: Record<string, number>;
  /** `pulumi preview` per stack: stdout and exit code. */
  preview?: Record<string, Run>;
  /** Called during `pulumi up` (e.g. to deliver a signal). */
  duringUp?: () => void;
}

interface Seen {
  calls: Call[];
  /** Config files as they were when a pulumi command was given them, by file name. */
  configFiles: Record<string, unknown>;
  /** Whether the worktree's node_modules was a symlink to the checkout's at `pulumi up`. */
  linkedModules?: boolean;
  worktree?: string;
}

/** The test checkouts and the temporary folders main made; removed after each test even if main threw or a broken clean-up left them. */
const leftovers: string[] = [];

function fakeRunner(repo: string, world: World, seen: Seen): Runner {
  return async (cmd, args, opts) => {
    seen.calls.push({ cmd, args, opts });
    const sub = args.join(" ");
    if (cmd === "git") {
      if (sub === "rev-parse --show-toplevel") return done(`${repo}\n`);
      if (sub.startsWith("rev-parse --verify"))
        return world.unknownBase ? done("", 128, "fatal: Needed a single revision") : done(`${BASE_SHA}\n`);
      if (sub === "rev-parse HEAD") return done(`${HEAD_SHA}\n`);
      if (sub.startsWith("status")) return done(world.dirty ? " M index.ts\n" : "");
      if (args[0] === "worktree" && args[1] === "add") {
        // Only main's own `iko-plus-preview-*` folder: a mutated worktree path must never point the
        // clean-up at the system temp folder itself.
        const made = path.dirname(args[3]);
        if (path.dirname(made) === os.tmpdir() && path.basename(made).startsWith("iko-plus-preview-"))
          leftovers.push(made);
        if (world.worktreeFails) return done("", 128, "fatal: invalid reference");
        const wt = args[3];
        seen.worktree = wt;
        fs.mkdirSync(wt, { recursive: true });
        for (const [f, text] of Object.entries(world.baseFiles)) fs.writeFileSync(path.join(wt, f), text);
        for (const d of world.baseDirs ?? []) fs.mkdirSync(path.join(wt, d));
        return done();
      }
      return done();
    }
    if (cmd === "pulumi") {
      const stack = args[args.indexOf("--stack") + 1];
      const cfg = args.indexOf("--config-file");
      if (cfg >= 0 && args[0] !== "config")
        seen.configFiles[path.basename(args[cfg + 1])] = YAML.parse(fs.readFileSync(args[cfg + 1], "utf8"));
      if (args[0] === "stack" && args[1] === "init") {
        fs.writeFileSync(path.join(opts.cwd, `Pulumi.${args[2]}.yaml`), "encryptionsalt: v1:salty\n");
        return done();
      }
      if (args[0] === "up") {
        const modules = seen.worktree && path.join(seen.worktree, "node_modules");
        if (modules && fs.existsSync(modules)) seen.linkedModules = fs.lstatSync(modules).isSymbolicLink();
        world.duringUp?.();
        const code = world.upCode?.[stack] ?? 0;
        return done("Updating (lab)\n", code, code ? "error: up broke\n" : "");
      }
      if (args[0] === "preview") return world.preview?.[stack] ?? done(JSON.stringify({ steps: [] }));
      return done();
    }
    return done();
  };
}

/** A checkout with Pulumi.yaml, a lock file, node_modules and the given stack files. */
function makeRepo(files: Record<string, string>): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "preview-run-test-"));
  leftovers.push(repo); // removed after the test even when main throws before the test can track it
  fs.writeFileSync(path.join(repo, "Pulumi.yaml"), "name: iko-plus\nruntime: nodejs\n");
  fs.writeFileSync(path.join(repo, "package-lock.json"), '{"lock":1}');
  fs.mkdirSync(path.join(repo, "node_modules"));
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(repo, f), text);
  return repo;
}

const FLEET_YAML = YAML.stringify({
  config: {
    "iko-plus:clusters": [{ name: "ikoclone", kubeconfigPath: ".lab/ikoclone/kubeconfig" }],
    "iko-plus:karmada": { mode: "existing", kubeconfigPath: ".lab/karmada/kubeconfig" },
    "iko-plus:federatedIrisClusters": [{ name: "f", licenseKeyConfig: "irisLicenseKey" }],
    "iko-plus:fleetSecrets": [{ name: "s", dataKey: "shhhhSecretData" }],
  },
});
const PLAIN_YAML = YAML.stringify({ config: { "iko-plus:program": "wfh" } });

interface Outcome {
  code: number;
  seen: Seen;
  logs: string[];
  printed: string[];
  exits: number[];
  repo: string;
  tmp: string;
  summary: string;
  full: string;
}

async function preview(argv: string[], repoFiles: Record<string, string>, world: World): Promise<Outcome> {
  const repo = makeRepo(repoFiles);
  const seen: Seen = { calls: [], configFiles: {} };
  const logs: string[] = [];
  const printed: string[] = [];
  const exits: number[] = [];
  const code = await main(argv, {
    run: fakeRunner(repo, world, seen),
    log: (m) => logs.push(m),
    print: (l) => printed.push(l),
    exit: (c) => exits.push(c),
  });
  const out = printed[0] ?? path.join(repo, ".iko-plus", "preview", "summary.md");
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "");
  return {
    code,
    seen,
    logs,
    printed,
    exits,
    repo,
    tmp: seen.worktree ? path.dirname(seen.worktree) : "",
    summary: read(out),
    full: read(out.replace(/(\.md)?$/, "-full.md")),
  };
}

/** The calls as "cmd args" lines, the temporary folder written `<tmp>` and the checkout `<repo>`. */
function plan(o: Outcome): string[] {
  const norm = (s: string) =>
    (o.tmp ? s.split(o.tmp).join("<tmp>") : s).split(o.repo).join("<repo>").split(TOOL).join("<tool>");
  return o.seen.calls.map((c) =>
    norm(
      `${c.cmd === process.execPath ? "node" : c.cmd} ${c.args
        .map((a) => (/^lab-.*-[0-9a-f]{24}/.test(a) || a.startsWith('{"password"') ? "<secret>" : a))
        .join(" ")} @ ${c.opts.cwd}`,
    ),
  );
}

describe("unit: preview:pr command (preview/run.ts) with faked git, lab and pulumi", () => {
  let cleanupDirs: string[] = [];
  afterEach(() => {
    for (const d of [...cleanupDirs, ...leftovers.splice(0)]) fs.rmSync(d, { recursive: true, force: true });
    cleanupDirs = [];
  });
  const track = (o: Outcome) => {
    cleanupDirs.push(o.repo);
    return o;
  };

  it("deploys the base, previews the working tree per stack, then removes the lab, the worktree and the temporary folder, in that order", async () => {
    const o = track(
      await preview(
        ["--base", "origin/main", "--stacks", "lab-fleet,lab-new"],
        { "Pulumi.lab-fleet.yaml": FLEET_YAML, "Pulumi.lab-new.yaml": PLAIN_YAML },
        { baseFiles: { "Pulumi.lab-fleet.yaml": FLEET_YAML, "package-lock.json": '{"lock":1}' } },
      ),
    );
    assert.strictEqual(o.code, 0);
    const cfgArgs = (stack: string, side: string) => `--stack ${stack} --config-file <tmp>/${stack}.${side}.yaml`;
    const up = `node -r ts-node/register/transpile-only <tool>/testbed/lab/src/cli.ts`;
    assert.deepStrictEqual(o.seen.calls[0].opts.cwd, process.cwd(), "the checkout is found from the current folder");
    assert.deepStrictEqual(plan(o), [
      `git rev-parse --show-toplevel @ ${o.seen.calls[0].opts.cwd === TOOL ? "<tool>" : process.cwd()}`,
      `git rev-parse --verify origin/main^{commit} @ <repo>`,
      `git rev-parse HEAD @ <repo>`,
      `git status --porcelain --untracked-files=no @ <repo>`,
      `git worktree add --detach <tmp>/base ${BASE_SHA} @ <repo>`,
      `${up} up @ <tool>`,
      `pulumi stack init lab-fleet --secrets-provider passphrase --non-interactive @ <tmp>/init-lab-fleet`,
      `pulumi config set --secret irisLicenseKey <secret> ${cfgArgs("lab-fleet", "base")} --non-interactive @ <tmp>/init-lab-fleet`,
      `pulumi config set --secret shhhhSecretData <secret> ${cfgArgs("lab-fleet", "base")} --non-interactive @ <tmp>/init-lab-fleet`,
      `pulumi up --yes --skip-preview ${cfgArgs("lab-fleet", "base")} --non-interactive --color never @ <tmp>/base`,
      `pulumi config set --secret irisLicenseKey <secret> ${cfgArgs("lab-fleet", "head")} --non-interactive @ <tmp>/init-lab-fleet`,
      `pulumi config set --secret shhhhSecretData <secret> ${cfgArgs("lab-fleet", "head")} --non-interactive @ <tmp>/init-lab-fleet`,
      `pulumi preview --diff --json ${cfgArgs("lab-fleet", "head")} --non-interactive --color never @ <repo>`,
      `pulumi stack init lab-new --secrets-provider passphrase --non-interactive @ <tmp>/init-lab-new`,
      `pulumi preview --diff --json ${cfgArgs("lab-new", "head")} --non-interactive --color never @ <repo>`,
      `${up} down @ <tool>`,
      `git worktree remove --force <tmp>/base @ <repo>`,
      `git worktree prune @ <repo>`,
    ]);
    assert.strictEqual(fs.existsSync(o.tmp), false, "the temporary folder is removed");
    assert.strictEqual(o.seen.linkedModules, true, "same lock file: the checkout's node_modules is linked");
    assert.deepStrictEqual(o.printed, [path.join(o.repo, ".iko-plus", "preview", "summary.md")]);
    assert.deepStrictEqual(o.exits, []);
    assert.ok(o.logs.includes(`base origin/main = ${"a".repeat(12)}; worktree in ${o.tmp}/base`), o.logs.join("\n"));
    assert.ok(o.logs.includes(`lab in ${o.tmp}/lab: members [ikoclone] + karmada`), o.logs.join("\n"));
    assert.ok(o.logs.includes("lab-fleet: pulumi up of the base"));
    assert.ok(o.logs.includes("lab-new: the base has no Pulumi.lab-new.yaml; previewing against an empty stack"));
    assert.ok(o.logs.includes("lab-new: pulumi preview --diff --json of the working tree"));
    assert.strictEqual(o.logs[o.logs.length - 1], "tearing down the lab and the worktree");
    assert.strictEqual(path.dirname(o.tmp), os.tmpdir(), "the temporary folder is in the system temp folder");
    assert.match(path.basename(o.tmp), /^iko-plus-preview-/);
    assert.ok(
      o.summary.startsWith("<!-- iko-plus-preview -->\n### Pulumi preview: `lab-fleet`, `lab-new`\n"),
      o.summary,
    );
  });

  it("starts the lab with the members and Karmada the stacks name, and runs pulumi in a private environment", async () => {
    const o = track(
      await preview(
        ["--base", "main", "--stacks", "lab-fleet"],
        { "Pulumi.lab-fleet.yaml": FLEET_YAML },
        { baseFiles: { "Pulumi.lab-fleet.yaml": FLEET_YAML } },
      ),
    );
    const lab = o.seen.calls.filter((c) => c.cmd === process.execPath);
    assert.deepStrictEqual(
      lab.map((c) => [c.args, c.opts.cwd]),
      [
        [["-r", "ts-node/register/transpile-only", LAB_CLI, "up"], TOOL],
        [["-r", "ts-node/register/transpile-only", LAB_CLI, "down"], TOOL],
      ],
    );
    for (const c of lab) {
      assert.strictEqual(c.opts.env?.IKO_LAB_DIR, path.join(o.tmp, "lab"));
      assert.strictEqual(c.opts.env?.IKO_LAB_MEMBERS, "ikoclone");
      assert.strictEqual(c.opts.env?.IKO_LAB_KARMADA, "1");
      assert.strictEqual(c.opts.env?.PATH, process.env.PATH, "the lab gets the caller's environment too");
    }
    const pulumi = o.seen.calls.filter((c) => c.cmd === "pulumi");
    assert.ok(pulumi.length > 0);
    for (const c of pulumi) {
      assert.strictEqual(c.opts.env?.PULUMI_BACKEND_URL, fileBackendUrl(path.join(o.tmp, "backend")));
      assert.strictEqual(c.opts.env?.PULUMI_HOME, path.join(o.tmp, "pulumi-home"));
      assert.match(c.opts.env?.PULUMI_CONFIG_PASSPHRASE ?? "", /^[A-Za-z0-9+/]{24}$/);
    }
    assert.strictEqual(new Set(pulumi.map((c) => c.opts.env?.PULUMI_CONFIG_PASSPHRASE)).size, 1, "one passphrase");
    const git = o.seen.calls.filter((c) => c.cmd === "git");
    assert.ok(
      git.every((c) => c.opts.env === undefined),
      "git runs with the caller's environment",
    );
  });

  it("writes both sides' config with the lab paths pointed at the new lab, the stack's salt, and the same generated secret per key", async () => {
    const o = track(
      await preview(
        ["--base", "main", "--stacks", "lab-fleet", "--lab-dir", "rel-lab"],
        { "Pulumi.lab-fleet.yaml": FLEET_YAML },
        { baseFiles: { "Pulumi.lab-fleet.yaml": FLEET_YAML } },
      ),
    );
    const labDir = path.resolve("rel-lab");
    const expected = {
      encryptionsalt: "v1:salty",
      config: {
        "iko-plus:clusters": [{ name: "ikoclone", kubeconfigPath: `${labDir}/ikoclone/kubeconfig` }],
        "iko-plus:karmada": { mode: "existing", kubeconfigPath: `${labDir}/karmada/kubeconfig` },
        "iko-plus:federatedIrisClusters": [{ name: "f", licenseKeyConfig: "irisLicenseKey" }],
        "iko-plus:fleetSecrets": [{ name: "s", dataKey: "shhhhSecretData" }],
      },
    };
    assert.deepStrictEqual(o.seen.configFiles["lab-fleet.base.yaml"], expected);
    assert.deepStrictEqual(o.seen.configFiles["lab-fleet.head.yaml"], expected);
    assert.strictEqual(o.seen.calls.find((c) => c.cmd === process.execPath)?.opts.env?.IKO_LAB_DIR, labDir);
    const sets = o.seen.calls.filter((c) => c.args[0] === "config").map((c) => [c.args[3], c.args[4]]);
    assert.strictEqual(sets.length, 4);
    const [license, data, license2, data2] = sets;
    assert.deepStrictEqual([license2, data2], [license, data], "base and head get the same values");
    assert.match(license[1], /^lab-irisLicenseKey-[0-9a-f]{24}$/);
    assert.match((JSON.parse(data[1]) as { password: string }).password, /^lab-shhhhSecretData-[0-9a-f]{24}$/);
  });

  it("states in the summary what was compared, and never shows the generated secrets or the passphrase", async () => {
    let secrets: string[] = [];
    const world: World = {
      baseFiles: { "Pulumi.lab-fleet.yaml": FLEET_YAML },
      dirty: true,
      preview: {},
    };
    const repo = makeRepo({ "Pulumi.lab-fleet.yaml": FLEET_YAML });
    cleanupDirs.push(repo);
    const seen: Seen = { calls: [], configFiles: {} };
    const fake = fakeRunner(repo, world, seen);
    const printed: string[] = [];
    const code = await main(["--base", "v1", "--stacks", "lab-fleet", "--out", "out/pr.md", "--max-chars", "2000"], {
      log: () => undefined,
      print: (l) => printed.push(l),
      run: async (cmd, args, opts) => {
        if (args[0] === "preview") {
          const pass = opts.env?.PULUMI_CONFIG_PASSPHRASE ?? "";
          secrets = seen.calls.filter((c) => c.args[0] === "config").map((c) => c.args[4]);
          const message = `bad values: ${secrets.join(" ")} ${pass}`;
          seen.calls.push({ cmd, args, opts });
          return done(JSON.stringify({ diagnostics: [{ severity: "error", message }] }), 1);
        }
        return fake(cmd, args, opts);
      },
    });
    assert.strictEqual(code, 1, "a stack with errors: exit 1");
    assert.deepStrictEqual(printed, [path.join(repo, "out", "pr.md")]);
    const md = fs.readFileSync(printed[0], "utf8");
    const full = fs.readFileSync(path.join(repo, "out", "pr-full.md"), "utf8");
    assert.ok(secrets.length === 4);
    for (const text of [md, full]) {
      for (const s of secrets) assert.ok(!text.includes(s), `secret ${s} shown`);
      assert.ok(text.includes("bad values: [secret] [secret] [secret] [secret] [secret]"), text);
      assert.ok(text.startsWith("<!-- iko-plus-preview -->\n### Pulumi preview: `lab-fleet`\n\n"), text);
      assert.ok(
        text.includes(
          `Base \`v1\` (\`${"a".repeat(12)}\`) deployed into a fresh lab, then the working tree ` +
            `(\`${"b".repeat(12)}\` with uncommitted changes) previewed against it with \`pulumi preview --diff --json\`. ` +
            "Changed properties are listed by path; secret values are never shown. Stack outputs are not compared.\n",
        ),
        text,
      );
    }
    assert.ok(md.length <= 2000, "--max-chars applies to the summary");
  });

  it("says nothing about uncommitted changes for a clean tree, and names the full summary after an out file without .md", async () => {
    const o = track(
      await preview(
        ["--base", "main", "--stacks", "lab-new", "--out", "report"],
        { "Pulumi.lab-new.yaml": PLAIN_YAML },
        {
          baseFiles: {},
        },
      ),
    );
    assert.strictEqual(o.code, 0);
    assert.deepStrictEqual(o.printed, [path.join(o.repo, "report")]);
    assert.ok(fs.existsSync(path.join(o.repo, "report-full.md")));
    assert.ok(o.summary.includes(`(\`${"b".repeat(12)}\`) previewed against it`), o.summary);
    assert.ok(o.summary.includes("#### `lab-new`: no changes"), o.summary);
    assert.ok(!o.seen.calls.some((c) => c.cmd === process.execPath && c.args[3] === "up"), "no lab needed: no lab up");
    assert.ok(o.logs.includes(`lab in ${o.tmp}/lab: members []`), o.logs.join("\n"));
  });

  it("links node_modules only when the lock files match; runs npm ci in the base otherwise, and keeps a base's own node_modules", async () => {
    const differs = track(
      await preview(
        ["--base", "main", "--stacks", "lab-new"],
        { "Pulumi.lab-new.yaml": PLAIN_YAML },
        {
          baseFiles: { "package-lock.json": '{"lock":2}' },
        },
      ),
    );
    assert.ok(plan(differs).includes("npm ci --no-audit --no-fund @ <tmp>/base"), plan(differs).join("\n"));
    assert.ok(differs.logs.includes("package-lock.json differs from the base: npm ci in the base worktree"));
    const noLock = track(
      await preview(
        ["--base", "main", "--stacks", "lab-new"],
        { "Pulumi.lab-new.yaml": PLAIN_YAML },
        { baseFiles: {} },
      ),
    );
    assert.ok(plan(noLock).includes("npm ci --no-audit --no-fund @ <tmp>/base"), "no lock file in the base: npm ci");
    const own = track(
      await preview(
        ["--base", "main", "--stacks", "lab-new"],
        { "Pulumi.lab-new.yaml": PLAIN_YAML },
        {
          baseFiles: { "package-lock.json": '{"lock":2}' },
          baseDirs: ["node_modules"],
        },
      ),
    );
    assert.ok(!own.seen.calls.some((c) => c.cmd === "npm"), "the base's own node_modules: no npm ci");
    assert.ok(own.logs.includes("the base worktree has its own node_modules"));
  });

  it("runs npm ci when the checkout itself has no node_modules or no lock file to link", async () => {
    for (const remove of ["node_modules", "package-lock.json"]) {
      const repo = makeRepo({ "Pulumi.lab-new.yaml": PLAIN_YAML });
      cleanupDirs.push(repo);
      fs.rmSync(path.join(repo, remove), { recursive: true });
      const seen: Seen = { calls: [], configFiles: {} };
      const lockText = remove === "package-lock.json" ? undefined : '{"lock":1}';
      await main(["--base", "main", "--stacks", "lab-new"], {
        run: fakeRunner(repo, { baseFiles: lockText ? { "package-lock.json": lockText } : {} }, seen),
        log: () => undefined,
        print: () => undefined,
      });
      assert.ok(
        seen.calls.some((c) => c.cmd === "npm" && c.args[0] === "ci"),
        `without the checkout's ${remove}: npm ci`,
      );
    }
  });

  it("reports a failed pulumi up of the base as that stack's error, with the output's tail, and goes on with the next stack", async () => {
    const o = track(
      await preview(
        ["--base", "main", "--stacks", "lab-fleet,lab-new"],
        { "Pulumi.lab-fleet.yaml": FLEET_YAML, "Pulumi.lab-new.yaml": PLAIN_YAML },
        { baseFiles: { "Pulumi.lab-fleet.yaml": FLEET_YAML }, upCode: { "lab-fleet": 2 } },
      ),
    );
    assert.strictEqual(o.code, 1);
    assert.ok(
      o.full.includes(
        "pulumi up of the base failed (exit 2), so there is nothing to compare against:\nUpdating (lab)\n\nerror: up broke",
      ),
      o.full,
    );
    const previews = o.seen.calls
      .filter((c) => c.args[0] === "preview")
      .map((c) => c.args[c.args.indexOf("--stack") + 1]);
    assert.deepStrictEqual(previews, ["lab-new"], "no preview of a stack whose base did not deploy");
    assert.ok(o.full.includes("#### `lab-new`: no changes"));
  });

  it("reports a preview that prints no JSON, or exits non-zero without errors, with the exit code and the output's tail", async () => {
    const o = track(
      await preview(
        ["--base", "main", "--stacks", "lab-a,lab-b,lab-c"],
        { "Pulumi.lab-a.yaml": PLAIN_YAML, "Pulumi.lab-b.yaml": PLAIN_YAML, "Pulumi.lab-c.yaml": PLAIN_YAML },
        {
          baseFiles: {},
          preview: {
            "lab-a": done("oops, not json", 1, "error: crashed"),
            "lab-b": done(JSON.stringify({ steps: [] }), 3, "warning: odd"),
            "lab-c": done(JSON.stringify({ diagnostics: [{ severity: "error", message: "the real error" }] }), 4),
          },
        },
      ),
    );
    assert.strictEqual(o.code, 1);
    // The JSON parser's own words differ between Node versions: matched loosely.
    assert.match(
      o.full,
      /pulumi preview exited 1; the preview output is not pulumi's --json object \(.+\); it starts: oops, not json\noops, not json\nerror: crashed\n/,
    );
    assert.ok(o.full.includes('pulumi preview exited 3:\n{"steps":[]}\nwarning: odd'), o.full);
    const c = o.full.split("#### `lab-c`")[1];
    assert.ok(c.includes("the real error") && !c.includes("pulumi preview exited 4"), "its own errors suffice");
  });

  it("reports a stack file missing from the working tree without running pulumi for it", async () => {
    const o = track(await preview(["--base", "main", "--stacks", "lab-gone"], {}, { baseFiles: {} }));
    assert.strictEqual(o.code, 1);
    assert.ok(o.full.includes("the working tree has no Pulumi.lab-gone.yaml"), o.full);
    assert.ok(!o.seen.calls.some((c) => c.cmd === "pulumi"));
  });

  it("turns a failing setup step into a (preview) error in the summary, and still cleans up", async () => {
    const o = track(
      await preview(["--base", "main", "--stacks", "lab-new"], {}, { baseFiles: {}, worktreeFails: true }),
    );
    assert.strictEqual(o.code, 1);
    assert.ok(o.full.includes("#### `(preview)`: preview failed"), o.full);
    assert.ok(o.full.includes("git worktree add --detach "), o.full);
    assert.ok(o.full.includes(" exited 128:\nfatal: invalid reference"), o.full);
    const tmp = path.dirname(o.seen.calls.find((c) => c.args[1] === "add")?.args[3] ?? "");
    assert.strictEqual(fs.existsSync(tmp), false);
    assert.ok(o.seen.calls.some((c) => c.args.join(" ") === "worktree prune"));
  });

  it("starts a lab for the clusters either side names, without Karmada when neither names it", async () => {
    const side = (name: string) =>
      YAML.stringify({ config: { "iko-plus:home": { kubeconfigPath: `.lab/${name}/kubeconfig` } } });
    const o = track(
      await preview(
        ["--base", "main", "--stacks", "lab-wfh"],
        { "Pulumi.lab-wfh.yaml": side("ikonew") },
        {
          baseFiles: { "Pulumi.lab-wfh.yaml": side("ikoold") },
        },
      ),
    );
    const up = o.seen.calls.find((c) => c.cmd === process.execPath && c.args[3] === "up");
    assert.ok(up, "members but no Karmada: the lab is started");
    assert.strictEqual(up.opts.env?.IKO_LAB_MEMBERS, "ikonew,ikoold");
    assert.strictEqual(up.opts.env?.IKO_LAB_KARMADA, "0");
    assert.ok(o.logs.includes(`lab in ${o.tmp}/lab: members [ikonew, ikoold]`), o.logs.join("\n"));
  });

  it("writes config files without an encryption salt when the new stack file has none", async () => {
    const repo = makeRepo({ "Pulumi.lab-new.yaml": PLAIN_YAML });
    cleanupDirs.push(repo);
    const seen: Seen = { calls: [], configFiles: {} };
    const fake = fakeRunner(repo, { baseFiles: {} }, seen);
    const code = await main(["--base", "main", "--stacks", "lab-new"], {
      log: () => undefined,
      print: () => undefined,
      run: async (cmd, args, opts) => (args[1] === "init" ? done() : fake(cmd, args, opts)),
    });
    assert.strictEqual(code, 0);
    assert.deepStrictEqual(seen.configFiles["lab-new.head.yaml"], { config: { "iko-plus:program": "wfh" } });
  });

  it("logs progress to stderr by default, with the seconds since start", async () => {
    const repo = makeRepo({});
    cleanupDirs.push(repo);
    const seen: Seen = { calls: [], configFiles: {} };
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    try {
      process.stderr.write = ((d: string | Uint8Array) => {
        written.push(d.toString());
        return true;
      }) as typeof process.stderr.write;
      await main(["--base", "main", "--stacks", "lab-gone"], {
        run: fakeRunner(repo, { baseFiles: {}, worktreeFails: true }, seen),
        print: () => undefined,
      });
    } finally {
      process.stderr.write = write;
    }
    const first = /^preview:pr \[(\d+\.\d)s\] base main = aaaaaaaaaaaa; worktree in .*\n$/.exec(written[0]);
    assert.ok(first, written.join(""));
    assert.ok(Number(first[1]) <= process.uptime() + 0.1, `${first[1]}s since the module was loaded`);
  });

  it("fails before any set-up when the base is not a commit", async () => {
    const repo = makeRepo({});
    cleanupDirs.push(repo);
    const seen: Seen = { calls: [], configFiles: {} };
    await assert.rejects(
      main(["--base", "nope"], {
        run: fakeRunner(repo, { baseFiles: {}, unknownBase: true }, seen),
        log: () => undefined,
      }),
      (e: Error) => e.message === "git rev-parse --verify nope^{commit} exited 128:\nfatal: Needed a single revision",
    );
    assert.strictEqual(seen.calls.length, 2);
  });

  it("on SIGTERM or SIGINT tears everything down once and exits 130; the handlers are gone afterwards", async () => {
    for (const sig of ["SIGTERM", "SIGINT"] as const) {
      const before = process.listenerCount(sig);
      let handled = false;
      const o = track(
        await preview(
          ["--base", "main", "--stacks", "lab-fleet"],
          { "Pulumi.lab-fleet.yaml": FLEET_YAML },
          {
            baseFiles: { "Pulumi.lab-fleet.yaml": FLEET_YAML },
            duringUp: () => {
              const listeners = process.listeners(sig);
              assert.strictEqual(listeners.length, before + 1);
              (listeners[listeners.length - 1] as (s: NodeJS.Signals) => void)(sig);
              handled = true;
            },
          },
        ),
      );
      assert.ok(handled);
      assert.strictEqual(process.listenerCount(sig), before);
      assert.strictEqual(process.listenerCount(sig === "SIGINT" ? "SIGTERM" : "SIGINT"), before);
      await new Promise((r) => setTimeout(r, 10));
      assert.deepStrictEqual(o.exits, [130]);
      assert.ok(o.logs.includes(`${sig}: tearing down`), o.logs.join("\n"));
      const downs = o.seen.calls.filter((c) => c.cmd === process.execPath && c.args[3] === "down");
      assert.strictEqual(downs.length, 1, "cleaned up once");
      assert.strictEqual(o.seen.calls.filter((c) => c.args[1] === "prune").length, 1);
    }
  });

  it("logs a clean-up step that fails and goes on with the others", async () => {
    const repo = makeRepo({ "Pulumi.lab-new.yaml": PLAIN_YAML });
    cleanupDirs.push(repo);
    const seen: Seen = { calls: [], configFiles: {} };
    const fake = fakeRunner(repo, { baseFiles: {} }, seen);
    const logs: string[] = [];
    const code = await main(["--base", "main", "--stacks", "lab-new"], {
      log: (m) => logs.push(m),
      print: () => undefined,
      run: async (cmd, args, opts) => {
        if (cmd === process.execPath && args[3] === "down") throw new Error("lab down broke");
        return fake(cmd, args, opts);
      },
    });
    assert.strictEqual(code, 0);
    assert.ok(logs.includes("cleanup: lab down broke"), logs.join("\n"));
    assert.ok(
      seen.calls.some((c) => c.args[1] === "prune"),
      "the worktree is still removed",
    );
  });
});

describe("unit: preview:pr helpers (preview/run.ts)", () => {
  it("tail gives the last lines of stdout then stderr, trimmed", () => {
    const r = done("one\ntwo\nthree", 1, "four\nfive\n");
    assert.strictEqual(tail(r, 2), "four\nfive");
    assert.strictEqual(tail(r, 4), "two\nthree\nfour\nfive");
    const many = done(Array.from({ length: 50 }, (_, i) => `l${i}`).join("\n"));
    assert.strictEqual(tail(many).split("\n").length, 40, "40 lines by default");
    assert.strictEqual(tail(many).split("\n")[0], "l10");
  });

  it("okRunner passes a zero exit through and turns another into an error naming the command", async () => {
    const r = done("fine");
    assert.strictEqual(await okRunner(async () => r)("x", [], { cwd: "/" }), r);
    await assert.rejects(okRunner(async () => done("out", 5, "err"))("tool", ["a", "b"], { cwd: "/" }), {
      message: "tool a b exited 5:\nout\nerr",
    });
  });

  it("readStackFile: undefined for a missing file, {} for an empty one, the YAML otherwise", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "preview-run-test-"));
    try {
      assert.strictEqual(readStackFile(path.join(dir, "none.yaml")), undefined);
      fs.writeFileSync(path.join(dir, "empty.yaml"), "");
      assert.deepStrictEqual(readStackFile(path.join(dir, "empty.yaml")), {});
      fs.writeFileSync(path.join(dir, "s.yaml"), "encryptionsalt: v1:x\nconfig:\n  a: 1\n");
      assert.deepStrictEqual(readStackFile(path.join(dir, "s.yaml")), { encryptionsalt: "v1:x", config: { a: 1 } });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("secretValue: a fresh random text per call, wrapped as {password} for JSON keys", () => {
    const a = secretValue({ key: "k", shape: "text" });
    const b = secretValue({ key: "k", shape: "text" });
    assert.match(a, /^lab-k-[0-9a-f]{24}$/);
    assert.notStrictEqual(a, b);
    const j = JSON.parse(secretValue({ key: "d", shape: "json" })) as Record<string, string>;
    assert.deepStrictEqual(Object.keys(j), ["password"]);
    assert.match(j.password, /^lab-d-[0-9a-f]{24}$/);
  });

  it("pulumiEnv: the lab's binaries and shims first on PATH, a private home, file backend and TMPDIR, nothing downloaded or asked", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "preview-run-test-"));
    try {
      const env = pulumiEnv(tmp, "pass", "/opt/lab/bin");
      assert.ok(fs.statSync(path.join(tmp, "pulumi-home")).isDirectory());
      assert.ok(fs.statSync(path.join(tmp, "backend")).isDirectory());
      assert.strictEqual(env.TMPDIR, path.join(tmp, "os-tmp"), "the provider's kubeconfig files go under tmp");
      assert.ok(fs.statSync(path.join(tmp, "os-tmp")).isDirectory());
      const { PATH, ...rest } = env;
      assert.deepStrictEqual(PATH?.split(path.delimiter), [
        "/opt/lab/bin",
        path.join(TOOL, "testbed", "lab", "shims"),
        ...(process.env.PATH ?? "").split(path.delimiter),
      ]);
      assert.deepStrictEqual(
        Object.fromEntries(Object.entries(rest).filter(([k]) => k.startsWith("PULUMI_") || k === "NO_COLOR")),
        {
          PULUMI_HOME: path.join(tmp, "pulumi-home"),
          PULUMI_BACKEND_URL: `file://${path.join(tmp, "backend")}?metadata=skip`,
          PULUMI_CONFIG_PASSPHRASE: "pass",
          PULUMI_CONFIG_PASSPHRASE_FILE: "",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_SKIP_CONFIRMATIONS: "true",
          PULUMI_NODEJS_TRANSPILE_ONLY: "true",
          NO_COLOR: "1",
        },
      );
      assert.strictEqual(env.HOME, process.env.HOME, "the rest of the caller's environment is kept");
      const nested = path.join(tmp, "a", "b");
      pulumiEnv(nested, "pass", "/bin");
      assert.ok(fs.statSync(path.join(nested, "backend")).isDirectory(), "missing parents are created");
      const savedPath = process.env.PATH;
      try {
        delete process.env.PATH;
        assert.strictEqual(
          pulumiEnv(tmp, "p", "/b").PATH,
          ["/b", path.join(TOOL, "testbed", "lab", "shims"), ""].join(path.delimiter),
        );
      } finally {
        process.env.PATH = savedPath;
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("spawnRun collects stdout, stderr and the exit code, in the given folder and environment", async () => {
    const dir = fs.realpathSync(os.tmpdir());
    const r = await spawnRun(
      process.execPath,
      ["-e", "process.stdout.write(process.cwd() + ' ' + process.env.X); process.stderr.write('err'); process.exit(3)"],
      { cwd: dir, env: { ...process.env, X: "y" } },
    );
    assert.deepStrictEqual(r, { code: 3, stdout: `${dir} y`, stderr: "err" });
    const inherited = await spawnRun(process.execPath, ["-e", "process.stdout.write(String(process.env.PATH))"], {
      cwd: dir,
    });
    assert.deepStrictEqual(inherited, { code: 0, stdout: process.env.PATH, stderr: "" });
  });

  it("spawnRun copies the output to stderr only with echo, and rejects when the command cannot start", async () => {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const script = "process.stdout.write('o'); process.stderr.write('e')";
    try {
      process.stderr.write = ((d: string | Uint8Array) => {
        written.push(d.toString());
        return true;
      }) as typeof process.stderr.write;
      await spawnRun(process.execPath, ["-e", script], { cwd: "/" });
      assert.deepStrictEqual(written, []);
      await spawnRun(process.execPath, ["-e", script], { cwd: "/", echo: true });
    } finally {
      process.stderr.write = write;
    }
    assert.deepStrictEqual(written.sort(), ["e", "o"]);
    await assert.rejects(spawnRun("/nonexistent/command", [], { cwd: "/" }), /ENOENT/);
  });

  it("spawnRun gives the command no stdin: one that reads it to the end finishes", async () => {
    const r = await spawnRun(
      process.execPath,
      ["-e", "process.stdin.resume(); process.stdin.on('end', () => process.stdout.write('eof'))"],
      { cwd: "/" },
    );
    assert.deepStrictEqual(r, { code: 0, stdout: "eof", stderr: "" });
  });
});
