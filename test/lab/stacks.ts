/**
 * Lab test stacks: a stack file generated from a committed one (Pulumi.lab-wfh.yaml,
 * Pulumi.dev.yaml, found wherever its project folder is) with test overrides, under a git-ignored
 * `Pulumi.labtest-*.yaml` name in the root project, so tests never edit tracked stack files.
 * Removed by `remove()`.
 */
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { stackFilePath, stackOfFile } from "../../scripts/stack-files";
import { labKubeconfigPath } from "./kube";
import { PulumiCli, REPO } from "./pulumi-cli";

/** The committed stack file `Pulumi.<stack>.yaml` (at the root, under examples/ or testbed/stacks/). */
export function committedStackFile(file: string): string {
  const stack = stackOfFile(file);
  if (!stack) throw new Error(`${file} is not a stack file name (Pulumi.<stack>.yaml)`);
  const found = stackFilePath(REPO, stack);
  if (!fs.existsSync(found))
    throw new Error(`no committed ${file} (looked in the root, examples/*/ and testbed/stacks/)`);
  return found;
}

/**
 * The clusters of the committed lab fleet stack (Pulumi.lab-fleet.yaml), each with its kubeconfig
 * where this lab run keeps it (the committed paths assume `.lab/`).
 */
export function labFleetClusters(): ({ name: string; kubeconfigPath: string } & Record<string, unknown>)[] {
  const base = YAML.parse(fs.readFileSync(committedStackFile("Pulumi.lab-fleet.yaml"), "utf8")).config;
  return (base["iko-plus:clusters"] as { name: string }[]).map((c) => ({
    ...c,
    kubeconfigPath: labKubeconfigPath(c.name),
  }));
}

/** The lab's Karmada as the fleet stack's existing Karmada (`iko-plus:karmada`). */
export const labKarmada = () => ({ mode: "existing", kubeconfigPath: labKubeconfigPath("karmada") });

export interface LabStackOptions {
  /**
   * Put the generated file beside the committed one, in its project folder (examples/*,
   * testbed/stacks), and run this stack's commands there (`--cwd`), as `npm run up` does; by
   * default the file goes to the root project, where the tests' own `cli.run([...])` calls find it.
   */
  besideCommitted?: boolean;
}

export class LabStack {
  readonly file: string;
  /** The project folder the stack's commands run in (the root unless besideCommitted). */
  readonly dir: string;

  constructor(
    readonly cli: PulumiCli,
    readonly name: string,
    from: string,
    overrides: Record<string, unknown>,
    opts: LabStackOptions = {},
  ) {
    if (!/^(labtest|kindtest)-/.test(name))
      throw new Error("lab and kind test stacks are named labtest-* or kindtest-*");
    const committed = committedStackFile(from);
    const base = YAML.parse(fs.readFileSync(committed, "utf8")) as { config: Record<string, unknown> };
    this.dir = opts.besideCommitted ? path.dirname(committed) : REPO;
    this.file = path.join(this.dir, `Pulumi.${name}.yaml`);
    fs.writeFileSync(this.file, YAML.stringify({ config: { ...base.config, ...overrides } }));
  }

  /** `--cwd <project folder>` when the stack is not in the root project. */
  private get cwd(): string[] {
    return this.dir === REPO ? [] : ["--cwd", this.dir];
  }

  /** Creates the stack in the test backend (passphrase secrets). */
  async init(): Promise<void> {
    await this.cli.ok(["stack", "init", this.name, "--secrets-provider", "passphrase", ...this.cwd]);
  }

  /** Reads the generated stack config back, edits it, and writes it (like `pulumi config set`). */
  edit(change: (config: Record<string, unknown>) => void): void {
    const doc = YAML.parse(fs.readFileSync(this.file, "utf8")) as { config: Record<string, unknown> };
    change(doc.config);
    fs.writeFileSync(this.file, YAML.stringify(doc));
  }

  up(extra: string[] = []) {
    return this.cli.ok(["up", "--yes", "--skip-preview", "--stack", this.name, ...this.cwd, ...extra]);
  }
  preview(extra: string[] = []) {
    return this.cli.ok(["preview", "--stack", this.name, ...this.cwd, ...extra]);
  }
  destroy() {
    return this.cli.ok(["destroy", "--yes", "--skip-preview", "--stack", this.name, ...this.cwd]);
  }
  async exportState(): Promise<string> {
    return (await this.cli.ok(["stack", "export", "--stack", this.name, ...this.cwd])).stdout;
  }
  async output(name: string): Promise<string> {
    return (
      await this.cli.ok(["stack", "output", name, "--show-secrets", "--stack", this.name, ...this.cwd])
    ).stdout.trim();
  }

  /** Removes the stack from the backend and its generated file. */
  async remove(): Promise<void> {
    await this.cli.run(["stack", "rm", "--yes", "--force", "--stack", this.name, ...this.cwd]);
    fs.rmSync(this.file, { force: true });
  }
}
