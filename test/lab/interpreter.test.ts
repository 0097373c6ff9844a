/**
 * The IrisCluster ResourceInterpreterCustomization's Lua, run offline by the lab's karmadactl
 * (`karmadactl interpret`) on real inputs: the same Lua engine the Karmada controllers use.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { irisClusterInterpreter } from "../../components/karmada";
import { labBinDir } from "./pulumi-cli";

const IRIS = {
  apiVersion: "intersystems.com/v1alpha1",
  kind: "IrisCluster",
  metadata: { name: "federated-iris", namespace: "iris" },
  spec: {
    licenseKeySecret: { name: "iris-key" },
    configSource: { name: "iris-cpf" },
    imagePullSecrets: [{ name: "pull" }, { name: "iris-key" }],
    tls: { common: { secret: { secretName: "iris-tls" } }, mirror: { secret: { secretName: "iris-tls" } } },
    topology: { data: { image: "containers.intersystems.com/intersystems/iris-community:2025.1" } },
  },
};

describe("lab: IrisCluster interpreter Lua under karmadactl interpret", () => {
  let dir: string;
  const write = (name: string, obj: unknown, multi = false) => {
    const file = path.join(dir, name);
    fs.writeFileSync(
      file,
      multi ? (obj as unknown[]).map((o) => YAML.stringify(o)).join("---\n") : YAML.stringify(obj),
    );
    return file;
  };
  /** Runs one operation and returns the YAML document it prints. */
  const interpret = (operation: string, args: Record<string, string>): unknown => {
    const flags = Object.entries(args).flatMap(([k, v]) => [`--${k}`, v]);
    const res = child.spawnSync(
      path.join(labBinDir(), "karmadactl"),
      ["interpret", "-f", path.join(dir, "customization.yaml"), "--operation", operation, ...flags],
      { encoding: "utf8" },
    );
    // karmadactl exits 0 and prints null when the Lua fails: its error goes to stderr.
    assert.strictEqual(res.status, 0, res.stderr);
    assert.ok(!/error/i.test(res.stderr), `${operation} ran the Lua without an error:\n${res.stderr}`);
    const out = res.stdout;
    const body = out
      .split("\n")
      .filter((l) => !l.startsWith("---") && !l.startsWith("#"))
      .join("\n");
    return YAML.parse(body);
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-lua-"));
    write("customization.yaml", irisClusterInterpreter());
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("passes karmadactl's schema and syntax check", () => {
    const out = child.execFileSync(
      path.join(labBinDir(), "karmadactl"),
      ["interpret", "-f", path.join(dir, "customization.yaml"), "--check"],
      { encoding: "utf8" },
    );
    for (const rule of ["InterpretStatus", "AggregateStatus", "InterpretHealth", "InterpretDependency"]) {
      assert.match(out, new RegExp(`${rule}:\\s+PASS`), out);
    }
  });

  it("judges health only from what an operator reports (the table in docs/dr.md), never a Lua error", () => {
    const health = (status: unknown) =>
      interpret("interpretHealth", {
        "observed-file": write("observed.yaml", status === undefined ? IRIS : { ...IRIS, status }),
      });
    const ready = (s: string) => ({ type: "Ready", status: s });
    const table: [string, unknown, boolean][] = [
      ["no status", undefined, false],
      ["status: {}", {}, false],
      ["phase Pending", { phase: "Pending" }, false],
      ["phase Unknown", { phase: "Unknown" }, false],
      ["phase Creating", { phase: "Creating" }, false],
      ["phase true (not a string)", { phase: true }, false],
      ["phase 3 (not a string)", { phase: 3 }, false],
      ["phase Running", { phase: "Running" }, true],
      ["phase running (any case)", { phase: "running" }, true],
      ["phase Failed", { phase: "Failed" }, false],
      ["phase degraded", { phase: "degraded" }, false],
      ["Ready=True, no phase", { conditions: [ready("True")] }, true],
      ["Ready=Unknown, no phase", { conditions: [ready("Unknown")] }, false],
      ["Ready=False, no phase", { conditions: [ready("False")] }, false],
      ["Running, Ready=False", { phase: "Running", conditions: [ready("False")] }, false],
      ["Running, Ready=Unknown", { phase: "Running", conditions: [ready("Unknown")] }, false],
      ["Running, Ready=True", { phase: "Running", conditions: [ready("True")] }, true],
      ["Pending, Ready=True", { phase: "Pending", conditions: [ready("True")] }, true],
      ["Failed, Ready=True", { phase: "Failed", conditions: [ready("True")] }, false],
      [
        "Ready=True, another condition False",
        { conditions: [ready("True"), { type: "Mirrored", status: "False" }] },
        false,
      ],
      ["Running, conditions not a list", { phase: "Running", conditions: "yes" }, true],
      ["phase true, Ready=True", { phase: true, conditions: [ready("True")] }, true],
    ];
    const got = table.map(([what, status]) => `${what} -> ${String(health(status))}`);
    assert.deepStrictEqual(
      got,
      table.map(([what, , healthy]) => `${what} -> ${String(healthy)}`),
    );
  });

  it("lists the Secrets and ConfigMaps an IrisCluster references, once each", () => {
    const deps = interpret("interpretDependency", { "observed-file": write("observed.yaml", IRIS) }) as {
      kind: string;
      name: string;
      namespace: string;
    }[];
    const got = deps.map((d) => `${d.kind}/${d.namespace}/${d.name}`).sort();
    assert.deepStrictEqual(got, [
      "ConfigMap/iris/iris-cpf",
      "Secret/iris/iris-key",
      "Secret/iris/iris-tls",
      "Secret/iris/pull",
    ]);
    const none = interpret("interpretDependency", {
      "observed-file": write("observed.yaml", { ...IRIS, spec: { topology: IRIS.spec.topology } }),
    });
    assert.ok(none === null || (Array.isArray(none) && none.length === 0), `no dependencies: ${JSON.stringify(none)}`);
  });

  it("aggregates member statuses onto the template: the worst phase wins", () => {
    const agg = (phases: string[]) =>
      interpret("aggregateStatus", {
        "observed-file": write("observed.yaml", IRIS),
        "status-file": write(
          "status.yaml",
          phases.map((phase, i) => ({ clusterName: `m${i}`, applied: true, status: { phase } })),
          true,
        ),
      }) as { status: { phase: string; members: { clusterName: string; phase: string }[] } };
    const mixed = agg(["Running", "Failed"]);
    assert.deepStrictEqual(mixed.status, {
      phase: "Failed",
      members: [
        { clusterName: "m0", phase: "Running" },
        { clusterName: "m1", phase: "Failed" },
      ],
    });
    assert.strictEqual(agg(["Running", "Running"]).status.phase, "Running");
    assert.strictEqual(agg(["Running", "Pending"]).status.phase, "Pending");
  });

  it("aggregates conditions (worst wins, members named) and replaces the template's status", () => {
    const agg = (template: unknown, items: { clusterName: string; status?: unknown }[]) =>
      (
        interpret("aggregateStatus", {
          "observed-file": write("observed.yaml", template),
          "status-file": write(
            "status.yaml",
            items.map((it) => ({ applied: true, ...it })),
            true,
          ),
        }) as { status?: unknown }
      ).status;
    const stale = { ...IRIS, status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }], shards: 4 } };
    assert.deepStrictEqual(
      agg(stale, [
        {
          clusterName: "ikoclone",
          status: {
            conditions: [{ type: "Ready", status: "False", reason: "MirrorDown", message: "backup not reachable" }],
          },
        },
      ]),
      {
        phase: "Unknown",
        members: [{ clusterName: "ikoclone", phase: "Unknown" }],
        conditions: [
          { type: "Ready", status: "False", reason: "MirrorDown", message: "ikoclone: backup not reachable" },
        ],
      },
      "a Ready=False member without a phase keeps its reason; the template's old Ready=True and shards are gone",
    );
    assert.deepStrictEqual(
      agg(stale, [{ clusterName: "a", status: { phase: "Failed" } }]),
      { phase: "Failed", members: [{ clusterName: "a", phase: "Failed" }] },
      "an aggregated Failed is never shown next to the template's stale Ready=True",
    );
    assert.deepStrictEqual(
      agg(IRIS, [
        {
          clusterName: "a",
          status: {
            phase: "Running",
            conditions: [
              { type: "Ready", status: "True" },
              { type: "Synced", status: "Unknown" },
            ],
          },
        },
        {
          clusterName: "b",
          status: {
            phase: "Running",
            conditions: [
              { type: "Ready", status: "Unknown", reason: "Starting" },
              { type: "Synced", status: "False", message: "lagging" },
            ],
          },
        },
        { clusterName: "c", status: { phase: true, conditions: [{ type: "Ready", status: "Unknown" }, "junk"] } },
        { clusterName: "d" },
      ]),
      {
        phase: "Unknown",
        members: [
          { clusterName: "a", phase: "Running" },
          { clusterName: "b", phase: "Running" },
          { clusterName: "c", phase: "Unknown" },
          { clusterName: "d", phase: "Unknown" },
        ],
        conditions: [
          { type: "Ready", status: "Unknown", reason: "Starting", message: "b: Starting; c" },
          { type: "Synced", status: "False", message: "b: lagging" },
        ],
      },
      "per condition type the worst status, every member with it named; a non-string phase or a missing status is Unknown",
    );
  });

  it("reflects the member's status as it is", () => {
    assert.deepStrictEqual(
      interpret("interpretStatus", {
        "observed-file": write("observed.yaml", { ...IRIS, status: { phase: "Running", shards: 1 } }),
      }),
      { phase: "Running", shards: 1 },
    );
  });
});
