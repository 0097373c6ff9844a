/**
 * The real Cilium chart, from the Go module github.com/cilium/cilium (the folder
 * install/kubernetes/cilium holds values.yaml and values.schema.json), and a strict JSON-schema
 * check of Helm values against it.
 */
import * as child from "child_process";
import * as fs from "fs";
import * as path from "path";
import Ajv from "ajv";
import { CILIUM_VERSION } from "../../components/cilium";

/** The chart folder in Go's module cache (`go mod download`: a no-op when the module is there). */
export function ciliumChartDir(version = `v${CILIUM_VERSION}`): string {
  const res = child.spawnSync("go", ["mod", "download", "-json", `github.com/cilium/cilium@${version}`], {
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "-mod=mod" },
  });
  if (res.error || res.status !== 0) {
    throw new Error(
      `go mod download github.com/cilium/cilium@${version} failed (${res.error?.message ?? res.stderr.trim()}): the chart comes from the Go module`,
    );
  }
  const dir = path.join((JSON.parse(res.stdout) as { Dir: string }).Dir, "install", "kubernetes", "cilium");
  if (!fs.existsSync(path.join(dir, "values.schema.json"))) throw new Error(`${dir} has no values.schema.json`);
  return dir;
}

type Schema = Record<string, unknown>;

/**
 * The schema with `additionalProperties: false` on every object that lists its `properties` and
 * says nothing of other keys. The chart's own schema lets any unknown key through (Helm would
 * install a misspelt value and ignore it); this makes a key the chart does not have an error.
 */
export function strictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    out[k] =
      k === "properties"
        ? Object.fromEntries(Object.entries(v as Schema).map(([p, s]) => [p, strictSchema(s)]))
        : strictSchema(v);
  }
  if (out.properties !== undefined && out.additionalProperties === undefined && out.patternProperties === undefined)
    out.additionalProperties = false;
  return out;
}

/** Every `.Values.a.b` path the chart's templates read (some, e.g. kubeProxyReplacement, are in no schema). */
export function templateValuePaths(chartDir: string): Set<string> {
  const paths = new Set<string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else
        for (const m of fs.readFileSync(p, "utf8").matchAll(/\.Values((?:\.[A-Za-z0-9_]+)+)/g))
          paths.add(m[1].slice(1));
    }
  };
  walk(path.join(chartDir, "templates"));
  return paths;
}

/**
 * Validates values against the chart's strict schema; returns one line per problem (empty when
 * valid). A key outside the schema passes only when the templates read it.
 */
export function chartValueProblems(chartDir: string, values: unknown): string[] {
  const schema = strictSchema(JSON.parse(fs.readFileSync(path.join(chartDir, "values.schema.json"), "utf8")));
  const ajv = new Ajv({ allErrors: true, schemaId: "auto" });
  const validate = ajv.compile(schema as object);
  if (validate(values)) return [];
  const read = templateValuePaths(chartDir);
  const problems: string[] = [];
  for (const e of validate.errors ?? []) {
    const extra =
      e.keyword === "additionalProperties"
        ? (e.params as { additionalProperty: string }).additionalProperty
        : undefined;
    const at = e.dataPath.replace(/^\./, "");
    if (extra !== undefined && read.has(at ? `${at}.${extra}` : extra)) continue;
    problems.push(`${e.dataPath || "(root)"} ${e.message ?? "is invalid"}${extra !== undefined ? `: ${extra}` : ""}`);
  }
  return problems;
}
