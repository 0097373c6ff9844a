import * as assert from "assert";
import {
  DEFAULT_MIRRORED_REGISTRIES,
  checkKindClusterArgs,
  checkRegistryMirror,
  configNodeImage,
  createFailureMessage,
  kindConfig,
  kindConfigYaml,
  configDisablesCni,
  kubeletFailure,
  mirrorHostsToml,
  mirrorNodeFiles,
  mirroredImageRef,
  nodeReadiness,
} from "../../components/kind";

describe("kind registry mirror (pure, unit)", () => {
  it("hosts.toml maps a registry to /v2/<registry> on the mirror with override_path", () => {
    assert.strictEqual(
      mirrorHostsToml("docker.io", "http://iko-plus-registry:5000"),
      [
        "# Written by iko-plus: pull docker.io images from the mirror http://iko-plus-registry:5000.",
        'server = "https://registry-1.docker.io"',
        "",
        '[host."http://iko-plus-registry:5000/v2/docker.io"]',
        '  capabilities = ["pull", "resolve"]',
        "  override_path = true",
        "",
      ].join("\n"),
    );
    assert.match(
      mirrorHostsToml("containers.intersystems.com", "https://m:443"),
      /^server = "https:\/\/containers\.intersystems\.com"$/m,
    );
    assert.match(
      mirrorHostsToml("containers.intersystems.com", "https://m:443"),
      /^\[host\."https:\/\/m:443\/v2\/containers\.intersystems\.com"\]$/m,
    );
  });

  it("one host file per registry, default registries, sorted", () => {
    const files = mirrorNodeFiles({ endpoint: "http://r:5000" });
    assert.deepStrictEqual(
      files.map((f) => f.path),
      [
        "/etc/containerd/certs.d/containers.intersystems.com/hosts.toml",
        "/etc/containerd/certs.d/docker.io/hosts.toml",
        "/etc/containerd/certs.d/ghcr.io/hosts.toml",
        "/etc/containerd/certs.d/quay.io/hosts.toml",
        "/etc/containerd/certs.d/registry.k8s.io/hosts.toml",
      ],
    );
    assert.deepStrictEqual([...DEFAULT_MIRRORED_REGISTRIES].sort(), [
      "containers.intersystems.com",
      "docker.io",
      "ghcr.io",
      "quay.io",
      "registry.k8s.io",
    ]);
    assert.deepStrictEqual(mirrorNodeFiles({ endpoint: "http://r:5000", registries: ["quay.io"] }), [
      { path: "/etc/containerd/certs.d/quay.io/hosts.toml", content: mirrorHostsToml("quay.io", "http://r:5000") },
    ]);
  });

  it("a mirror turns on containerd's config_path in the kind config; none leaves it out", () => {
    const cfg = kindConfig({ registryMirror: { endpoint: "http://r:5000" } });
    assert.deepStrictEqual(cfg.containerdConfigPatches, [
      '[plugins."io.containerd.grpc.v1.cri".registry]\n  config_path = "/etc/containerd/certs.d"\n',
    ]);
    assert.strictEqual(kindConfig({}).containerdConfigPatches, undefined);
    assert.match(
      kindConfigYaml({ registryMirror: { endpoint: "http://r:5000" } }),
      /containerdConfigPatches:\n {2}- \|\n {4}\[plugins\."io\.containerd\.grpc\.v1\.cri"\.registry\]\n {6}config_path = "\/etc\/containerd\/certs\.d"\n/,
    );
  });

  it("checks the endpoint and the registries, one problem each", () => {
    assert.deepStrictEqual(checkRegistryMirror({ endpoint: "http://iko-plus-registry:5000" }), []);
    assert.deepStrictEqual(
      checkRegistryMirror({
        endpoint: "iko-plus-registry:5000/v2",
        registries: ["docker.io", "Docker.io", "docker.io", "quay.io/x"],
      }),
      [
        [
          "endpoint",
          "iko-plus-registry:5000/v2",
          'is not an http:// or https:// address with a host and an optional port and no path; use e.g. "http://iko-plus-registry:5000"',
        ],
        [
          "registries",
          "Docker.io",
          'is not a registry host name (lowercase, optional :port, no scheme or path); use e.g. "docker.io"',
        ],
        ["registries", "docker.io", "is listed twice; list each registry once"],
        [
          "registries",
          "quay.io/x",
          'is not a registry host name (lowercase, optional :port, no scheme or path); use e.g. "docker.io"',
        ],
      ],
    );
    assert.deepStrictEqual(checkRegistryMirror({ endpoint: "http://r", registries: [] }), [
      ["registries", [], 'is empty; list the registries to mirror, e.g. ["docker.io"], or leave it out'],
    ]);
  });

  it("KindCluster's own check prefixes the mirror's problems and checks the timeout", () => {
    assert.deepStrictEqual(checkKindClusterArgs({ registryMirror: { endpoint: "ftp://x" }, readyTimeoutSeconds: 5 }), [
      [
        "registryMirror.endpoint",
        "ftp://x",
        'is not an http:// or https:// address with a host and an optional port and no path; use e.g. "http://iko-plus-registry:5000"',
      ],
      ["readyTimeoutSeconds", 5, "must be a whole number from 10 to 3600 (seconds)"],
    ]);
    assert.deepStrictEqual(checkKindClusterArgs({ readyTimeoutSeconds: 300 }), []);
  });

  it("mirroredImageRef follows the layout: <mirror>/<registry>/<repository>", () => {
    assert.strictEqual(
      mirroredImageRef("busybox:1.36", "127.0.0.1:5001"),
      "127.0.0.1:5001/docker.io/library/busybox:1.36",
    );
    assert.strictEqual(
      mirroredImageRef("rancher/local-path-provisioner:v0.0.31", "m"),
      "m/docker.io/rancher/local-path-provisioner:v0.0.31",
    );
    assert.strictEqual(
      mirroredImageRef("containers.intersystems.com/intersystems/iris-community:2025.1", "m"),
      "m/containers.intersystems.com/intersystems/iris-community:2025.1",
    );
    assert.strictEqual(mirroredImageRef("localhost:5000/x:1", "m"), "m/localhost:5000/x:1");
    // "localhost" without a port is a registry too, as Docker reads it.
    assert.strictEqual(mirroredImageRef("localhost/x:1", "m"), "m/localhost/x:1");
  });
});

describe("kind node readiness and create failures (pure, unit)", () => {
  const nodes = (entries: [string, string | undefined][]) =>
    JSON.stringify({
      items: entries.map(([name, status]) => ({
        metadata: { name },
        status: { conditions: status ? [{ type: "Ready", status, message: "m" }] : [] },
      })),
    });

  it("nodeReadiness: Ready=True only; missing, unconditioned and False nodes are named", () => {
    assert.deepStrictEqual(
      nodeReadiness(
        nodes([
          ["a", "True"],
          ["b", "False"],
          ["c", undefined],
        ]),
        ["a", "b", "c", "d"],
      ),
      {
        ready: ["a"],
        awaitingCni: [],
        notReady: [
          { name: "b", reason: "Ready=False (m)" },
          { name: "c", reason: "no Ready condition yet" },
          { name: "d", reason: "not registered with the API server" },
        ],
      },
    );
    assert.deepStrictEqual(nodeReadiness("not json", ["a"]).notReady, [
      { name: "a", reason: "not registered with the API server" },
    ]);
  });

  it("nodeReadiness with cniPending: a node waiting only for its network plugin is up; other False nodes are not", () => {
    const noCni =
      "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized";
    const json = JSON.stringify({
      items: [
        { metadata: { name: "a" }, status: { conditions: [{ type: "Ready", status: "False", message: noCni }] } },
        {
          metadata: { name: "b" },
          status: { conditions: [{ type: "Ready", status: "False", message: "PLEG is not healthy" }] },
        },
        { metadata: { name: "c" }, status: { conditions: [{ type: "Ready", status: "True" }] } },
      ],
    });
    assert.deepStrictEqual(nodeReadiness(json, ["a", "b", "c"], { cniPending: true }), {
      ready: ["c"],
      awaitingCni: ["a"],
      notReady: [{ name: "b", reason: "Ready=False (PLEG is not healthy)" }],
    });
    assert.deepStrictEqual(nodeReadiness(json, ["a"]).notReady, [{ name: "a", reason: `Ready=False (${noCni})` }]);
  });

  it("configDisablesCni reads networking.disableDefaultCNI", () => {
    assert.strictEqual(configDisablesCni("networking:\n  disableDefaultCNI: true\nnodes: []\n"), true);
    assert.strictEqual(configDisablesCni("networking:\n  podSubnet: 10.244.0.0/16\n"), false);
  });

  it("kubeletFailure finds the inotify failure and says how to fix it; other logs give nothing", () => {
    const cause = kubeletFailure(
      'I1201 ok\nE1201 12:00 kubelet.go:1 "command failed" err="inotify_init: too many open files"\n',
    );
    assert.match(
      cause ?? "",
      /^its kubelet failed with "E1201 .*inotify_init: too many open files.*": the host's inotify limits are too low/,
    );
    assert.match(cause ?? "", /known-issues\/#pod-errors-due-to-too-many-open-files/);
    assert.strictEqual(kubeletFailure("I1201 Started kubelet\n"), undefined);
  });

  it("createFailureMessage names the cause and the fix", () => {
    assert.strictEqual(
      createFailureMessage(
        "w",
        'Creating cluster...\nERROR: failed to create cluster: failed to pull image "x/node:1": exit status 1\n',
        "x/node:1",
      ),
      'kind cluster "w": nodeImage "x/node:1" is not in the Docker engine and cannot be pulled (ERROR: failed to create cluster: failed to pull image "x/node:1": exit status 1); ' +
        "build or load that image (`docker image ls` lists what the engine has), or set nodeImage to one it has",
    );
    assert.match(
      createFailureMessage(
        "w",
        'ERROR: failed to create cluster: node(s) already exist for a cluster with the name "w"',
        undefined,
      ),
      /a kind cluster of that name already exists outside this stack .*`kind delete cluster --name w`/,
    );
    assert.match(
      createFailureMessage(
        "w",
        "ERROR: failed to create cluster: invalid configuration for node 0: port mapping with same listen address, port and protocol already configured: 127.0.0.1:30443/TCP",
        undefined,
      ),
      /^kind cluster "w": kind refused its config \(ERROR: .*127\.0\.0\.1:30443\/TCP\); fix the field kind names/,
    );
    assert.match(
      createFailureMessage(
        "w",
        "docker: Error response from daemon: driver failed: Bind for 127.0.0.1:30443 failed: port is already allocated.",
        undefined,
      ),
      /a host port of extraPortMappings is already in use/,
    );
  });

  it("createFailureMessage without an ERROR: line quotes the last three lines of kind's output, no more", () => {
    assert.strictEqual(
      createFailureMessage("w", "one\n two \n\nthree\nfour\nfive\n", undefined),
      'kind cluster "w": kind create cluster --name w failed: three four five',
    );
  });

  it("configNodeImage reads the first node image of a kind config", () => {
    assert.strictEqual(
      configNodeImage(kindConfigYaml({ nodeImage: "iko-plus/kind-node:v1.34.12-abc" })),
      "iko-plus/kind-node:v1.34.12-abc",
    );
  });
});
