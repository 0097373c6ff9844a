/**
 * A kind cluster lost behind the stack's back: which state entries went with it (pure), and the
 * recovery `npm run up` runs first (scripts/lost-clusters.ts, with stand-in `pulumi` and `kind`).
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  KIND_CLUSTER_TYPE,
  StateResource,
  kindClustersInState,
  lostResourceUrns,
  stoppedClusterWarning,
} from "../../components/kind/lost";

const REPO = path.join(__dirname, "..", "..");
const U = (type: string, name: string) => `urn:pulumi:dev::iko-plus::${type}::${name}`;

/** A wfh-like state: home and work kind clusters, their providers, objects on each, Karmada on work. */
function state(): StateResource[] {
  const homeKind = U("iko-plus:kind:KindCluster$" + KIND_CLUSTER_TYPE, "home-kind");
  const workKind = U("iko-plus:kind:KindCluster$" + KIND_CLUSTER_TYPE, "work-kind");
  const homeK8s = U("iko-plus:kind:KindCluster$pulumi:providers:kubernetes", "home-k8s");
  const workK8s = U("iko-plus:kind:KindCluster$pulumi:providers:kubernetes", "work-k8s");
  const token = U("kubernetes:core/v1:Secret", "work-token");
  const apiServing = U("kubernetes:core/v1:Service", "karmada-api");
  const karmadaK8s = U("pulumi:providers:kubernetes", "fleet-karmada-api");
  return [
    { urn: homeKind, type: KIND_CLUSTER_TYPE, inputs: { name: "ikohome", kindCommand: "kind" } },
    { urn: homeK8s, type: "pulumi:providers:kubernetes", dependencies: [homeKind] },
    { urn: workKind, type: KIND_CLUSTER_TYPE, inputs: { name: "ikowork", kindCommand: "/opt/kind" } },
    { urn: workK8s, type: "pulumi:providers:kubernetes", propertyDependencies: { kubeconfig: [workKind] } },
    { urn: token, type: "kubernetes:core/v1:Secret", provider: `${workK8s}::id-1` },
    {
      urn: U("kubernetes:core/v1:Secret", "home-copy"),
      type: "kubernetes:core/v1:Secret",
      provider: `${homeK8s}::id-2`,
      dependencies: [token],
    },
    { urn: apiServing, type: "kubernetes:core/v1:Service", provider: `${workK8s}::id-1` },
    { urn: karmadaK8s, type: "pulumi:providers:kubernetes", dependencies: [apiServing] },
    {
      urn: U("kubernetes:cluster.karmada.io/v1alpha1:Cluster", "member"),
      type: "kubernetes:cluster.karmada.io/v1alpha1:Cluster",
      provider: `${karmadaK8s}::id-3`,
    },
    { urn: U("pulumi-nodejs:dynamic:Resource", "wait"), type: "pulumi-nodejs:dynamic:Resource", dependencies: [token] },
  ];
}

describe("lost kind clusters (pure)", () => {
  it("lists the state's kind clusters with the kind command each was made with", () => {
    assert.deepStrictEqual(
      kindClustersInState(state()).map((c) => [c.name, c.kindCommand]),
      [
        ["ikohome", "kind"],
        ["ikowork", "/opt/kind"],
      ],
    );
  });

  it("a lost cluster takes its objects and those of an API it served (Karmada), not its provider, other clusters' objects or waits", () => {
    const s = state();
    const work = s[2].urn;
    assert.deepStrictEqual(
      lostResourceUrns(s, [work]).map((u) => u.split("::").pop()),
      ["work-kind", "work-token", "karmada-api", "member"],
    );
  });

  it("home lost: only home and its objects", () => {
    const s = state();
    assert.deepStrictEqual(
      lostResourceUrns(s, [s[0].urn]).map((u) => u.split("::").pop()),
      ["home-kind", "home-copy"],
    );
  });
});

describe("stopped kind clusters (pure)", () => {
  it("a paused or exited control plane is named with the command that brings it back; a running one says nothing", () => {
    assert.strictEqual(
      stoppedClusterWarning("ikowork", "paused"),
      'kind cluster "ikowork" is paused: nothing on it can be read or changed until it runs again; `docker unpause ikowork-control-plane`',
    );
    assert.strictEqual(
      stoppedClusterWarning("ikowork", "exited"),
      'kind cluster "ikowork" is exited: nothing on it can be read or changed until it runs again; `docker start` its node containers (`docker ps -a --filter label=io.x-k8s.kind.cluster=ikowork`)',
    );
    assert.strictEqual(stoppedClusterWarning("ikowork", "running"), undefined);
  });
});

describe("scripts/lost-clusters.ts (stand-in pulumi, kind and docker)", () => {
  function runScript(
    mode: string,
    kindClusters: string | undefined,
  ): { status: number | null; stderr: string; calls: string[] } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-lost-"));
    try {
      const bin = path.join(dir, "bin");
      fs.mkdirSync(bin);
      const calls = path.join(dir, "calls");
      const exported = path.join(dir, "export.json");
      fs.writeFileSync(
        path.join(bin, "pulumi"),
        `#!/usr/bin/env bash\nif [ "$1 $2" = "stack export" ]; then cat ${JSON.stringify(exported)}; exit 0; fi\n` +
          `echo "pulumi $* K8S_DELETE_UNREACHABLE=$PULUMI_K8S_DELETE_UNREACHABLE" >> ${JSON.stringify(calls)}\n`,
        { mode: 0o755 },
      );
      // Both clusters were made with different kind commands; the stand-ins answer alike.
      const kindScript =
        kindClusters === undefined
          ? `#!/usr/bin/env bash\necho "Cannot connect to the Docker daemon" >&2; exit 1\n`
          : `#!/usr/bin/env bash\nprintf '%s\\n' ${kindClusters}\n`;
      fs.writeFileSync(path.join(bin, "kind"), kindScript, { mode: 0o755 });
      fs.writeFileSync(
        path.join(bin, "docker"),
        `#!/usr/bin/env bash\ncase "$*" in *ikowork-control-plane*) echo paused ;; *) echo running ;; esac\n`,
        { mode: 0o755 },
      );
      const state2 = state().map((r) =>
        r.inputs?.kindCommand === "/opt/kind"
          ? { ...r, inputs: { ...r.inputs, kindCommand: path.join(bin, "kind") } }
          : r,
      );
      fs.writeFileSync(exported, JSON.stringify({ deployment: { resources: state2 } }));
      const res = child.spawnSync(
        "node",
        ["-r", "ts-node/register/transpile-only", path.join(REPO, "scripts", "lost-clusters.ts"), mode, "dev"],
        { cwd: REPO, encoding: "utf8", env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` } },
      );
      return {
        status: res.status,
        stderr: res.stderr,
        calls: fs.existsSync(calls) ? fs.readFileSync(calls, "utf8").trim().split("\n") : [],
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it("recover: work deleted (kind lists only home): one refresh of exactly work's objects, unreachable ones dropped", () => {
    const res = runScript("recover", "ikohome");
    assert.strictEqual(res.status, 0, res.stderr);
    assert.match(
      res.stderr,
      /kind cluster "ikowork" no longer exists \(deleted outside the stack\): dropping it and the 3 objects/,
    );
    assert.strictEqual(res.calls.length, 1, res.calls.join("\n"));
    const call = res.calls[0];
    assert.match(call, /^pulumi refresh --yes --skip-preview --stack dev /);
    assert.deepStrictEqual(
      [...call.matchAll(/--target (\S+)/g)].map((m) => m[1].split("::").pop()),
      ["work-kind", "work-token", "karmada-api", "member"],
    );
    assert.match(call, /K8S_DELETE_UNREACHABLE=true$/);
  });

  it("both clusters listed (work's control plane paused): nothing refreshed or dropped; the paused one named", () => {
    for (const mode of ["recover", "report", "check"]) {
      const res = runScript(mode, "ikohome ikowork");
      assert.strictEqual(res.status, 0, res.stderr);
      assert.deepStrictEqual(res.calls, []);
      assert.strictEqual(
        res.stderr,
        'lost-clusters: kind cluster "ikowork" is paused: nothing on it can be read or changed until it runs again; `docker unpause ikowork-control-plane`\n',
      );
    }
  });

  it("check (before a destroy): a lost cluster drops nothing", () => {
    const res = runScript("check", "ikohome");
    assert.strictEqual(res.status, 0, res.stderr);
    assert.deepStrictEqual(res.calls, []);
  });

  it("kind cannot answer (no Docker engine): no cluster is taken for lost", () => {
    const res = runScript("recover", undefined);
    assert.strictEqual(res.status, 0, res.stderr);
    assert.deepStrictEqual(res.calls, []);
    assert.match(res.stderr, /cannot tell which kind clusters exist/);
  });

  it("report (before a preview): says what `npm run up` will recreate and changes nothing", () => {
    const res = runScript("report", "ikohome");
    assert.strictEqual(res.status, 0, res.stderr);
    assert.deepStrictEqual(res.calls, []);
    assert.match(res.stderr, /kind cluster "ikowork" no longer exists .*`npm run up` recreates it and the 3 objects/);
  });
});
