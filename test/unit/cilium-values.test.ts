import * as assert from "assert";
import { CILIUM_VERSION, checkCiliumCniArgs, ciliumValues, cniProbeDaemonSet } from "../../components/cilium";

describe("cilium values", () => {
  it("pins Cilium 1.18.6", () => assert.strictEqual(CILIUM_VERSION, "1.18.6"));

  it("sets what `cilium install` sets on kind, plus a unique name and id", () => {
    assert.deepStrictEqual(ciliumValues({ clusterName: "ikohome", clusterId: 1 }), {
      cluster: { name: "ikohome", id: 1 },
      ipam: { mode: "kubernetes" },
      routingMode: "tunnel",
      tunnelProtocol: "vxlan",
      operator: { replicas: 1 },
      image: { pullPolicy: "IfNotPresent" },
    });
  });

  it("replaces kube-proxy only when asked, pointing at the kind control plane", () => {
    const v = ciliumValues({ clusterName: "ikowork", clusterId: 2, kubeProxyReplacement: true });
    assert.strictEqual(v.kubeProxyReplacement, true);
    assert.strictEqual(v.k8sServiceHost, "ikowork-control-plane");
    assert.strictEqual(v.k8sServicePort, 6443);
    const custom = ciliumValues({
      clusterName: "w",
      clusterId: 3,
      kubeProxyReplacement: true,
      k8sServiceHost: "10.0.0.5",
      k8sServicePort: 443,
    });
    assert.deepStrictEqual([custom.k8sServiceHost, custom.k8sServicePort], ["10.0.0.5", 443]);
  });

  it("module images: Envoy, the L7 proxy, Hubble relay and UI off, every image by tag", () => {
    assert.deepStrictEqual(ciliumValues({ clusterName: "ikohome", clusterId: 1, moduleImages: true }), {
      cluster: { name: "ikohome", id: 1 },
      ipam: { mode: "kubernetes" },
      routingMode: "tunnel",
      tunnelProtocol: "vxlan",
      operator: { replicas: 1, image: { useDigest: false } },
      image: { pullPolicy: "IfNotPresent", useDigest: false },
      clustermesh: { apiserver: { image: { useDigest: false } } },
      envoy: { enabled: false },
      l7Proxy: false,
      hubble: { relay: { enabled: false }, ui: { enabled: false } },
    });
    assert.strictEqual(ciliumValues({ clusterName: "w", clusterId: 2, moduleImages: false }).envoy, undefined);
  });

  it("dropCapabilities: the chart's agent and clean-state capabilities less the dropped ones; bad names refused", () => {
    assert.deepStrictEqual(
      ciliumValues({ clusterName: "w", clusterId: 2, dropCapabilities: ["SYS_RESOURCE"] }).securityContext,
      {
        capabilities: {
          ciliumAgent: [
            "CHOWN",
            "KILL",
            "NET_ADMIN",
            "NET_RAW",
            "IPC_LOCK",
            "SYS_MODULE",
            "SYS_ADMIN",
            "DAC_OVERRIDE",
            "FOWNER",
            "SETGID",
            "SETUID",
          ],
          cleanCiliumState: ["NET_ADMIN", "SYS_MODULE", "SYS_ADMIN"],
        },
      },
    );
    assert.strictEqual(
      ciliumValues({ clusterName: "w", clusterId: 2, dropCapabilities: [] }).securityContext,
      undefined,
    );
    assert.deepStrictEqual(checkCiliumCniArgs({ dropCapabilities: ["SYS_RESOURCE"] }), []);
    assert.deepStrictEqual(
      checkCiliumCniArgs({ dropCapabilities: ["CAP_SYS_RESOURCE", "KILL", "KILL"] }).map((p) => p[2]),
      [
        '"CAP_SYS_RESOURCE" is not one of the agent\'s capabilities (CHOWN, KILL, NET_ADMIN, NET_RAW, IPC_LOCK, SYS_MODULE, SYS_ADMIN, SYS_RESOURCE, DAC_OVERRIDE, FOWNER, SETGID, SETUID)',
        '"KILL" is listed twice',
      ],
    );
  });

  it("the CNI probe: one pause pod per node on the pod network (not the host's), every taint tolerated, awaited by Pulumi", () => {
    const ds = cniProbeDaemonSet("probe") as {
      metadata: Record<string, unknown>;
      spec: { selector: unknown; template: { metadata: unknown; spec: Record<string, unknown> } };
    };
    const labels = { "app.kubernetes.io/name": "probe", "app.kubernetes.io/managed-by": "iko-plus" };
    assert.deepStrictEqual(ds.metadata, {
      name: "probe",
      namespace: "kube-system",
      labels,
      annotations: { "pulumi.com/timeoutSeconds": "600" },
    });
    assert.deepStrictEqual([ds.spec.selector, ds.spec.template.metadata], [{ matchLabels: labels }, { labels }]);
    const pod = ds.spec.template.spec as {
      hostNetwork?: boolean;
      tolerations: unknown;
      containers: { image: string }[];
    };
    assert.strictEqual(pod.hostNetwork, undefined);
    assert.deepStrictEqual(pod.tolerations, [{ operator: "Exists" }]);
    assert.deepStrictEqual(
      pod.containers.map((c) => c.image),
      ["registry.k8s.io/pause:3.10"],
    );
    assert.deepStrictEqual((cniProbeDaemonSet("p", "m/pause:1") as typeof ds).spec.template.spec.containers, [
      { ...pod.containers[0], image: "m/pause:1" },
    ]);
    // The pod itself: no token, gone at once, a locked-down pause container that asks for next to nothing.
    assert.deepStrictEqual(pod, {
      tolerations: [{ operator: "Exists" }],
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: "pause",
          image: "registry.k8s.io/pause:3.10",
          imagePullPolicy: "IfNotPresent",
          resources: { requests: { cpu: "1m", memory: "4Mi" }, limits: { memory: "16Mi" } },
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
            runAsUser: 65535,
            capabilities: { drop: ["ALL"] },
          },
        },
      ],
    });
  });
});
