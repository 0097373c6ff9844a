/**
 * Pre-flight endpoint checks: a kubeconfig whose API server does not answer is reported as a config
 * problem before anything is declared; a secret kubeconfig shows neither its value nor its server.
 */
import * as assert from "assert";
import * as net from "net";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ClusterConfig } from "../../stacks/config";
import {
  EndpointCheck,
  clusterEndpointChecks,
  deadEndpointProblem,
  endpointProblems,
  probeAddresses,
  serverAddress,
} from "../../stacks/preflight";
import { fakeKubeconfig } from "./mocks";

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("pre-flight endpoint checks", () => {
  it("reads host and port from an API server URL", () => {
    assert.deepStrictEqual(serverAddress("https://127.0.0.1:6443"), { host: "127.0.0.1", port: 6443 });
    assert.deepStrictEqual(serverAddress("https://ikowork-control-plane"), {
      host: "ikowork-control-plane",
      port: 443,
    });
    assert.deepStrictEqual(serverAddress("https://[::1]:7443"), { host: "::1", port: 7443 });
  });

  it("names the key, the file, the server and the fix; hides a secret kubeconfig and its server", () => {
    const file: EndpointCheck = {
      key: "iko-plus:clusters[1].kubeconfigPath",
      value: "/lab/ikogke/kubeconfig",
      secret: false,
      kubeconfig: "",
    };
    assert.strictEqual(
      deadEndpointProblem(file, "https://127.0.0.1:1", "ECONNREFUSED"),
      'iko-plus:clusters[1].kubeconfigPath: "/lab/ikogke/kubeconfig" points at https://127.0.0.1:1, which does not answer (ECONNREFUSED); start the cluster, or fix the kubeconfig\'s server (`kubectl cluster-info --kubeconfig <file>` shows what answers)',
    );
    const secret: EndpointCheck = { key: "iko-plus:workKubeconfig", value: undefined, secret: true, kubeconfig: "" };
    assert.strictEqual(
      deadEndpointProblem(secret, "https://10.1.2.3:6443", "ETIMEDOUT"),
      "iko-plus:workKubeconfig: [secret] points at a server, which does not answer (ETIMEDOUT); start the cluster, or fix the kubeconfig's server (`kubectl cluster-info --kubeconfig <file>` shows what answers)",
    );
  });

  it("probes for real (in-process sockets): a listening server passes, a closed port is ECONNREFUSED", async () => {
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const open = (server.address() as net.AddressInfo).port;
      const closed = await closedPort();
      assert.deepStrictEqual(
        await probeAddresses(
          [
            { host: "127.0.0.1", port: open },
            { host: "127.0.0.1", port: closed },
          ],
          3000,
        ),
        ["", "ECONNREFUSED"],
      );
      const checks: EndpointCheck[] = [
        {
          key: "iko-plus:home.kubeconfigPath",
          value: "/h",
          secret: false,
          kubeconfig: fakeKubeconfig("ikohome", `https://127.0.0.1:${open}`),
        },
        {
          key: "iko-plus:work.kubeconfigPath",
          value: "/w",
          secret: false,
          kubeconfig: fakeKubeconfig("ikowork", `https://127.0.0.1:${closed}`),
        },
      ];
      assert.deepStrictEqual(await endpointProblems(checks), [
        deadEndpointProblem(checks[1], `https://127.0.0.1:${closed}`, "ECONNREFUSED"),
      ]);
    } finally {
      server.close();
    }
  });

  it("asks nothing when there is nothing to probe", async () => {
    assert.deepStrictEqual(await probeAddresses([]), []);
    assert.deepStrictEqual(
      await endpointProblems([], () => {
        throw new Error("must not probe");
      }),
      [],
    );
  });

  it("probes only existing clusters: a file by its path, a secret by its key without its value; kind and GKE not", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "iko-preflight-")), "kubeconfig");
    fs.writeFileSync(file, fakeKubeconfig("from-file", "https://127.0.0.1:7443"));
    const secretText = fakeKubeconfig("from-secret", "https://10.0.0.1:6443");
    const cluster = (
      key: string,
      source: ClusterConfig["source"],
      more: Partial<ClusterConfig> = {},
    ): ClusterConfig => ({
      key,
      name: key,
      source,
      protect: false,
      kind: { workers: 1, kubeProxyMode: "iptables" },
      cilium: { enabled: false, clusterId: 1, moduleImages: false, dropCapabilities: [] },
      ...more,
    });
    const checks = clusterEndpointChecks(
      [
        cluster("home", "kind"),
        cluster("clusters[1]", "kubeconfig", { kubeconfigPath: file }),
        cluster("clusters[2]", "gke"),
        cluster("work", "kubeconfig", { kubeconfigSecretKey: "workKubeconfig" }),
        cluster("clusters[4]", "kubeconfig", { kubeconfigSecretKey: "notSet" }),
      ],
      { workKubeconfig: secretText, notSet: 42 },
    );
    assert.deepStrictEqual(checks, [
      {
        key: "iko-plus:clusters[1].kubeconfigPath",
        value: file,
        secret: false,
        kubeconfig: fakeKubeconfig("from-file", "https://127.0.0.1:7443"),
      },
      { key: "iko-plus:workKubeconfig", value: undefined, secret: true, kubeconfig: secretText },
    ]);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it("reads an http server without a port as port 80", () => {
    assert.deepStrictEqual(serverAddress("http://10.0.0.1"), { host: "10.0.0.1", port: 80 });
    assert.deepStrictEqual(serverAddress("https://[fd00::1]"), { host: "fd00::1", port: 443 });
  });
});
