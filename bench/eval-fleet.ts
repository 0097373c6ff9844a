/**
 * Program cost: evaluates a 50-member, 20-IrisCluster fleet under Pulumi mocks and prints the
 * milliseconds from the start of the program to the last resource registered. Run it in its own
 * process: node -r ts-node/register/transpile-only bench/eval-fleet.ts [members] [irisClusters]
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";

const members = Number(process.argv[2] ?? 50);
const iris = Number(process.argv[3] ?? 20);
let registered = 0;
let last = 0;
pulumi.runtime.setMocks({
  newResource(args: pulumi.runtime.MockResourceArgs) {
    registered++;
    last = performance.now();
    const state: Record<string, unknown> = { ...args.inputs };
    if (args.type.startsWith("pulumi-nodejs:dynamic")) {
      const kc = (server: string) => `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${server}\n    certificate-authority-data: Q0E=\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\nusers:\n- name: u\n  user:\n    token: t\n`;
      state.kubeconfig = kc("https://127.0.0.1:6443");
      state.peerKubeconfig = kc("https://x-control-plane:6443");
    }
    if (args.type === "kubernetes:core/v1:Secret") state.data = { token: "dA==", "ca.crt": "Q0E=" };
    if (args.type === "kubernetes:core/v1:Namespace" && args.id) state.metadata = { uid: "u" };
    return { id: `${args.name}-id`, state };
  },
  call: (a: pulumi.runtime.MockCallArgs) => a.inputs,
}, "iko-plus", "bench", false);

async function main(): Promise<void> {
  const t0 = performance.now();
  const { validateConfig, fleetStack } = await import("../stacks");
  const loaded = performance.now();
  const names = Array.from({ length: members }, (_, i) => `member-${i + 1}`);
  const cfg = validateConfig({
    program: "fleet",
    clusters: names.map((name, i) => ({ name, cilium: { clusterId: i + 1 }, join: { provider: "kind", labels: { ring: String(i % 4) } } })),
    karmada: { mode: "existing", kubeconfigPath: path.join(__dirname, "..", "test", "fixtures", "karmada-standin-kubeconfig.yaml") },
    iko: { chartPath: path.join(__dirname, "..", "test", "fixtures", "iko-chart", "iris-operator"), crdManifestPath: path.join(__dirname, "..", "test", "fixtures", "crds", "irisclusters.intersystems.com.yaml") },
    federatedIrisClusters: Array.from({ length: iris }, (_, i) => ({
      name: `iris-${i + 1}`, image: "containers.intersystems.com/intersystems/iris-community:2025.1", placement: { labels: { ring: String(i % 4) } },
    })),
  }, []);
  if (cfg.program !== "fleet") throw new Error("fleet");
  fleetStack(cfg, { secrets: {}, secretObjects: {} });
  // Settle: wait until no new registration for 300 ms.
  let seen = -1;
  while (seen !== registered) {
    seen = registered;
    await new Promise((r) => setTimeout(r, 300));
  }
  console.log(JSON.stringify({ members, irisClusters: iris, resources: registered, ms: Math.round(last - t0), loadMs: Math.round(loaded - t0) }));
}

main().catch((e) => { console.error(e); process.exit(1); });
