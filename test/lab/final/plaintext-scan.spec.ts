/**
 * Runs last in the lab tier (listed after the *.test.ts files in .mocharc.json): scans the
 * transcript of every `pulumi` run the lab tests made (outputs of up, preview --diff, failed ups,
 * destroys, and the stack state after each state-writing run) for plaintext secrets, and reports
 * `RESULT plaintext_secrets <n>`. Known values: what the tests set as secret config, and the
 * credentials in the lab's own kubeconfigs.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { labDir } from "../kube";
import { recordResult } from "../results";
import { findPlaintextSecrets } from "../secret-scan";
import { knownSecrets, transcriptFile } from "../transcript";

/** Client keys and tokens in the lab's kubeconfigs (<lab>/<cluster>/kubeconfig). */
function labCredentials(): string[] {
  const out: string[] = [];
  if (!fs.existsSync(labDir())) return out;
  for (const entry of fs.readdirSync(labDir(), { withFileTypes: true })) {
    const file = path.join(labDir(), entry.name, "kubeconfig");
    if (!entry.isDirectory() || !fs.existsSync(file)) continue;
    const doc = YAML.parse(fs.readFileSync(file, "utf8")) as { users?: { user?: Record<string, string> }[] };
    for (const u of doc.users ?? []) {
      for (const k of ["client-key-data", "token"]) if (u.user?.[k]) out.push(u.user[k]);
    }
  }
  return out;
}

describe("lab: no plaintext secret in any CLI output or stack state", () => {
  it("scans every pulumi run of this lab run", () => {
    const file = transcriptFile();
    assert.ok(
      file !== undefined,
      "IKO_LAB_TRANSCRIPT is not set, so no run was recorded: run the lab tier with its config (npm run test:lab), whose hooks set it",
    );
    const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    const runs = text.match(/^=== pulumi .*$/gm) ?? [];
    const count = (re: RegExp) => runs.filter((r) => re.test(r)).length;
    const states = (text.match(/^=== state /gm) ?? []).length;
    const known = [...knownSecrets(), ...labCredentials()];
    const findings = findPlaintextSecrets(text, known);
    console.log(
      `      scanned ${runs.length} pulumi runs (${count(/^=== pulumi up /)} up, ${count(/^=== pulumi up .*\(exit [1-9]/)} failed up, ${count(/^=== pulumi preview .*--diff/)} preview --diff, ${count(/^=== pulumi stack export/)} stack export), ${states} states, ${(text.length / 1e6).toFixed(1)} MB; ${known.length} known secret values; ${findings.length} plaintext secrets`,
    );
    for (const f of findings.slice(0, 20)) console.log(`      ${f.kind} at line ${f.line}: ${f.excerpt}`);
    recordResult("plaintext_secrets", findings.length);
    assert.ok(runs.length > 0, `no pulumi run was recorded in ${file}`);
    assert.deepStrictEqual(findings, []);
  });
});
