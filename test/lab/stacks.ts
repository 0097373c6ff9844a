/**
 * Lab test stacks: a stack file generated from a committed one (Pulumi.lab-wfh.yaml,
 * Pulumi.dev.yaml) with test overrides, under a git-ignored `Pulumi.labtest-*.yaml` name, so tests
 * never edit tracked stack files. Removed by `remove()`.
 */
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { PulumiCli, REPO } from "./pulumi-cli";

export class LabStack {
  readonly file: string;

  constructor(
    readonly cli: PulumiCli,
    readonly name: string,
    from: string,
    overrides: Record<string, unknown>,
  ) {
    if (!/^(labtest|kindtest)-/.test(name))
      throw new Error("lab and kind test stacks are named labtest-* or kindtest-*");
    const base = YAML.parse(fs.readFileSync(path.join(REPO, from), "utf8")) as { config: Record<string, unknown> };
    this.file = path.join(REPO, `Pulumi.${name}.yaml`);
    fs.writeFileSync(this.file, YAML.stringify({ config: { ...base.config, ...overrides } }));
  }

  /** Creates the stack in the test backend (passphrase secrets). */
  async init(): Promise<void> {
    await this.cli.ok(["stack", "init", this.name, "--secrets-provider", "passphrase"]);
  }

  /** Reads the generated stack config back, edits it, and writes it (like `pulumi config set`). */
  edit(change: (config: Record<string, unknown>) => void): void {
    const doc = YAML.parse(fs.readFileSync(this.file, "utf8")) as { config: Record<string, unknown> };
    change(doc.config);
    fs.writeFileSync(this.file, YAML.stringify(doc));
  }

  up(extra: string[] = []) {
    return this.cli.ok(["up", "--yes", "--skip-preview", "--stack", this.name, ...extra]);
  }
  preview(extra: string[] = []) {
    return this.cli.ok(["preview", "--stack", this.name, ...extra]);
  }
  destroy() {
    return this.cli.ok(["destroy", "--yes", "--skip-preview", "--stack", this.name]);
  }
  async exportState(): Promise<string> {
    return (await this.cli.ok(["stack", "export", "--stack", this.name])).stdout;
  }
  async output(name: string): Promise<string> {
    return (await this.cli.ok(["stack", "output", name, "--show-secrets", "--stack", this.name])).stdout.trim();
  }

  /** Removes the stack from the backend and its generated file. */
  async remove(): Promise<void> {
    await this.cli.run(["stack", "rm", "--yes", "--force", "--stack", this.name]);
    fs.rmSync(this.file, { force: true });
  }
}
