/**
 * docs/api.md from the JSDoc the library's exports already carry (components/index.ts): each
 * component with its type token, args (type, whether required, the JSDoc with its default) and
 * outputs (public readonly fields), then the other types it exports. Nothing is written twice:
 * change a JSDoc, run `npm run docs:api`, and a unit test keeps the committed file current.
 *
 *   node -r ts-node/register/transpile-only scripts/api-docs.ts [--write]
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

const REPO = path.resolve(__dirname, "..");
export const API_DOC = path.join(REPO, "docs", "api.md");
const ENTRY = path.join(REPO, "components", "index.ts");

/** One field of an args type or handle: its name, type, whether it may be left out, its doc. */
export interface ApiField {
  name: string;
  type: string;
  optional: boolean;
  doc: string;
}

/** A documented type: a component (with its token, args and outputs) or an exported interface. */
export interface ApiEntry {
  name: string;
  kind: "component" | "type" | "function";
  /** The Pulumi type token, for a component. */
  token?: string;
  /** Which entry point exports it besides the root (`iko-plus/<module>`). */
  module: string;
  doc: string;
  /** A component's args type name. */
  argsType?: string;
  fields: ApiField[];
  outputs: ApiField[];
}

function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker));
  const tags = symbol
    .getJsDocTags(checker)
    .map((t) => {
      const body = ts.displayPartsToString(t.text ?? []);
      return t.name === "default" ? `Default: ${body}` : `@${t.name}${body ? ` ${body}` : ""}`;
    })
    .filter((t) => !t.startsWith("@internal"));
  return [text, ...tags]
    .filter((s) => s.length > 0)
    .join(" ")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/**
 * A type as the docs show it: by its name, without the `import("<absolute path>").` prefix the
 * checker gives types declared in other files, and without `| undefined` on an optional field.
 */
export function typeText(checker: ts.TypeChecker, symbol: ts.Symbol, at: ts.Node, optional: boolean): string {
  const text = checker
    .typeToString(checker.getTypeOfSymbolAtLocation(symbol, at), at, ts.TypeFormatFlags.NoTruncation)
    .replace(/import\("[^"]*"\)\./g, "");
  return optional ? text.replace(/ \| undefined$/, "") : text;
}

function fieldsOf(type: ts.Type, checker: ts.TypeChecker, at: ts.Node): ApiField[] {
  return checker.getPropertiesOfType(type).map((p) => {
    const optional = (p.getFlags() & ts.SymbolFlags.Optional) !== 0;
    return { name: p.getName(), type: typeText(checker, p, at, optional), optional, doc: docOf(p, checker) };
  });
}

/** The first string argument of the class constructor's `super(...)` call: the type token. */
function typeToken(cls: ts.ClassDeclaration): string | undefined {
  let token: string | undefined;
  const visit = (n: ts.Node): void => {
    if (token) return;
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword) {
      const first = n.arguments[0];
      if (first && ts.isStringLiteral(first)) token = first.text;
    }
    ts.forEachChild(n, visit);
  };
  for (const m of cls.members) if (ts.isConstructorDeclaration(m)) visit(m);
  return token;
}

function moduleOf(decl: ts.Declaration): string {
  return path.relative(path.join(REPO, "components"), decl.getSourceFile().fileName).split(path.sep)[0];
}

/** What components/index.ts exports, documented. */
export function apiEntries(): ApiEntry[] {
  const program = ts.createProgram([ENTRY], {
    strict: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: ["node"],
    skipLibCheck: true,
    esModuleInterop: true,
  });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY);
  if (!entry) throw new Error(`cannot read ${ENTRY}`);
  const moduleSymbol = checker.getSymbolAtLocation(entry);
  if (!moduleSymbol) throw new Error(`${ENTRY} has no exports`);
  const entries: ApiEntry[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const decl = symbol.declarations?.[0];
    if (!decl) continue;
    const base = { name: exported.getName(), module: moduleOf(decl), doc: docOf(symbol, checker) };
    if (ts.isClassDeclaration(decl)) {
      const ctor = decl.members.find(ts.isConstructorDeclaration);
      const argsParam = ctor?.parameters[1];
      const argsType = argsParam ? checker.getTypeAtLocation(argsParam) : undefined;
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      const outputs = instance
        .getProperties()
        .filter((p) => {
          const d = p.valueDeclaration;
          if (!d || !ts.isPropertyDeclaration(d) || d.parent !== decl) return false;
          const mods = ts.getCombinedModifierFlags(d);
          return (
            (mods & ts.ModifierFlags.Readonly) !== 0 &&
            (mods & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0
          );
        })
        .map((p) => ({
          name: p.getName(),
          type: typeText(checker, p, decl, false),
          optional: false,
          doc: docOf(p, checker),
        }));
      entries.push({
        ...base,
        kind: "component",
        token: typeToken(decl),
        argsType: argsParam?.type?.getText(),
        fields: argsType ? fieldsOf(argsType, checker, argsParam as ts.Node) : [],
        outputs,
      });
    } else if (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl)) {
      entries.push({
        ...base,
        kind: "type",
        fields: fieldsOf(checker.getDeclaredTypeOfSymbol(symbol), checker, decl),
        outputs: [],
      });
    } else if (ts.isFunctionDeclaration(decl)) {
      const sig = checker.getSignatureFromDeclaration(decl);
      entries.push({
        ...base,
        kind: "function",
        doc: `${sig ? `\`${exported.getName()}${checker.signatureToString(sig)}\`. ` : ""}${base.doc}`,
        fields: [],
        outputs: [],
      });
    }
  }
  return entries;
}

/** Fields that carry no JSDoc, as `Type.field`: each args field's JSDoc is its API doc. */
export function undocumentedFields(entries: ApiEntry[]): string[] {
  const missing = (owner: string, fields: ApiField[]) =>
    fields.filter((f) => f.doc === "").map((f) => `${owner}.${f.name}`);
  return [
    ...new Set(entries.flatMap((e) => [...missing(e.argsType ?? e.name, e.fields), ...missing(e.name, e.outputs)])),
  ];
}

const cell = (s: string) => s.replace(/\|/g, "\\|");

function fieldLines(fields: ApiField[], withOptional: boolean): string[] {
  return fields.map(
    (f) =>
      `- \`${f.name}${withOptional && f.optional ? "?" : ""}\`: \`${cell(f.type)}\`${withOptional && !f.optional ? " (required)" : ""}. ${f.doc}`,
  );
}

/** docs/api.md's text. */
export function apiMarkdown(entries: ApiEntry[]): string {
  const components = entries.filter((e) => e.kind === "component");
  // A component's args are listed with the component, not again among the types.
  const argsTypes = new Set(components.map((c) => c.argsType));
  const types = entries.filter((e) => e.kind === "type" && !argsTypes.has(e.name));
  const functions = entries.filter((e) => e.kind === "function");
  const out = [
    "# iko-plus API",
    "",
    "Generated from the JSDoc of `components/index.ts`'s exports by `npm run docs:api`; do not edit.",
    "Everything here is exported by `iko-plus`; each concern's pure helpers (values, manifests, names,",
    "checks) are exported by its own entry point, `iko-plus/<module>` (the module is given with each entry).",
    "",
    "## Components",
    "",
    ...components.map((c) => `- [${c.name}](#${c.name.toLowerCase()})`),
    "",
  ];
  for (const c of components) {
    out.push(`### ${c.name}`, "", `\`${c.token ?? "?"}\`, from \`iko-plus/${c.module}\`. ${c.doc}`.trim(), "");
    out.push(`Args (\`${c.argsType ?? "none"}\`):`, "", ...fieldLines(c.fields, true), "");
    if (c.outputs.length > 0) out.push("Outputs:", "", ...fieldLines(c.outputs, false), "");
  }
  out.push("## Types", "");
  for (const t of types) {
    out.push(
      `### ${t.name}`,
      "",
      `From \`iko-plus/${t.module}\`. ${t.doc}`.trim(),
      "",
      ...fieldLines(t.fields, true),
      "",
    );
  }
  out.push("## Functions", "");
  for (const f of functions) out.push(`### ${f.name}`, "", `From \`iko-plus/${f.module}\`. ${f.doc}`.trim(), "");
  return `${out.join("\n").trimEnd()}\n`;
}

function main(): void {
  const entries = apiEntries();
  const missing = undocumentedFields(entries);
  if (missing.length > 0) {
    process.stderr.write(`api-docs: fields without JSDoc: ${missing.join(", ")}\n`);
    process.exit(1);
  }
  const text = apiMarkdown(entries);
  if (process.argv.includes("--write")) {
    fs.writeFileSync(API_DOC, text);
    process.stdout.write(`api-docs: wrote ${path.relative(REPO, API_DOC)} (${entries.length} entries)\n`);
  } else {
    process.stdout.write(text);
  }
}

if (require.main === module) main();
