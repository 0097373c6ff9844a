import * as assert from "assert";
import {
  AGGREGATE_LUA,
  DEPENDENCIES_LUA,
  HEALTH_LUA,
  IMPERSONATOR,
  REFLECT_LUA,
  irisClusterInterpreter,
  KARMADA_CLUSTER_NAMESPACE,
  clusterAffinity,
  clusterObject,
  impersonatorSecretName,
  memberClusterRoleName,
  memberClusterRoleRules,
  memberNamespace,
  memberServiceAccountName,
  overridePolicy,
  propagationPolicy,
  tokenSecret,
  karmadaValues,
  karmadaChartDefaults,
  karmadaDefaultImages,
  chartAddsSystemNamespaceCertHosts,
  parseChartVersion,
  resourceSelectorProblems,
  KARMADA_CHART_VERSION,
  KARMADA_DEFAULT_IMAGES,
} from "../../components/karmada";

describe("karmada chart values (v1.18.2 by default, v1.16.0 as the upgrade source)", () => {
  const chartHosts = [
    "kubernetes.default.svc",
    "*.etcd.{{ .Release.Namespace }}.svc.{{ .Values.clusterDomain }}",
    "*.{{ .Release.Namespace }}.svc.{{ .Values.clusterDomain }}",
    "*.{{ .Release.Namespace }}.svc",
    "localhost",
    "127.0.0.1",
  ];
  const systemNamespaceHosts = [
    "*.{{ .Values.systemNamespace }}.svc.{{ .Values.clusterDomain }}",
    "*.{{ .Values.systemNamespace }}.svc",
  ];
  const img = (registry: string, repository: string, tag: string) => ({ image: { registry, repository, tag } });

  it("v1.18.2 (the default): pins every image the chart runs, sets the NodePort, the SANs (the chart adds karmada-system's itself) and our controller flags", () => {
    assert.strictEqual(KARMADA_CHART_VERSION, "v1.18.2");
    const expected = {
      karmadaImageVersion: "v1.18.2",
      apiServer: { serviceType: "NodePort", nodePort: 32443, ...img("registry.k8s.io", "kube-apiserver", "v1.35.2") },
      certs: { mode: "auto", auto: { hosts: [...chartHosts, "karmada.example.com"] } },
      cfssl: img("docker.io", "cfssl/cfssl", "v1.6.5"),
      kubectl: img("docker.io", "bitnamilegacy/kubectl", "1.33.4"),
      etcd: { internal: img("registry.k8s.io", "etcd", "3.6.6-0") },
      kubeControllerManager: img("registry.k8s.io", "kube-controller-manager", "v1.35.2"),
      aggregatedApiServer: img("docker.io", "karmada/karmada-aggregated-apiserver", "v1.18.2"),
      scheduler: img("docker.io", "karmada/karmada-scheduler", "v1.18.2"),
      webhook: img("docker.io", "karmada/karmada-webhook", "v1.18.2"),
      controllerManager: {
        extraCommandArgs: { controllers: "*,-unifiedAuth" },
        ...img("docker.io", "karmada/karmada-controller-manager", "v1.18.2"),
      },
    };
    assert.deepStrictEqual(
      karmadaValues({ nodePort: 32443, extraCertHosts: ["127.0.0.1", "karmada.example.com"] }),
      expected,
    );
    assert.deepStrictEqual(
      karmadaValues({ nodePort: 32443, extraCertHosts: ["127.0.0.1", "karmada.example.com"], chartVersion: "v1.18.2" }),
      expected,
    );
  });

  it("v1.16.0 (the upgrade source): its own image pins, and the karmada-system SANs it lacks", () => {
    assert.deepStrictEqual(
      karmadaValues({ nodePort: 32443, extraCertHosts: ["127.0.0.1", "karmada.example.com"], chartVersion: "v1.16.0" }),
      {
        karmadaImageVersion: "v1.16.0",
        apiServer: { serviceType: "NodePort", nodePort: 32443, ...img("registry.k8s.io", "kube-apiserver", "v1.34.1") },
        certs: { mode: "auto", auto: { hosts: [...chartHosts, ...systemNamespaceHosts, "karmada.example.com"] } },
        cfssl: img("docker.io", "cfssl/cfssl", "v1.6.5"),
        kubectl: img("docker.io", "bitnamilegacy/kubectl", "1.33.4"),
        etcd: { internal: img("registry.k8s.io", "etcd", "3.6.0-0") },
        kubeControllerManager: img("registry.k8s.io", "kube-controller-manager", "v1.34.1"),
        aggregatedApiServer: img("docker.io", "karmada/karmada-aggregated-apiserver", "v1.16.0"),
        scheduler: img("docker.io", "karmada/karmada-scheduler", "v1.16.0"),
        webhook: img("docker.io", "karmada/karmada-webhook", "v1.16.0"),
        controllerManager: {
          extraCommandArgs: { controllers: "*,-unifiedAuth" },
          ...img("docker.io", "karmada/karmada-controller-manager", "v1.16.0"),
        },
      },
    );
  });

  it("keys the SANs by the chart's fix (#7624: v1.16.7, v1.17.4, v1.18.1 on); an unreadable version gets them from us", () => {
    const adds = (v: string) => chartAddsSystemNamespaceCertHosts(v);
    assert.deepStrictEqual(
      [
        "v1.15.9",
        "v1.16.0",
        "v1.16.6",
        "v1.16.7",
        "v1.17.3",
        "v1.17.4",
        "v1.18.0",
        "v1.18.1",
        "v1.18.2",
        "v1.19.0",
        "v2.0.0",
      ].map(adds),
      [false, false, false, true, false, true, false, true, true, true, true],
    );
    assert.deepStrictEqual(["1.18.2", "latest", "v1.18", "", "v1.18.2-rc.0"].map(adds), [
      true,
      false,
      false,
      false,
      false,
    ]);
    assert.deepStrictEqual(
      (
        karmadaValues({ nodePort: 30001, extraCertHosts: [], chartVersion: "main" }).certs as {
          auto: { hosts: string[] };
        }
      ).auto.hosts,
      [...chartHosts, ...systemNamespaceHosts],
    );
    assert.deepStrictEqual(
      (
        karmadaValues({ nodePort: 30001, extraCertHosts: [], chartVersion: "v1.17.4" }).certs as {
          auto: { hosts: string[] };
        }
      ).auto.hosts,
      chartHosts,
    );
  });

  it("parses vX.Y.Z versions and takes the chart's own pins of the newest read version not newer than the one asked", () => {
    assert.deepStrictEqual(parseChartVersion("v1.18.2"), [1, 18, 2]);
    assert.deepStrictEqual(parseChartVersion("1.16.0"), [1, 16, 0]);
    assert.strictEqual(parseChartVersion("v1.18"), undefined);
    assert.strictEqual(parseChartVersion("v1.18.2-rc.0"), undefined);
    const v116 = {
      apiServer: "registry.k8s.io/kube-apiserver:v1.34.1",
      kubeControllerManager: "registry.k8s.io/kube-controller-manager:v1.34.1",
      etcd: "registry.k8s.io/etcd:3.6.0-0",
    };
    const v118 = {
      apiServer: "registry.k8s.io/kube-apiserver:v1.35.2",
      kubeControllerManager: "registry.k8s.io/kube-controller-manager:v1.35.2",
      etcd: "registry.k8s.io/etcd:3.6.6-0",
    };
    assert.deepStrictEqual(
      ["v1.16.0", "v1.18.2", "v1.17.4", "v1.18.1", "v1.19.0", "v1.15.0", "main"].map(karmadaChartDefaults),
      [v116, v118, v116, v116, v118, v116, v116],
    );
    assert.deepStrictEqual(karmadaDefaultImages("v1.17.4"), {
      ...v116,
      cfssl: "docker.io/cfssl/cfssl:v1.6.5",
      kubectl: "docker.io/bitnamilegacy/kubectl:1.33.4",
      aggregatedApiServer: "docker.io/karmada/karmada-aggregated-apiserver:v1.17.4",
      controllerManager: "docker.io/karmada/karmada-controller-manager:v1.17.4",
      scheduler: "docker.io/karmada/karmada-scheduler:v1.17.4",
      webhook: "docker.io/karmada/karmada-webhook:v1.17.4",
    });
    assert.deepStrictEqual(KARMADA_DEFAULT_IMAGES, karmadaDefaultImages("v1.18.2"));
  });

  it("takes images by key (images.kubectl over kubectlImage) and rejects one without registry", () => {
    const v = karmadaValues({
      nodePort: 30001,
      extraCertHosts: [],
      kubectlImage: "docker.io/x/kubectl:1",
      images: { kubectl: "docker.io/bitnamisecure/kubectl:1.34.12", etcd: "docker.io/iko-plus/karmada-etcd:3.6.5-0" },
    });
    assert.deepStrictEqual(
      [v.kubectl, v.etcd],
      [
        img("docker.io", "bitnamisecure/kubectl", "1.34.12"),
        { internal: img("docker.io", "iko-plus/karmada-etcd", "3.6.5-0") },
      ],
    );
    assert.deepStrictEqual(
      karmadaValues({ nodePort: 30001, extraCertHosts: [], kubectlImage: "docker.io/x/kubectl:1" }).kubectl,
      img("docker.io", "x/kubectl", "1"),
    );
    assert.throws(
      () => karmadaValues({ nodePort: 30001, extraCertHosts: [], images: { cfssl: "cfssl:1" } }),
      /image "cfssl:1" must be registry\/repository:tag/,
    );
  });
});

describe("karmada join manifests (karmadactl's names)", () => {
  it("names what karmadactl join names", () => {
    assert.strictEqual(KARMADA_CLUSTER_NAMESPACE, "karmada-cluster");
    assert.strictEqual(IMPERSONATOR, "karmada-impersonator");
    assert.strictEqual(memberServiceAccountName("ikoclone"), "karmada-ikoclone");
    assert.strictEqual(memberClusterRoleName("ikoclone"), "karmada-controller-manager:karmada-ikoclone");
    assert.strictEqual(impersonatorSecretName("ikoclone"), "ikoclone-impersonator");
  });
  it("builds the member namespace, token Secrets and the all-powerful role of a Push join", () => {
    assert.deepStrictEqual(memberNamespace(), {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "karmada-cluster", labels: { "karmada.io/system": "true" } },
    });
    assert.deepStrictEqual(tokenSecret("karmada-ikoclone"), {
      apiVersion: "v1",
      kind: "Secret",
      type: "kubernetes.io/service-account-token",
      metadata: {
        name: "karmada-ikoclone",
        namespace: "karmada-cluster",
        annotations: { "kubernetes.io/service-account.name": "karmada-ikoclone" },
      },
    });
    assert.deepStrictEqual(memberClusterRoleRules("cluster-admin"), [
      { apiGroups: ["*"], resources: ["*"], verbs: ["*"] },
      { nonResourceURLs: ["*"], verbs: ["get"] },
    ]);
    const all = ["get", "list", "watch", "create", "update", "patch", "delete"];
    assert.deepStrictEqual(
      memberClusterRoleRules(),
      [
        { apiGroups: [""], resources: ["nodes", "pods"], verbs: ["get", "list", "watch"] },
        { apiGroups: [""], resources: ["namespaces", "secrets", "configmaps"], verbs: all },
        { apiGroups: ["intersystems.com"], resources: ["irisclusters", "irisclusters/status"], verbs: all },
        {
          nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/version", "/healthz", "/readyz", "/livez"],
          verbs: ["get"],
        },
      ],
      "scoped by default: no wildcard, no RBAC, no workloads",
    );
    assert.deepStrictEqual(memberClusterRoleRules("scoped"), memberClusterRoleRules());
  });
  it("builds the Cluster object with placement fields only when given", () => {
    assert.deepStrictEqual(clusterObject({ name: "ikoclone", apiEndpoint: "https://10.0.0.3:6443", id: "uid-1" }), {
      apiVersion: "cluster.karmada.io/v1alpha1",
      kind: "Cluster",
      metadata: { name: "ikoclone" },
      spec: {
        syncMode: "Push",
        apiEndpoint: "https://10.0.0.3:6443",
        id: "uid-1",
        secretRef: { namespace: "karmada-cluster", name: "ikoclone" },
        impersonatorSecretRef: { namespace: "karmada-cluster", name: "ikoclone-impersonator" },
      },
    });
    const gke = clusterObject({
      name: "ikogke",
      apiEndpoint: "https://34.1.2.3",
      id: "u",
      provider: "gke",
      region: "us-central1",
      zones: ["us-central1-a"],
      labels: { tier: "dr" },
    });
    assert.deepStrictEqual(gke.metadata, { name: "ikogke", labels: { tier: "dr" } });
    assert.deepStrictEqual(
      [
        (gke.spec as Record<string, unknown>).provider,
        (gke.spec as Record<string, unknown>).region,
        (gke.spec as Record<string, unknown>).zones,
      ],
      ["gke", "us-central1", ["us-central1-a"]],
    );
  });
});

describe("karmada policies", () => {
  const selector = { apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster", name: "federated-iris" };
  it("reproduces the article's iriscluster-propagate policy", () => {
    assert.deepStrictEqual(
      propagationPolicy({
        name: "iriscluster-propagate",
        namespace: "default",
        resourceSelectors: [selector],
        placement: { clusterNames: ["ikoclone"] },
      }),
      {
        apiVersion: "policy.karmada.io/v1alpha1",
        kind: "PropagationPolicy",
        metadata: { name: "iriscluster-propagate", namespace: "default" },
        spec: { resourceSelectors: [selector], placement: { clusterAffinity: { clusterNames: ["ikoclone"] } } },
      },
    );
  });
  it("orders cluster affinities for failover and adds spread constraints and options", () => {
    const p = propagationPolicy({
      name: "dr",
      namespace: "iris",
      resourceSelectors: [selector],
      propagateDeps: true,
      conflictResolution: "Overwrite",
      placement: {
        affinities: [
          { name: "primary", labels: { region: "us-central1" } },
          { name: "dr", clusterNames: ["ikogke"] },
        ],
        spreadConstraints: [{ spreadByField: "cluster", maxGroups: 1, minGroups: 1 }],
      },
    });
    assert.deepStrictEqual(p.spec, {
      resourceSelectors: [selector],
      placement: {
        clusterAffinities: [
          { affinityName: "primary", labelSelector: { matchLabels: { region: "us-central1" } } },
          { affinityName: "dr", clusterNames: ["ikogke"] },
        ],
        spreadConstraints: [{ spreadByField: "cluster", maxGroups: 1, minGroups: 1 }],
      },
      propagateDeps: true,
      conflictResolution: "Overwrite",
    });
  });
  it("unit: passes matchExpressions beside matchLabels to clusterAffinity.labelSelector (values left out for Exists/DoesNotExist)", () => {
    assert.deepStrictEqual(
      clusterAffinity({
        labels: { tier: "gold" },
        matchExpressions: [
          { key: "region", operator: "In", values: ["a", "c"] },
          { key: "dr", operator: "Exists" },
          { key: "frozen", operator: "DoesNotExist", values: [] },
          { key: "zone", operator: "NotIn", values: ["b"] },
        ],
      }),
      {
        labelSelector: {
          matchLabels: { tier: "gold" },
          matchExpressions: [
            { key: "region", operator: "In", values: ["a", "c"] },
            { key: "dr", operator: "Exists" },
            { key: "frozen", operator: "DoesNotExist" },
            { key: "zone", operator: "NotIn", values: ["b"] },
          ],
        },
      },
    );
    assert.deepStrictEqual(clusterAffinity({ matchExpressions: [{ key: "region", operator: "In", values: ["a"] }] }), {
      labelSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["a"] }] },
    });
  });
  it("builds per-cluster plaintext overrides", () => {
    assert.deepStrictEqual(
      overridePolicy({
        name: "gke-storage",
        namespace: "default",
        resourceSelectors: [selector],
        target: { clusterNames: ["ikogke"] },
        plaintext: [
          { path: "/spec/storageClassName", operator: "add", value: "standard-rwo" },
          { path: "/spec/x", operator: "remove", value: "ignored" },
        ],
      }).spec,
      {
        resourceSelectors: [selector],
        overrideRules: [
          {
            targetCluster: { clusterNames: ["ikogke"] },
            overriders: {
              plaintext: [
                { path: "/spec/storageClassName", operator: "add", value: "standard-rwo" },
                { path: "/spec/x", operator: "remove" },
              ],
            },
          },
        ],
      },
    );
  });
});

describe("karmada policies and interpreter: exact objects (pure)", () => {
  const selector = { apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster", name: "iris-a" };
  it("empty lists and maps in a target or placement write no field (Karmada reads an empty list as 'none')", () => {
    assert.deepStrictEqual(clusterAffinity({ clusterNames: [], labels: {}, matchExpressions: [], regions: [] }), {});
    const p = propagationPolicy({
      name: "p",
      namespace: "iris",
      resourceSelectors: [selector],
      placement: { clusterNames: ["a"], affinities: [], spreadConstraints: [] },
    });
    assert.deepStrictEqual(p.spec, {
      resourceSelectors: [selector],
      placement: { clusterAffinity: { clusterNames: ["a"] } },
    });
  });
  it("a spread constraint without bounds has only its field; regions become a field selector", () => {
    const p = propagationPolicy({
      name: "p",
      namespace: "iris",
      resourceSelectors: [selector],
      placement: { regions: ["eu", "us"], spreadConstraints: [{ spreadByField: "region" }] },
    });
    assert.deepStrictEqual(p.spec.placement, {
      clusterAffinity: {
        fieldSelector: { matchExpressions: [{ key: "region", operator: "In", values: ["eu", "us"] }] },
      },
      spreadConstraints: [{ spreadByField: "region" }],
    });
  });
  it("cluster failover alone writes the failover block but not propagateDeps; application failover writes both", () => {
    const base = { name: "p", namespace: "iris", resourceSelectors: [selector], placement: { clusterNames: ["a"] } };
    const cluster = propagationPolicy({ ...base, failover: { cluster: { purgeMode: "Directly" } } });
    assert.strictEqual(cluster.spec.propagateDeps, undefined);
    assert.ok(cluster.spec.failover);
    const app = propagationPolicy({ ...base, failover: { application: { tolerationSeconds: 30 } } });
    assert.strictEqual(app.spec.propagateDeps, true);
  });
  it("the IrisCluster interpreter: its target and the four scripts, under its name", () => {
    assert.deepStrictEqual(irisClusterInterpreter("custom"), {
      apiVersion: "config.karmada.io/v1alpha1",
      kind: "ResourceInterpreterCustomization",
      metadata: { name: "custom" },
      spec: {
        target: { apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster" },
        customizations: {
          healthInterpretation: { luaScript: HEALTH_LUA },
          statusReflection: { luaScript: REFLECT_LUA },
          statusAggregation: { luaScript: AGGREGATE_LUA },
          dependencyInterpretation: { luaScript: DEPENDENCIES_LUA },
        },
      },
    });
    assert.strictEqual(irisClusterInterpreter().metadata.name, "iriscluster-interpreter");
    assert.match(HEALTH_LUA, /^function InterpretHealth\(observedObj\)/);
    assert.match(DEPENDENCIES_LUA, /^function GetDependencies\(desiredObj\)/);
  });
});

describe("policy resourceSelectors stay in the policy's namespace (Karmada v1.17+ denies others)", () => {
  const iris = { apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster", name: "mirror" };
  it("resourceSelectorProblems: none for a left-out or equal namespace, one message per other namespace", () => {
    assert.deepStrictEqual(resourceSelectorProblems("iris", [iris, { ...iris, namespace: "iris" }]), []);
    assert.deepStrictEqual(
      resourceSelectorProblems("iris", [
        iris,
        { apiVersion: "v1", kind: "Secret", name: "key", namespace: "default" },
        { apiVersion: "v1", kind: "ConfigMap", namespace: "" },
      ]),
      [
        'resourceSelectors[1] (Secret key) names namespace "default", not the policy\'s "iris"; a namespaced policy selects only its own namespace (leave namespace out)',
        'resourceSelectors[2] (ConfigMap *) names namespace "", not the policy\'s "iris"; a namespaced policy selects only its own namespace (leave namespace out)',
      ],
    );
  });
  it("propagationPolicy and overridePolicy throw on such a selector, naming the policy", () => {
    const other = { apiVersion: "v1", kind: "Secret", name: "key", namespace: "default" };
    assert.throws(
      () =>
        propagationPolicy({
          name: "p",
          namespace: "iris",
          resourceSelectors: [iris, other],
          placement: { clusterNames: ["a"] },
        }),
      {
        message:
          'PropagationPolicy iris/p: resourceSelectors[1] (Secret key) names namespace "default", not the policy\'s "iris"; a namespaced policy selects only its own namespace (leave namespace out)',
      },
    );
    assert.throws(
      () =>
        overridePolicy({
          name: "o",
          namespace: "iris",
          resourceSelectors: [other],
          target: { clusterNames: ["a"] },
          plaintext: [],
        }),
      /^Error: OverridePolicy iris\/o: resourceSelectors\[0\] \(Secret key\) names namespace "default"/,
    );
    assert.deepStrictEqual(
      propagationPolicy({
        name: "p",
        namespace: "iris",
        resourceSelectors: [{ ...iris, namespace: "iris" }],
        placement: { clusterNames: ["a"] },
      }).spec.resourceSelectors,
      [{ ...iris, namespace: "iris" }],
    );
  });
});
