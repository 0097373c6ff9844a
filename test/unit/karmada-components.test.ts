/**
 * Karmada components and GkeCluster under Pulumi mocks.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as YAML from "yaml";
import type { IrisCluster } from "../../components/iris";
import {
  FAKE_ACCESS_TOKEN,
  FAKE_CA,
  Registered,
  fakeKubeconfig,
  fakeToken,
  installMocks,
  one,
  resolve,
  settle,
  unwrapSecret,
} from "./mocks";

const registered: Registered[] = installMocks();
import { ExistingCluster } from "../../components/cluster";
import { GkeCluster, checkGkeClusterArgs, gkeServer } from "../../components/gcp";
import {
  FederatedIrisCluster,
  FleetSecret,
  KarmadaControlPlane,
  KarmadaMember,
  memberClusterRoleRules,
} from "../../components/karmada";
import { KindCluster } from "../../components/kind";

const since = (n: number) => registered.slice(n);
const urnOf = async (r: pulumi.Resource) => (await resolve(r.urn)).value;
const providerUrn = async (p: pulumi.ProviderResource) => `${await urnOf(p)}::${(await resolve(p.id)).value}`;
const IRIS: IrisCluster = {
  apiVersion: "intersystems.com/v1alpha1",
  kind: "IrisCluster",
  metadata: { name: "federated-iris", namespace: "default" },
  spec: {
    topology: { data: { image: "containers.intersystems.com/intersystems/iris-community:2025.1" } },
    serviceTemplate: { spec: { type: "LoadBalancer" } },
  },
};

function existingKarmada(name: string): KarmadaControlPlane {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "iko-karmada-")), "kubeconfig");
  fs.writeFileSync(file, fakeKubeconfig("karmada", "https://127.0.0.1:5443"));
  return new KarmadaControlPlane(name, { existing: { kubeconfigPath: file } });
}

describe("Karmada components under mocks", () => {
  it("KarmadaControlPlane helm at chartVersion v1.16.0 (the upgrade source): that chart, its images and the SANs it lacks; a local chart is keyed by chartVersion too", async () => {
    const n = registered.length;
    const host = new KindCluster("fett116", { extraPortMappings: [{ containerPort: 32443, hostPort: 32443 }] });
    const kp = new KarmadaControlPlane("kp116", {
      helm: { host, endpoint: "https://127.0.0.1:32443", chartVersion: "v1.16.0" },
    });
    const local = new KarmadaControlPlane("kplocal", {
      helm: { host, endpoint: "https://127.0.0.1:32443", chartPath: "/charts/karmada", chartVersion: "v1.16.0" },
    });
    await settle(kp, kp.release as pulumi.Resource, local.release as pulumi.Resource);
    for (const [name, chart, version] of [
      ["kp116-karmada", "karmada", "v1.16.0"],
      ["kplocal-karmada", "/charts/karmada", undefined],
    ] as const) {
      const rel = one(since(n), "kubernetes:helm.sh/v3:Release", name);
      const values = rel.inputs.values as {
        karmadaImageVersion: string;
        certs: { auto: { hosts: string[] } };
        webhook: { image: { tag: string } };
        etcd: { internal: { image: { tag: string } } };
      };
      assert.deepStrictEqual(
        [
          rel.inputs.chart,
          rel.inputs.version,
          values.karmadaImageVersion,
          values.webhook.image.tag,
          values.etcd.internal.image.tag,
          values.certs.auto.hosts.filter((h) => h.includes("systemNamespace")),
        ],
        [
          chart,
          version,
          "v1.16.0",
          "v1.16.0",
          "3.6.0-0",
          ["*.{{ .Values.systemNamespace }}.svc.{{ .Values.clusterDomain }}", "*.{{ .Values.systemNamespace }}.svc"],
        ],
        name,
      );
    }
  });
  it("a Pull member's agent runs the Karmada control plane's version unless pinned (a Karmada upgrade moves it); an existing Karmada's version is not known", async () => {
    const n = registered.length;
    const host = new KindCluster("fettver", { extraPortMappings: [{ containerPort: 32443, hostPort: 32443 }] });
    const member = new KindCluster("pullver", {});
    const agentImage = (name: string) =>
      (
        one(since(n), "kubernetes:apps/v1:Deployment", name).inputs.spec as {
          template: { spec: { containers: { image: string }[] } };
        }
      ).template.spec.containers[0].image;
    const declared: pulumi.Resource[] = [];
    for (const [name, chartVersion, pinned] of [
      ["kv116", "v1.16.0", undefined],
      ["kvdefault", undefined, undefined],
      ["kvpinned", "v1.16.0", "docker.io/karmada/karmada-agent:v1.18.2"],
    ] as const) {
      const kp = new KarmadaControlPlane(name, {
        helm: { host, endpoint: "https://127.0.0.1:32443", ...(chartVersion ? { chartVersion } : {}) },
      });
      const m = new KarmadaMember(`${name}-m`, {
        karmada: kp,
        member,
        syncMode: "Pull",
        ...(pinned ? { agentImage: pinned } : {}),
      });
      declared.push(kp, m);
    }
    await settle(...declared);
    assert.deepStrictEqual(
      [agentImage("kv116-m-agent"), agentImage("kvdefault-m-agent"), agentImage("kvpinned-m-agent")],
      [
        "docker.io/karmada/karmada-agent:v1.16.0",
        "docker.io/karmada/karmada-agent:v1.18.2",
        "docker.io/karmada/karmada-agent:v1.18.2",
      ],
    );
    assert.strictEqual(existingKarmada("kvexisting").version, undefined);
  });
  it("KarmadaControlPlane helm: pinned release, NodePort and SAN before install, kubeconfig read back and rewritten", async () => {
    const n = registered.length;
    const host = new KindCluster("fett", { extraPortMappings: [{ containerPort: 32443, hostPort: 32443 }] });
    const kp = new KarmadaControlPlane("kp", { helm: { host, endpoint: "https://127.0.0.1:32443" } });
    await settle(kp, kp.provider, kp.release as pulumi.Resource);
    const rel = one(since(n), "kubernetes:helm.sh/v3:Release", "kp-karmada");
    assert.deepStrictEqual(
      [rel.inputs.name, rel.inputs.namespace, rel.inputs.chart, rel.inputs.version, rel.inputs.createNamespace],
      ["karmada", "karmada-host", "karmada", "v1.18.2", true],
    );
    assert.deepStrictEqual(rel.inputs.repositoryOpts, {
      repo: "https://raw.githubusercontent.com/karmada-io/karmada/master/charts",
    });
    const values = rel.inputs.values as {
      apiServer: unknown;
      certs: { auto: { hosts: string[] } };
      kubectl: { image: unknown };
      controllerManager: unknown;
    };
    assert.deepStrictEqual(
      (values.controllerManager as { extraCommandArgs: unknown }).extraCommandArgs,
      { controllers: "*,-unifiedAuth" },
      "no unified auth: members grant scoped access",
    );
    const apiServer = values.apiServer as Record<string, unknown>;
    assert.deepStrictEqual([apiServer.serviceType, apiServer.nodePort], ["NodePort", 32443]);
    assert.ok(
      values.certs.auto.hosts.includes("127.0.0.1") && values.certs.auto.hosts.includes("kubernetes.default.svc"),
    );
    assert.deepStrictEqual(values.kubectl.image, {
      registry: "docker.io",
      repository: "bitnamilegacy/kubectl",
      tag: "1.33.4",
    });
    assert.strictEqual(rel.provider, await providerUrn(host.provider));
    const read = since(n).find((r) => r.name === "kp-generated-kubeconfig");
    assert.ok(read, "the chart's kubeconfig Secret is read back");
    assert.ok(
      read.dependencies.some((d) => d.endsWith("::kp-karmada")),
      "after the release",
    );
    const kc = await resolve(kp.kubeconfig);
    assert.ok(kc.secret);
    assert.strictEqual(YAML.parse(kc.value).clusters[0].cluster.server, "https://127.0.0.1:32443");
    const prov = one(since(n), "pulumi:providers:kubernetes", "kp-karmada-api");
    assert.ok(unwrapSecret(prov.inputs.kubeconfig).secret);
    assert.strictEqual(rel.inputs.skipAwait, true, "Helm runs the hooks but does not wait for the Deployments");
    assert.deepStrictEqual(
      kp.readyGate,
      [kp.release, kp.apiReady],
      "objects in Karmada wait for the release and for the API to be ready",
    );
    assert.deepStrictEqual(kp.apiGate, [kp.release, kp.apiServing], "CRDs wait only for the apiserver to answer");
    const byName = (name: string) => {
      const found = since(n).filter((r) => r.name === name);
      assert.strictEqual(found.length, 1, name);
      return found[0];
    };
    const serving = byName("kp-api-serving");
    const ready = byName("kp-api-ready");
    assert.deepStrictEqual(
      ready.additionalSecretOutputs,
      ["karmada", "rollout"],
      "the Karmada and host credentials are secret outputs",
    );
    // The serving wait also sees the chart's workloads rolled out on the host (its credentials
    // secret); both waits carry the release's revision, so an upgrade makes them wait again.
    const rollout = unwrapSecret(serving.inputs.rollout);
    assert.ok(rollout.secret, "the host's credentials are secret");
    assert.strictEqual((rollout.value as { namespace: string }).namespace, "karmada-host");
    assert.match(String(serving.inputs.revision), /^[0-9a-f]{16}$/);
    assert.strictEqual(ready.inputs.revision, serving.inputs.revision);
    assert.ok(
      serving.dependencies.some((d) => d.endsWith("::kp-karmada")),
      "the serving wait after the release",
    );
    assert.ok(
      ready.dependencies.some((d) => d.endsWith("::kp-api-serving")),
      "the ready wait after the serving wait",
    );
    assert.ok(
      prov.dependencies.some((d) => d.endsWith("::kp-api-serving")),
      "the provider is configured once the apiserver answers (it reads the schema when it starts)",
    );
    for (const w of [serving, ready]) assert.ok(unwrapSecret(w.inputs.karmada).secret, "the credentials are secret");
    assert.deepStrictEqual(serving.inputs.groups, ["apiextensions.k8s.io/v1"]);
    assert.deepStrictEqual([serving.inputs.leases, serving.inputs.admission], [undefined, undefined]);
    assert.strictEqual(serving.inputs.timeoutSeconds, 900, "the release's timeout");
    assert.deepStrictEqual(ready.inputs.groups, [
      "cluster.karmada.io/v1alpha1",
      "policy.karmada.io/v1alpha1",
      "work.karmada.io/v1alpha2",
      "config.karmada.io/v1alpha1",
    ]);
    assert.deepStrictEqual(ready.inputs.leases, [
      "karmada-system/karmada-controller-manager",
      "karmada-system/karmada-scheduler",
      "kube-system/kube-controller-manager",
    ]);
    assert.strictEqual(ready.inputs.admission, true);
    assert.strictEqual(ready.inputs.timeoutSeconds, 300);
  });

  it("KarmadaControlPlane existing: a provider from the given kubeconfig (a file's path, or contents as a secret), nothing installed", async () => {
    const n = registered.length;
    const kp = existingKarmada("kx");
    await settle(kp, kp.provider);
    assert.ok(!since(n).some((r) => r.type === "kubernetes:helm.sh/v3:Release"));
    assert.strictEqual((await resolve(kp.endpoint)).value, "https://127.0.0.1:5443");
    const byFile = unwrapSecret(one(since(n), "pulumi:providers:kubernetes", "kx-karmada-api").inputs.kubeconfig);
    assert.ok(!byFile.secret && /iko-karmada-.*\/kubeconfig$/.test(String(byFile.value)), `the path: ${byFile.value}`);
    // Objects in Karmada wait until its provider has started: a read of `default` through it.
    const reachable = one(since(n), "kubernetes:core/v1:Namespace", "kx-karmada-reachable");
    assert.strictEqual(reachable.provider, await providerUrn(kp.provider));
    assert.strictEqual(reachable.parent, await urnOf(kp));
    assert.strictEqual(kp.readyGate.length, 1);
    assert.ok((await urnOf(kp.readyGate[0])).endsWith("$kubernetes:core/v1:Namespace::kx-karmada-reachable"));
    assert.deepStrictEqual(kp.apiGate, kp.readyGate);
    assert.strictEqual((await resolve((kp.readyGate[0] as pulumi.CustomResource).id)).value, "default");
    const m = registered.length;
    const text = fakeKubeconfig("karmada", "https://127.0.0.1:5444");
    const byContents = new KarmadaControlPlane("ky", { existing: { kubeconfig: text } });
    await settle(byContents, byContents.provider);
    assert.deepStrictEqual(
      unwrapSecret(one(since(m), "pulumi:providers:kubernetes", "ky-karmada-api").inputs.kubeconfig),
      {
        value: text,
        secret: true,
      },
    );
    assert.throws(
      () => new KarmadaControlPlane("bad", {}),
      /KarmadaControlPlane "bad": helm: \(not set\) or existing is required \(exactly one\)/,
    );
  });

  it("KarmadaMember: karmadactl's objects on the member, token Secrets and the Cluster in Karmada", async () => {
    const n = registered.length;
    const karmada = existingKarmada("k1");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "iko-member-")), "kubeconfig");
    fs.writeFileSync(file, fakeKubeconfig("ikoclone", "https://127.0.0.1:7443"));
    const member = new ExistingCluster("ikoclone", { kubeconfigPath: file });
    const m = new KarmadaMember("ikoclone-member", {
      karmada,
      member,
      provider: "kind",
      region: "local",
      zones: ["a"],
      labels: { tier: "primary" },
    });
    await settle(m, m.cluster, karmada.provider, member.provider);
    const mine = since(n);
    const memberProv = await providerUrn(member.provider);
    const karmadaProv = await providerUrn(karmada.provider);
    const ns = one(mine, "kubernetes:core/v1:Namespace", "ikoclone-member-member-ns");
    assert.deepStrictEqual(ns.inputs.metadata, { name: "karmada-cluster", labels: { "karmada.io/system": "true" } });
    assert.deepStrictEqual(
      (one(mine, "kubernetes:core/v1:ServiceAccount", "ikoclone-member-member-sa").inputs.metadata as { name: string })
        .name,
      "karmada-ikoclone",
    );
    assert.deepStrictEqual(
      (
        one(mine, "kubernetes:core/v1:ServiceAccount", "ikoclone-member-impersonator-sa").inputs.metadata as {
          name: string;
        }
      ).name,
      "karmada-impersonator",
    );
    const role = one(mine, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole", "ikoclone-member-member-role");
    assert.strictEqual((role.inputs.metadata as { name: string }).name, "karmada-controller-manager:karmada-ikoclone");
    assert.deepStrictEqual(role.inputs.rules, memberClusterRoleRules("scoped"), "no cluster-admin unless configured");
    for (const r of [ns, role]) assert.strictEqual(r.provider, memberProv);
    const token = one(mine, "kubernetes:core/v1:Secret", "ikoclone-member-member-token");
    assert.strictEqual(token.inputs.type, "kubernetes.io/service-account-token");
    const ksecret = one(mine, "kubernetes:core/v1:Secret", "ikoclone-member-karmada-secret");
    assert.strictEqual(ksecret.provider, karmadaProv);
    assert.deepStrictEqual(ksecret.inputs.metadata, { name: "ikoclone", namespace: "karmada-cluster" });
    const data = unwrapSecret(ksecret.inputs.data);
    const fields = data.value as Record<string, unknown>;
    assert.ok(data.secret || unwrapSecret(fields.token).secret, "the token goes to Karmada as a secret");
    assert.strictEqual(unwrapSecret(fields.caBundle).value, FAKE_CA);
    // Each ServiceAccount has a token of its own (mocks): Karmada gets the right one for each role.
    const b64 = (ns: string, name: string) => Buffer.from(fakeToken(ns, name)).toString("base64");
    assert.strictEqual(
      unwrapSecret(fields.token).value,
      b64("karmada-cluster", "karmada-ikoclone"),
      "Karmada's controllers act with the member's karmada-ikoclone token",
    );
    const impersonator = one(mine, "kubernetes:core/v1:Secret", "ikoclone-member-karmada-impersonator-secret");
    assert.deepStrictEqual((impersonator.inputs.metadata as { name: string }).name, "ikoclone-impersonator");
    const impersonatorData = unwrapSecret(impersonator.inputs.data);
    assert.ok(
      impersonatorData.secret || unwrapSecret((impersonatorData.value as Record<string, unknown>).token).secret,
      "the impersonator token goes to Karmada as a secret",
    );
    assert.strictEqual(
      unwrapSecret((impersonatorData.value as Record<string, unknown>).token).value,
      b64("karmada-cluster", "karmada-impersonator"),
      "the impersonator Secret holds the impersonator's token, not the controllers'",
    );
    const cluster = one(mine, "kubernetes:cluster.karmada.io/v1alpha1:Cluster", "ikoclone-member-cluster");
    assert.strictEqual(cluster.provider, karmadaProv);
    assert.deepStrictEqual(cluster.inputs.spec, {
      syncMode: "Push",
      apiEndpoint: "https://127.0.0.1:7443",
      id: "uid-of-ikoclone-member-kube-system",
      secretRef: { namespace: "karmada-cluster", name: "ikoclone" },
      impersonatorSecretRef: { namespace: "karmada-cluster", name: "ikoclone-impersonator" },
      provider: "kind",
      region: "local",
      zones: ["a"],
    });
    assert.deepStrictEqual(cluster.inputs.metadata, { name: "ikoclone", labels: { tier: "primary" } });
    assert.ok(
      cluster.dependencies.some((d) => d.endsWith("::ikoclone-member-karmada-secret")) &&
        cluster.dependencies.some((d) => d.endsWith("::ikoclone-member-karmada-impersonator-secret")),
      "the Cluster comes after its Secrets (and is deleted before them)",
    );
    assert.ok(
      cluster.dependencies.some((d) => d.endsWith("::ikoclone-member-member-binding")),
      "and after the member's ClusterRoleBinding, so Karmada's first call is authorized",
    );
    assert.deepStrictEqual(
      token.dependencies.filter((d) => d.includes("$kubernetes:")).map((d) => d.split("::").pop()),
      ["ikoclone-member-member-sa"],
      "the token waits only for its ServiceAccount, not for the binding (one level less before the Cluster)",
    );
  });

  it("FederatedIrisCluster: the article's template and policy, overrides, a propagated license Secret, template last", async () => {
    const n = registered.length;
    const karmada = existingKarmada("k2");
    const f = new FederatedIrisCluster("default-federated-iris", {
      karmada,
      irisCluster: IRIS,
      policyName: "iriscluster-propagate",
      placement: { clusterNames: ["ikoclone"] },
      overrides: [
        {
          target: { clusterNames: ["ikogke"] },
          plaintext: [{ path: "/spec/storageClassName", operator: "add", value: "standard-rwo" }],
        },
      ],
      licenseKey: pulumi.secret("LICENSE-KEY-TEXT"),
      configMaps: ["iris-cpf"],
    });
    await settle(f, f.template, f.policy);
    const mine = since(n);
    const policy = one(
      mine,
      "kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy",
      "default-federated-iris-policy",
    );
    assert.deepStrictEqual(policy.inputs.metadata, { name: "iriscluster-propagate", namespace: "default" });
    assert.deepStrictEqual(policy.inputs.spec, {
      resourceSelectors: [
        { apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster", name: "federated-iris" },
        { apiVersion: "v1", kind: "Secret", name: "federated-iris-license" },
        { apiVersion: "v1", kind: "ConfigMap", name: "iris-cpf" },
      ],
      placement: { clusterAffinity: { clusterNames: ["ikoclone"] } },
    });
    const template = one(mine, "kubernetes:intersystems.com/v1alpha1:IrisCluster", "default-federated-iris-template");
    assert.deepStrictEqual(template.inputs.metadata, {
      name: "federated-iris",
      namespace: "default",
      annotations: { "pulumi.com/skipAwait": "true" },
    });
    assert.deepStrictEqual(template.inputs.spec, {
      ...IRIS.spec,
      licenseKeySecret: { name: "federated-iris-license" },
    });
    for (const dep of [
      "default-federated-iris-policy",
      "default-federated-iris-override-0",
      "default-federated-iris-license",
    ]) {
      assert.ok(
        template.dependencies.some((d) => d.endsWith(`::${dep}`)),
        `the template waits for ${dep}`,
      );
    }
    const license = one(mine, "kubernetes:core/v1:Secret", "default-federated-iris-license");
    const sd = unwrapSecret(license.inputs.stringData);
    assert.ok(
      sd.secret || unwrapSecret((sd.value as Record<string, unknown>)["iris.key"]).secret,
      "the license key is secret",
    );
    const override = one(
      mine,
      "kubernetes:policy.karmada.io/v1alpha1:OverridePolicy",
      "default-federated-iris-override-0",
    );
    assert.deepStrictEqual((override.inputs.spec as { overrideRules: unknown }).overrideRules, [
      {
        targetCluster: { clusterNames: ["ikogke"] },
        overriders: { plaintext: [{ path: "/spec/storageClassName", operator: "add", value: "standard-rwo" }] },
      },
    ]);
    for (const r of [policy, template, license, override])
      assert.strictEqual(r.provider, await providerUrn(karmada.provider));
  });

  it("FleetSecret: a secret Secret in Karmada and its policy, the Secret after the policy", async () => {
    const n = registered.length;
    const karmada = existingKarmada("k3");
    const fs1 = new FleetSecret("default-shhhh", {
      karmada,
      name: "shhhh-secret",
      data: pulumi.secret({ password: "hunter2" }),
      placement: { clusterNames: ["ikoclone"] },
    });
    await settle(fs1, fs1.secret, fs1.policy);
    const secret = one(since(n), "kubernetes:core/v1:Secret", "default-shhhh-secret");
    assert.ok(unwrapSecret(secret.inputs.stringData).secret);
    assert.ok(secret.dependencies.some((d) => d.endsWith("::default-shhhh-policy")));
    const policy = one(since(n), "kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy", "default-shhhh-policy");
    assert.deepStrictEqual(policy.inputs.spec, {
      resourceSelectors: [{ apiVersion: "v1", kind: "Secret", name: "shhhh-secret" }],
      placement: { clusterAffinity: { clusterNames: ["ikoclone"] } },
    });
  });
});

describe("GkeCluster (pure)", () => {
  it("gkeServer adds https:// to GKE's bare endpoint and keeps a URL as it is", () => {
    assert.strictEqual(gkeServer("34.1.2.3"), "https://34.1.2.3");
    assert.strictEqual(gkeServer("https://34.1.2.3"), "https://34.1.2.3");
  });

  it("checkGkeClusterArgs: location required and a region or zone, a GKE name, a machine type; each message exact", () => {
    const required = "is required for a GKE cluster; use a region (us-central1) or a zone (us-central1-a)";
    assert.deepStrictEqual(checkGkeClusterArgs({}), [["location", undefined, required]]);
    assert.deepStrictEqual(checkGkeClusterArgs({ location: "" }), [["location", "", required]]);
    assert.deepStrictEqual(checkGkeClusterArgs({ location: "europe-west1-b", clusterName: "a" }), []);
    const name =
      "is not a GKE cluster name; use at most 40 lowercase letters, digits and '-', starting with a letter and not ending with '-'";
    for (const good of ["a", "iko-gke-1", `a${"b".repeat(38)}c`])
      assert.deepStrictEqual(checkGkeClusterArgs({ location: "us-central1", clusterName: good }), [], good);
    for (const bad of ["1gke", "gke-", "Gke", `a${"b".repeat(39)}c`, "x gke", "gke x", ""])
      assert.deepStrictEqual(
        checkGkeClusterArgs({ location: "us-central1", clusterName: bad }),
        [["clusterName", bad, name]],
        bad,
      );
    for (const good of ["e2-standard-4", "n2d-highmem-16", "c3-standard-4-lssd"])
      assert.deepStrictEqual(checkGkeClusterArgs({ location: "us-central1", machineType: good }), [], good);
    for (const bad of ["e2standard4", "E2-standard-4", "e2-standard-4_", "-e2-standard", "e2-standard-"])
      assert.deepStrictEqual(
        checkGkeClusterArgs({ location: "us-central1", machineType: bad }),
        [["machineType", bad, "is not a machine type; use one like e2-standard-4"]],
        bad,
      );
    assert.throws(
      () => new GkeCluster("Bad_Name", { location: "us-central1" }),
      /GkeCluster "Bad_Name": clusterName: "Bad_Name" is not a GKE cluster name/,
    );
  });
});

describe("GkeCluster's SDK load (real node)", () => {
  it("a program without a GKE cluster never loads @pulumi/gcp; gcpSdk() loads it when one is declared", function () {
    this.timeout(120000);
    const script = [
      'const gcpLoaded = () => Object.keys(require.cache).some((f) => f.includes("/node_modules/@pulumi/gcp/"));',
      'require("./stacks/program");',
      "const before = gcpLoaded();",
      'const sdk = require("./components/gcp").gcpSdk();',
      "process.stdout.write(JSON.stringify({ before, after: gcpLoaded(), provider: typeof sdk.Provider }));",
    ].join("\n");
    const res = child.spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
      cwd: path.resolve(__dirname, "..", ".."),
      encoding: "utf8",
    });
    assert.strictEqual(res.status, 0, res.stderr);
    assert.deepStrictEqual(JSON.parse(res.stdout), { before: false, after: true, provider: "function" });
  });
});

describe("GkeCluster under mocks", () => {
  it("the cluster, node pool and GCP provider exactly, with defaults and with every option set", async () => {
    const n = registered.length;
    const gke = new GkeCluster("exactgke", { location: "us-central1", project: "proj-1" });
    await settle(gke, gke.cluster, gke.nodePool, gke.provider);
    const mine = since(n);
    assert.deepStrictEqual(one(mine, "pulumi:providers:gcp", "exactgke-gcp").inputs.project, "proj-1");
    assert.strictEqual(one(mine, "pulumi:providers:gcp", "exactgke-gcp").parent, await urnOf(gke));
    const cluster = one(mine, "gcp:container/cluster:Cluster", "exactgke-gke");
    assert.deepStrictEqual(cluster.inputs, {
      name: "exactgke",
      project: "proj-1",
      location: "us-central1",
      initialNodeCount: 1,
      removeDefaultNodePool: true,
      datapathProvider: "ADVANCED_DATAPATH",
      networkingMode: "VPC_NATIVE",
      ipAllocationPolicy: {},
      releaseChannel: { channel: "REGULAR" },
      deletionProtection: true,
    });
    const pool = one(mine, "gcp:container/nodePool:NodePool", "exactgke-nodes");
    assert.deepStrictEqual(pool.inputs, {
      cluster: "exactgke",
      location: "us-central1",
      project: "proj-1",
      nodeCount: 1,
      nodeConfig: { machineType: "e2-standard-4", oauthScopes: ["https://www.googleapis.com/auth/cloud-platform"] },
    });
    assert.strictEqual(pool.provider, cluster.provider, "the node pool on the same GCP provider");
    assert.strictEqual(pool.parent, await urnOf(gke));
    assert.deepStrictEqual(await resolve(gke.caData), { value: FAKE_CA, secret: false });
    assert.strictEqual(
      YAML.parse((await resolve(gke.kubeconfig)).value).clusters[0].cluster["certificate-authority-data"],
      FAKE_CA,
    );

    const m = registered.length;
    const custom = new GkeCluster("customgke", {
      location: "europe-west1-b",
      clusterName: "iris-eu",
      releaseChannel: "RAPID",
      nodeCount: 3,
      machineType: "n2-standard-8",
    });
    await settle(custom, custom.cluster, custom.nodePool);
    const customCluster = one(since(m), "gcp:container/cluster:Cluster", "customgke-gke");
    assert.deepStrictEqual(
      [customCluster.inputs.name, customCluster.inputs.releaseChannel, custom.name],
      ["iris-eu", { channel: "RAPID" }, "iris-eu"],
    );
    const customPool = one(since(m), "gcp:container/nodePool:NodePool", "customgke-nodes");
    assert.deepStrictEqual(
      [customPool.inputs.nodeCount, customPool.inputs.nodeConfig],
      [3, { machineType: "n2-standard-8", oauthScopes: ["https://www.googleapis.com/auth/cloud-platform"] }],
    );
  });

  it("peerAccess cluster-admin: the peers' ServiceAccount, binding and token exactly, on the cluster after its nodes", async () => {
    const n = registered.length;
    const gke = new GkeCluster("peergke", { location: "us-central1", project: "proj-1", peerAccess: "cluster-admin" });
    await settle(gke, gke.cluster, gke.nodePool, gke.provider);
    const mine = since(n);
    const prov = await providerUrn(gke.provider);
    const sa = one(mine, "kubernetes:core/v1:ServiceAccount", "peergke-peer-sa");
    const binding = one(mine, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding", "peergke-peer-binding");
    const token = one(mine, "kubernetes:core/v1:Secret", "peergke-peer-token");
    assert.deepStrictEqual(sa.inputs.metadata, { name: "iko-plus-peer", namespace: "kube-system" });
    assert.deepStrictEqual(
      [binding.inputs.metadata, binding.inputs.subjects],
      [{ name: "iko-plus-peer" }, [{ kind: "ServiceAccount", name: "iko-plus-peer", namespace: "kube-system" }]],
    );
    assert.deepStrictEqual(
      [token.inputs.metadata, token.inputs.type],
      [
        {
          name: "iko-plus-peer-token",
          namespace: "kube-system",
          annotations: { "kubernetes.io/service-account.name": "iko-plus-peer" },
        },
        "kubernetes.io/service-account-token",
      ],
    );
    const after = (r: Registered, name: string) => r.dependencies.some((d) => d.endsWith(`::${name}`));
    for (const r of [sa, binding, token]) {
      assert.strictEqual(r.provider, prov, `${r.name} on the cluster's own provider`);
      assert.ok(after(r, "peergke-nodes"), `${r.name} after the node pool`);
    }
    assert.ok(after(token, "peergke-peer-sa") && after(token, "peergke-peer-binding"), "the token after both");
    const peer = YAML.parse((await resolve(gke.peerKubeconfig)).value);
    assert.deepStrictEqual(peer.clusters[0].cluster, {
      server: "https://34.1.2.3",
      "certificate-authority-data": FAKE_CA,
    });
  });

  it("a regional Dataplane V2 cluster and node pool, token kubeconfigs (no gcloud plugin), deletion protection on by default", async () => {
    const n = registered.length;
    const gke = new GkeCluster("ikogke", { location: "us-central1", project: "proj-1" });
    await settle(gke, gke.cluster, gke.nodePool, gke.provider);
    const mine = since(n);
    const cluster = one(mine, "gcp:container/cluster:Cluster", "ikogke-gke");
    assert.deepStrictEqual(
      [
        cluster.inputs.name,
        cluster.inputs.location,
        cluster.inputs.datapathProvider,
        cluster.inputs.deletionProtection,
        cluster.inputs.removeDefaultNodePool,
      ],
      ["ikogke", "us-central1", "ADVANCED_DATAPATH", true, true],
    );
    const gcpProv = one(mine, "pulumi:providers:gcp", "ikogke-gcp");
    assert.ok(
      cluster.provider.startsWith(gcpProv.urn.replace("urn:pulumi:test::iko-plus::", "")) ||
        cluster.provider.includes("pulumi:providers:gcp::ikogke-gcp"),
      "an explicit GCP provider",
    );
    const pool = one(mine, "gcp:container/nodePool:NodePool", "ikogke-nodes");
    assert.strictEqual(pool.inputs.nodeCount, 1);
    const host = await resolve(gke.kubeconfig);
    assert.ok(host.secret);
    const hostDoc = YAML.parse(host.value);
    assert.strictEqual(hostDoc.users[0].user.token, FAKE_ACCESS_TOKEN);
    assert.strictEqual(hostDoc.users[0].user.exec, undefined, "no exec plugin");
    assert.strictEqual(hostDoc.clusters[0].cluster.server, "https://34.1.2.3");
    // No cluster-admin identity unless asked for: the peer kubeconfig is the host one.
    assert.strictEqual(
      mine.filter((r) => r.type.startsWith("kubernetes:")).length,
      0,
      "no ServiceAccount, binding or token by default",
    );
    const hostPeer = await resolve(gke.peerKubeconfig);
    assert.ok(hostPeer.secret);
    assert.strictEqual(hostPeer.value, host.value);

    const admin = new GkeCluster("admingke", {
      location: "us-central1",
      project: "proj-1",
      peerAccess: "cluster-admin",
    });
    await settle(admin, admin.cluster, admin.nodePool, admin.provider);
    const adminRes = since(n);
    const peer = await resolve(admin.peerKubeconfig);
    assert.ok(peer.secret);
    assert.ok(!peer.value.includes("gke-gcloud-auth-plugin") && !peer.value.includes("exec"));
    assert.strictEqual(
      YAML.parse(peer.value).users[0].user.token,
      fakeToken("kube-system", "iko-plus-peer-token"),
      "the peers' ServiceAccount token",
    );
    assert.deepStrictEqual(
      one(adminRes, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding", "admingke-peer-binding").inputs
        .roleRef,
      { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
      "cluster-admin only when configured",
    );
    const token = one(adminRes, "kubernetes:core/v1:Secret", "admingke-peer-token");
    assert.ok(token.dependencies.some((d) => d.endsWith("::admingke-nodes")));
    assert.strictEqual(token.provider, await providerUrn(admin.provider));
    const off = new GkeCluster("dev-gke", { location: "us-central1-a", deletionProtection: false });
    await settle(off, off.cluster);
    assert.strictEqual(one(since(n), "gcp:container/cluster:Cluster", "dev-gke-gke").inputs.deletionProtection, false);
  });
});

describe("fleet stack under mocks", () => {
  it("wires the article's fleet: Karmada on ikofett, ikoclone joined after its IKO and CRD, federated objects after the joins", async () => {
    const { validateConfig, fleetStack } = await import("../../stacks");
    const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
    const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
    const cfg = validateConfig(
      {
        program: "fleet",
        clusters: [
          { name: "ikofett", cilium: { clusterId: 1 }, extraPortMappings: [{ containerPort: 32443, hostPort: 32443 }] },
          { name: "ikoclone", cilium: { clusterId: 2 }, join: { provider: "kind" } },
        ],
        karmada: { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443" },
        iko: { chartPath: CHART, crdManifestPath: CRD },
        federatedIrisClusters: [
          {
            name: "federated-iris",
            image: "containers.intersystems.com/intersystems/iris-community:2025.1",
            serviceType: "LoadBalancer",
            policyName: "iriscluster-propagate",
            placement: { clusterNames: ["ikoclone"] },
          },
        ],
      },
      [],
    );
    if (cfg.program !== "fleet") throw new Error("fleet");
    const n = registered.length;
    const out = fleetStack(cfg, { secrets: {}, secretObjects: {} });
    assert.ok((await resolve(out.karmadaKubeconfig)).secret && (await resolve(out.clusterKubeconfigs)).secret);
    await new Promise((r) => setTimeout(r, 500));
    const mine = since(n);
    const fett = YAML.parse(
      one(mine, "pulumi-nodejs:dynamic/kind:Cluster", "ikofett-kind").inputs.configYaml as string,
    );
    assert.deepStrictEqual(fett.nodes[0].extraPortMappings, [
      { containerPort: 32443, hostPort: 32443, listenAddress: "127.0.0.1", protocol: "TCP" },
    ]);
    const karmadaRelease = one(mine, "kubernetes:helm.sh/v3:Release", "karmada-karmada");
    assert.ok(karmadaRelease.provider.includes("::ikofett-k8s::"));
    assert.ok(
      karmadaRelease.dependencies.some((d) => d.endsWith("::ikofett-cni-cilium")),
      "Karmada waits for the host's CNI",
    );
    assert.deepStrictEqual(
      mine
        .filter((r) => r.type === "kubernetes:helm.sh/v3:Release" && r.name.endsWith("-iko-iko"))
        .map((r) => r.name)
        .sort(),
      ["ikoclone-iko-iko", "ikofett-iko-iko"],
    );
    const karmadaCrd = one(
      mine,
      "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition",
      "karmada-iriscluster-crd-crd",
    );
    assert.ok(karmadaCrd.provider.includes("::karmada-karmada-api::"), "the CRD in the Karmada API");
    assert.deepStrictEqual(
      karmadaCrd.dependencies
        .filter((d) => /::karmada-(karmada|api-serving|api-ready)$/.test(d))
        .map((d) => d.split("::").pop()),
      ["karmada-karmada", "karmada-api-serving"],
      "as soon as the apiserver answers, not after the whole API is ready (the controller-manager's first discovery sees it)",
    );
    assert.ok(
      one(
        mine,
        "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition",
        "ikoclone-iriscluster-crd-crd",
      ).provider.includes("::ikoclone-k8s::"),
      "and on the member",
    );
    assert.strictEqual(
      mine.filter((r) => r.type === "kubernetes:config.karmada.io/v1alpha1:ResourceInterpreterCustomization").length,
      1,
    );
    const joinCluster = one(mine, "kubernetes:cluster.karmada.io/v1alpha1:Cluster", "ikoclone-member-cluster");
    for (const dep of ["ikoclone-iko-iko", "ikoclone-iriscluster-crd-crd"])
      assert.ok(
        joinCluster.dependencies.some((d) => d.endsWith(`::${dep}`)),
        `the join waits for ${dep}: ${joinCluster.dependencies.join(" ")}`,
      );
    const template = one(mine, "kubernetes:intersystems.com/v1alpha1:IrisCluster", "default-federated-iris-template");
    for (const dep of ["ikoclone-member-cluster", "karmada-iriscluster-crd-crd", "karmada-iriscluster-interpreter"]) {
      assert.ok(
        template.dependencies.some((d) => d.endsWith(`::${dep}`)),
        `the template waits for ${dep} (and goes first on destroy)`,
      );
    }
    assert.deepStrictEqual(out.joinedMembers, ["ikoclone"]);
    assert.deepStrictEqual(out.federatedIrisClusters, [
      { name: "federated-iris", namespace: "default", policy: "iriscluster-propagate" },
    ]);
    // Every object the stack writes to a cluster or to Karmada depends on the kind cluster it is on
    // (Karmada's: its host), and a join's objects in Karmada on the member too, with no value
    // changed: a new cluster then replaces them (Pulumi's delete-before-replace finds them as its
    // dependents). Reads (.get) write nothing.
    const kindUrn = (c: string) =>
      `urn:pulumi:test::iko-plus::iko-plus:kind:KindCluster$pulumi-nodejs:dynamic/kind:Cluster::${c}-kind`;
    const written = mine.filter(
      (r) => r.type.startsWith("kubernetes:") && (r.type.endsWith(":Release") || r.inputs.metadata !== undefined),
    );
    assert.ok(written.length > 20, `${written.length} objects written`);
    const on = (r: Registered) =>
      r.provider.includes("::ikoclone-k8s::")
        ? "ikoclone"
        : r.provider.includes("::ikofett-k8s::") || r.provider.includes("-karmada-api::")
          ? "ikofett"
          : `? ${r.provider}`;
    for (const r of written)
      assert.ok(
        r.dependencies.includes(kindUrn(on(r))),
        `${r.type} ${r.name} depends on ${on(r)}: ${r.dependencies.join(" ")}`,
      );
    for (const name of ["ikoclone-member-cluster"])
      assert.ok(
        one(mine, "kubernetes:cluster.karmada.io/v1alpha1:Cluster", name).dependencies.includes(kindUrn("ikoclone")),
        "the join's Cluster in Karmada goes with the member",
      );
  });
});
