/**
 * Cluster sources (stacks/sources): a source registered beside the project's is chosen by
 * `<key>.source`, validated like any other and declares its own handle (a wfh stack under mocks);
 * an unknown source's error names the allowed ones; the registration is scoped to `withSources`.
 */
import * as assert from "assert";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Registered, fakeKubeconfig, installMocks, settle } from "./mocks";

const registered: Registered[] = installMocks();
// The stack modules are imported after the mocks are installed.
import { ClusterHandle, ExistingCluster } from "../../components/cluster";
import { ConfigError, validateConfig, validateWfhConfig, wfhStack } from "../../stacks";
import { ClusterSource, DEFAULT_SOURCES, StackCluster, clusterSources, withSources } from "../../stacks/sources";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");

/** A source whose clusters exist already and whose kubeconfig it makes up. */
function fakeSource(declared: StackCluster[]): ClusterSource {
  return {
    name: "fake",
    traits: {},
    declare: (c) => {
      declared.push(c);
      return new ExistingCluster(c.name, {
        kubeconfig: pulumi.secret(fakeKubeconfig(c.name, "https://10.9.9.9:6443")),
        role: c.key,
      });
    },
  };
}

function wfh(home: Record<string, unknown>): Record<string, unknown> {
  return { program: "wfh", home, work: { name: "fakework" }, iko: { chartPath: CHART, crdManifestPath: CRD } };
}

/** The problems of a config that must not validate. */
function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  assert.fail("the config validated");
}

describe("cluster sources", () => {
  it("a registered source: home.source fake validates and the wfh stack declares the fake's handle", async () => {
    const declared: StackCluster[] = [];
    const n = registered.length;
    const handles = withSources([fakeSource(declared)], () => {
      const cfg = validateWfhConfig(wfh({ name: "fakehome", source: "fake" }));
      assert.strictEqual(cfg.home.source, "fake");
      // Traits left at their defaults: no Cilium, no kubeconfig of its own.
      assert.strictEqual(cfg.home.cilium.enabled, false);
      assert.strictEqual(cfg.home.kubeconfigPath, undefined);
      wfhStack(cfg, { secrets: {} });
      return declared.map((c) => c.name);
    });
    assert.deepStrictEqual(handles, ["fakehome"]);
    await new Promise((r) => setTimeout(r, 500));
    await settle();
    const mine = registered.slice(n);
    const home = mine.filter((r) => r.name === "fakehome");
    assert.deepStrictEqual(
      home.map((r) => r.type),
      ["iko-plus:cluster:ExistingCluster"],
    );
    // The other cluster still comes from the default source.
    assert.ok(mine.some((r) => r.type === "iko-plus:kind:KindCluster" && r.name === "fakework"));
    assert.ok(!mine.some((r) => r.name === "fakehome-cni"), "a fake cluster gets no CiliumCni");
  });

  it("an unknown source's error names the allowed ones: the program's, and a registered one", () => {
    assert.deepStrictEqual(
      problemsOf(() => validateWfhConfig(wfh({ source: "fake" }))).filter((p) => p.includes(".source")),
      ['iko-plus:home.source: "fake" is not allowed; use one of: kind, kubeconfig'],
    );
    const fleet = { clusters: [{ name: "c1", source: "eks" }], karmada: { hostCluster: "c1" } };
    assert.ok(
      problemsOf(() => validateConfig({ program: "fleet", ...fleet }, [])).includes(
        'iko-plus:clusters[0].source: "eks" is not allowed; use one of: kind, kubeconfig, gke',
      ),
    );
    const inside = withSources([fakeSource([])], () => problemsOf(() => validateWfhConfig(wfh({ source: "nope" }))));
    assert.ok(inside.includes('iko-plus:home.source: "nope" is not allowed; use one of: kind, kubeconfig, fake'));
  });

  it("a registered source's own keys: known on its programs' entries, read into the config, a problem under another source", async () => {
    /** What the keyed source's entry key gives every cluster config. */
    interface FakeEntry {
      fakeServer?: string;
    }
    const declared: (StackCluster & FakeEntry)[] = [];
    const keyed: ClusterSource<FakeEntry, { fakeZone?: string }> = {
      name: "keyed",
      programs: ["wfh", "fleet"],
      traits: {},
      entryKeys: ["fakeServer"],
      settingsKeys: ["fakeZone"],
      readEntry(r, { key, entry, source }) {
        const fakeServer = r.string(`${key}.fakeServer`, entry.fakeServer);
        if (source !== "keyed" && fakeServer !== undefined)
          r.problems.add(`${key}.fakeServer`, fakeServer, `is set but ${key}.source is "${source}"`);
        return { fakeServer: source === "keyed" ? fakeServer : undefined };
      },
      declare: (c: StackCluster & FakeEntry) => {
        declared.push(c);
        return new ExistingCluster(c.name, {
          kubeconfig: pulumi.secret(fakeKubeconfig(c.name, c.fakeServer ?? "https://10.9.9.8:6443")),
          role: c.key,
        });
      },
    };
    withSources([keyed], () => {
      const cfg = validateWfhConfig(wfh({ name: "keyedhome", source: "keyed", fakeServer: "https://10.9.9.9:6443" }));
      assert.strictEqual((cfg.home as StackCluster & FakeEntry).fakeServer, "https://10.9.9.9:6443");
      wfhStack(cfg, { secrets: {} });
      assert.deepStrictEqual(
        problemsOf(() =>
          validateWfhConfig({ ...wfh({ name: "keyedhome", source: "keyed" }), work: { fakeServer: "https://x:1" } }),
        ),
        ['iko-plus:work.fakeServer: "https://x:1" is set but work.source is "kind"'],
      );
      const fleet = { clusters: [{ name: "c1", typo: 1 }], karmada: { hostCluster: "c1" } };
      assert.ok(
        problemsOf(() => validateConfig({ program: "fleet", ...fleet }, [])).some((p) =>
          p.endsWith(
            "use one of: name, source, kubeconfigPath, fakeServer, protect, workers, nodeImage, kubeProxyMode, podSubnet, serviceSubnet, cilium, iko, join, gke, fakeZone, extraPortMappings, kubeconfigSecret",
          ),
        ),
      );
    });
    assert.deepStrictEqual(
      declared.map((c) => [c.name, c.fakeServer]),
      [["keyedhome", "https://10.9.9.9:6443"]],
    );
    await settle();
  });

  it("withSources restores the sources in use, after a throw and after a promise settles", async () => {
    assert.throws(() =>
      withSources([fakeSource([])], () => {
        throw new Error("boom");
      }),
    );
    assert.strictEqual(clusterSources(), DEFAULT_SOURCES);
    const during = await withSources([fakeSource([])], async () => {
      await new Promise((r) => setTimeout(r, 10));
      return clusterSources().names();
    });
    assert.deepStrictEqual(during, ["kind", "kubeconfig", "gke", "fake"]);
    assert.strictEqual(clusterSources(), DEFAULT_SOURCES);
  });

  it("a source name registered twice is refused", () => {
    const twin: ClusterSource = { name: "kind", traits: {}, declare: () => ({}) as ClusterHandle };
    assert.throws(() => withSources([twin], () => undefined), /cluster source kind is registered twice/);
  });
});
