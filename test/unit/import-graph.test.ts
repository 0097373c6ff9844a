/**
 * The components' import graph (static, from the sources): no cycle among components/ modules
 * (type-only imports included), and nothing in components/ imports stacks/ (the library does not
 * depend on the stack programs).
 */
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";

const REPO = path.join(__dirname, "..", "..");

/** Relative imports and re-exports of each .ts file under `dir`, resolved to repo-relative paths. */
function importGraph(dir: string): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d)) {
      const p = path.join(d, f);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".ts")) files.push(p);
    }
  };
  walk(path.join(REPO, dir));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps: string[] = [];
    for (const m of fs.readFileSync(f, "utf8").matchAll(/(?:import|export)[^'"]*?from\s+["'](\.[^"']+)["']/g)) {
      const target = path.join(path.dirname(f), m[1]);
      const resolved = [`${target}.ts`, path.join(target, "index.ts")].find((t) => fs.existsSync(t));
      if (resolved) deps.push(path.relative(REPO, resolved));
    }
    graph.set(path.relative(REPO, f), deps);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, as "a -> b -> a". */
export function cyclesOf(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const cycles = new Set<string>();
  const visit = (n: string) => {
    state.set(n, 1);
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 1) cycles.add([...stack.slice(stack.indexOf(d)), d].join(" -> "));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return [...cycles];
}

describe("components' import graph (static)", () => {
  const graph = importGraph("components");

  it("the walk finds a cycle when there is one", () => {
    const g = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    assert.deepStrictEqual(cyclesOf(g), ["a.ts -> b.ts -> c.ts -> a.ts"]);
  });

  it("no import cycle among components/ modules", () => {
    assert.ok(graph.size > 50, `${graph.size} modules`);
    assert.deepStrictEqual(cyclesOf(graph), []);
  });

  it("nothing in components/ imports stacks/", () => {
    const up = [...graph].filter(([, deps]) => deps.some((d) => d.startsWith("stacks/"))).map(([f]) => f);
    assert.deepStrictEqual(up, []);
  });
});
