import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";

const REPO = path.resolve(__dirname, "..", "..");

/** The post-render modules, relative to `components/`: what a post-renderer's wrapper runs. */
export const POSTRENDER_MODULES = ["postrender/cli", "iko/postrender", "karmada/postrender"] as const;

/**
 * A project laid out as the precompiled program leaves it: the post-render modules compiled to
 * JavaScript under .iko-plus/program/0123456789abcdef/components/, and a node_modules with "yaml"
 * only (no ts-node, no typescript).
 */
export function compiledProject(): string {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "iko-compiled-"));
  const componentsDir = path.join(project, ".iko-plus", "program", "0123456789abcdef", "components");
  for (const name of POSTRENDER_MODULES) {
    const source = fs.readFileSync(path.join(REPO, "components", `${name}.ts`), "utf8");
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
    }).outputText;
    fs.mkdirSync(path.dirname(path.join(componentsDir, name)), { recursive: true });
    fs.writeFileSync(path.join(componentsDir, `${name}.js`), js);
  }
  fs.mkdirSync(path.join(project, "node_modules"));
  fs.symlinkSync(path.join(REPO, "node_modules", "yaml"), path.join(project, "node_modules", "yaml"));
  return project;
}
