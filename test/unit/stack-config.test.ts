/**
 * Unit (pure functions and the CLI on a temporary repository): a stack's working copy is the
 * committed stack file with the local settings over it, and what a command changes goes to the
 * local settings, never into the committed file (scripts/stack-config.ts).
 */
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { localSettings, localSettingsPath, main, workingStackFile } from "../../scripts/stack-config";

const template = {
  config: {
    "iko-plus:program": "wfh",
    "iko-plus:home": { name: "ikohome", kubeconfigPath: ".lab/ikohome/kubeconfig" },
    "pulumi:disable-default-providers": ["kubernetes"],
  },
};

describe("stack config: committed stack files stay as committed (scripts/stack-config.ts)", () => {
  it("the working copy: the template with local keys over it, the local salt first", () => {
    assert.deepStrictEqual(
      workingStackFile(template, {
        encryptionsalt: "v1:local",
        config: { "iko-plus:home": { name: "other" }, "iko-plus:irisLicenseKey": { secure: "v1:abc" } },
      }),
      {
        encryptionsalt: "v1:local",
        config: {
          "iko-plus:program": "wfh",
          "iko-plus:home": { name: "other" },
          "pulumi:disable-default-providers": ["kubernetes"],
          "iko-plus:irisLicenseKey": { secure: "v1:abc" },
        },
      },
    );
    assert.deepStrictEqual(workingStackFile({ ...template, encryptionsalt: "v1:committed" }, undefined), {
      ...template,
      encryptionsalt: "v1:committed",
    });
    assert.deepStrictEqual(workingStackFile(undefined, undefined), { config: {} });
  });

  it("the local settings: the salt and each top-level key whose value differs from the template", () => {
    const working = {
      encryptionsalt: "v1:new",
      config: {
        ...template.config,
        "iko-plus:home": { name: "ikohome", kubeconfigPath: "/elsewhere" },
        "iko-plus:workKubeconfig": { secure: "v1:xyz" },
      },
    };
    assert.deepStrictEqual(localSettings(template, working), {
      encryptionsalt: "v1:new",
      config: {
        "iko-plus:home": { name: "ikohome", kubeconfigPath: "/elsewhere" },
        "iko-plus:workKubeconfig": { secure: "v1:xyz" },
      },
    });
    assert.deepStrictEqual(
      localSettings(template, { config: { ...template.config } }),
      {},
      "nothing set: nothing kept",
    );
    assert.deepStrictEqual(
      localSettings({ ...template, encryptionsalt: "v1:same" }, { ...template, encryptionsalt: "v1:same" }),
      {},
      "a salt the template has is not copied",
    );
  });

  it("the CLI: a new stack's salt, config set, then a changed template: the committed file is never written", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "iko-stack-config-"));
    try {
      fs.mkdirSync(path.join(root, "examples", "fleet"), { recursive: true });
      fs.writeFileSync(path.join(root, "Pulumi.yaml"), "name: iko-plus\nmain: main.js\n");
      fs.writeFileSync(path.join(root, "examples", "fleet", "Pulumi.yaml"), "name: iko-plus\nmain: ../../main.js\n");
      const committed = path.join(root, "examples", "fleet", "Pulumi.fleet.yaml");
      const committedText = "# the fleet\nconfig:\n  iko-plus:program: fleet\n  iko-plus:karmada:\n    mode: helm\n";
      fs.writeFileSync(committed, committedText);
      const printed: string[] = [];
      const cli = (...args: string[]) => main(args, root, (l) => printed.push(l));

      const created = path.join(root, "created.yaml");
      fs.writeFileSync(created, "encryptionsalt: v1:fresh\n");
      assert.strictEqual(cli("adopt-salt", "fleet", created), 0);
      const local = localSettingsPath(root, "fleet");
      assert.strictEqual(local, path.join(root, ".state", "config", "Pulumi.fleet.yaml"));
      assert.strictEqual(fs.statSync(local).mode & 0o777, 0o600);

      const work = path.join(root, "work.yaml");
      assert.strictEqual(cli("prepare", "fleet", work), 0);
      assert.deepStrictEqual(printed, ["project_dir='examples/fleet'", `local_file='${local}'`]);
      assert.deepStrictEqual(YAML.parse(fs.readFileSync(work, "utf8")), {
        encryptionsalt: "v1:fresh",
        config: { "iko-plus:program": "fleet", "iko-plus:karmada": { mode: "helm" } },
      });

      // What `pulumi config set --secret iko-plus:irisLicenseKey …` does to the working copy.
      const edited = YAML.parse(fs.readFileSync(work, "utf8"));
      edited.config["iko-plus:irisLicenseKey"] = { secure: "v1:cipher" };
      fs.writeFileSync(work, YAML.stringify(edited));
      assert.strictEqual(cli("keep", "fleet", work), 0);
      assert.deepStrictEqual(YAML.parse(fs.readFileSync(local, "utf8")), {
        encryptionsalt: "v1:fresh",
        config: { "iko-plus:irisLicenseKey": { secure: "v1:cipher" } },
      });

      // The committed file changes (a pull): the next working copy has the new value and the local key.
      fs.writeFileSync(committed, committedText.replace("mode: helm", "mode: pull"));
      assert.strictEqual(cli("prepare", "fleet", work), 0);
      assert.deepStrictEqual(YAML.parse(fs.readFileSync(work, "utf8")).config, {
        "iko-plus:program": "fleet",
        "iko-plus:karmada": { mode: "pull" },
        "iko-plus:irisLicenseKey": { secure: "v1:cipher" },
      });
      assert.strictEqual(fs.readFileSync(committed, "utf8"), committedText.replace("mode: helm", "mode: pull"));

      assert.strictEqual(cli("adopt-salt", "fleet", path.join(root, "no-such.yaml")), 1);
      assert.strictEqual(cli("nonsense", "fleet", work), 2);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
