import * as assert from "assert";
import { DEFAULT_NODE_IMAGE, kindConfig, kindConfigYaml } from "../../components/kind";

describe("kind config", () => {
  it("reproduces the recipe's cluster: one control-plane, one worker, default CNI off", () => {
    assert.strictEqual(
      kindConfigYaml({}),
      [
        "kind: Cluster",
        "apiVersion: kind.x-k8s.io/v1alpha4",
        "nodes:",
        "  - role: control-plane",
        `    image: ${DEFAULT_NODE_IMAGE}`,
        "  - role: worker",
        `    image: ${DEFAULT_NODE_IMAGE}`,
        "networking:",
        "  disableDefaultCNI: true",
        "",
      ].join("\n"),
    );
  });

  it("pins the node image by digest", () => {
    assert.match(DEFAULT_NODE_IMAGE, /^kindest\/node:v1\.34\.0@sha256:[a-f0-9]{64}$/);
  });

  it("maps every option", () => {
    assert.deepStrictEqual(
      kindConfig({
        nodeImage: "kindest/node:v1.33.1",
        workers: 2,
        disableDefaultCNI: false,
        kubeProxyMode: "none",
        podSubnet: "10.10.0.0/16",
        serviceSubnet: "10.11.0.0/16",
        extraPortMappings: [{ containerPort: 32443, hostPort: 5443 }],
      }),
      {
        kind: "Cluster",
        apiVersion: "kind.x-k8s.io/v1alpha4",
        nodes: [
          {
            role: "control-plane",
            image: "kindest/node:v1.33.1",
            extraPortMappings: [{ containerPort: 32443, hostPort: 5443, listenAddress: "127.0.0.1", protocol: "TCP" }],
          },
          { role: "worker", image: "kindest/node:v1.33.1" },
          { role: "worker", image: "kindest/node:v1.33.1" },
        ],
        networking: { kubeProxyMode: "none", podSubnet: "10.10.0.0/16", serviceSubnet: "10.11.0.0/16" },
      },
    );
  });

  it("an empty extraPortMappings list writes no extraPortMappings key", () => {
    assert.deepStrictEqual(kindConfig({ extraPortMappings: [] }).nodes[0], {
      role: "control-plane",
      image: DEFAULT_NODE_IMAGE,
    });
  });

  it("leaves kind's defaults out", () => {
    const c = kindConfig({ workers: 0, disableDefaultCNI: false, kubeProxyMode: "iptables" });
    assert.deepStrictEqual(c, {
      kind: "Cluster",
      apiVersion: "kind.x-k8s.io/v1alpha4",
      nodes: [{ role: "control-plane", image: DEFAULT_NODE_IMAGE }],
    });
  });
});
