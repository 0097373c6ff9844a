// @ts-check
/**
 * Program cost: evaluates a 50-member, 20-IrisCluster fleet under Pulumi mocks and prints the
 * milliseconds from the start of the program to the last resource registered. It runs the program
 * the way `pulumi up` does (main.js): precompiled JavaScript from .iko-plus/program/, plain node, no
 * ts-node. Run it in its own process: node testbed/bench/eval-fleet.js [members] [irisClusters]
 */
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const { ensureProgramBuild } = require("../../scripts/program-build");

const ROOT = path.join(__dirname, "..", "..");
const members = Number(process.argv[2] ?? 50);
const iris = Number(process.argv[3] ?? 20);
let registered = 0;
let last = 0;

/** @param {string} server */
const kubeconfig = (server) =>
  `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${server}\n    certificate-authority-data: Q0E=\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\nusers:\n- name: u\n  user:\n    token: t\n`;

pulumi.runtime.setMocks(
  {
    newResource(args) {
      registered++;
      last = performance.now();
      /** @type {Record<string, unknown>} */
      const state = { ...args.inputs };
      if (args.type.startsWith("pulumi-nodejs:dynamic")) {
        state.kubeconfig = kubeconfig("https://127.0.0.1:6443");
        state.peerKubeconfig = kubeconfig("https://x-control-plane:6443");
      }
      if (args.type === "kubernetes:core/v1:Secret") state.data = { token: "dA==", "ca.crt": "Q0E=" };
      if (args.type === "kubernetes:core/v1:Namespace" && args.id) state.metadata = { uid: "u" };
      return { id: `${args.name}-id`, state };
    },
    call: (a) => a.inputs,
  },
  "iko-plus",
  "bench",
  false,
);

async function main() {
  // Compile outside the timed part (as a cached build would be), then time load + evaluation.
  const build = ensureProgramBuild(ROOT, { mode: "transpile" });
  const t0 = performance.now();
  const { validateConfig, fleetStack } = require(path.join(build, "stacks"));
  const loaded = performance.now();
  const names = Array.from({ length: members }, (_, i) => `member-${i + 1}`);
  const fixtures = path.join(ROOT, "test", "fixtures");
  const cfg = validateConfig(
    {
      program: "fleet",
      clusters: names.map((name, i) => ({
        name,
        cilium: { clusterId: i + 1 },
        join: { provider: "kind", labels: { ring: String(i % 4) } },
      })),
      karmada: { mode: "existing", kubeconfigPath: path.join(fixtures, "karmada-standin-kubeconfig.yaml") },
      iko: {
        chartPath: path.join(fixtures, "iko-chart", "iris-operator"),
        crdManifestPath: path.join(fixtures, "crds", "irisclusters.intersystems.com.yaml"),
      },
      federatedIrisClusters: Array.from({ length: iris }, (_, i) => ({
        name: `iris-${i + 1}`,
        image: "containers.intersystems.com/intersystems/iris-community:2025.1",
        placement: { labels: { ring: String(i % 4) } },
      })),
    },
    [],
  );
  if (cfg.program !== "fleet") throw new Error("fleet");
  fleetStack(cfg, { secrets: {}, secretObjects: {} });
  // Settle: wait until no new registration for 300 ms.
  let seen = -1;
  while (seen !== registered) {
    seen = registered;
    await new Promise((r) => setTimeout(r, 300));
  }
  console.log(
    JSON.stringify({
      members,
      irisClusters: iris,
      resources: registered,
      ms: Math.round(last - t0),
      loadMs: Math.round(loaded - t0),
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
