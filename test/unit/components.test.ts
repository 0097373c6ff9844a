/**
 * Components under Pulumi mocks: declared resources, providers, parents, dependencies and
 * secret-ness. (Helm releases are custom resources here; what they render is tested in the lab.)
 */
import * as assert from "assert";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as YAML from "yaml";
import {
  FAKE_CA,
  legacyKindClusters,
  Registered,
  fakeToken,
  installMocks,
  one,
  resolve,
  settle,
  unwrapSecret,
  fakeKubeconfig,
} from "./mocks";

const registered: Registered[] = installMocks();
// Components are imported after the mocks are installed.
import { CiliumCni, cniProbeDaemonSet } from "../../components/cilium";
import { ExistingCluster, readKubeconfigFile } from "../../components/cluster";
import { IkoHomeOperator, CrdMirror } from "../../components/iko";
import { KindCluster } from "../../components/kind";
import { validateWfhConfig, wfhStack } from "../../stacks";
import { declareCluster } from "../../stacks/clusters";
import { DEFAULT_READY_TIMEOUT_SECONDS, mirrorNodeFiles } from "../../components/kind";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const since = (n: number) => registered.slice(n);
const urnOf = async (r: pulumi.Resource) => (await resolve(r.urn)).value;
const providerUrn = async (p: pulumi.ProviderResource) => `${await urnOf(p)}::${(await resolve(p.id)).value}`;

describe("components under mocks", () => {
  it("registryMirror: every kind cluster of a stack gets the mirror's host files and containerd patch", async () => {
    const n = registered.length;
    const cfg = validateWfhConfig({
      program: "wfh",
      iko: { chartPath: CHART, crdManifestPath: CRD },
      registryMirror: { endpoint: "http://iko-plus-registry:5000" },
    });
    const home = declareCluster(
      { ...cfg.home, cilium: { ...cfg.home.cilium, enabled: false } },
      { secrets: {}, registryMirror: cfg.registryMirror },
    ) as KindCluster;
    await settle(home, home.provider);
    const dyn = one(since(n), "pulumi-nodejs:dynamic/kind:Cluster", "ikohome-kind");
    assert.deepStrictEqual(dyn.inputs.nodeFiles, mirrorNodeFiles({ endpoint: "http://iko-plus-registry:5000" }));
    assert.match(dyn.inputs.configYaml as string, /config_path = "\/etc\/containerd\/certs\.d"/);
    const plain = new KindCluster("nomirror", {});
    await settle(plain, plain.provider);
    assert.deepStrictEqual(one(since(n), "pulumi-nodejs:dynamic/kind:Cluster", "nomirror-kind").inputs.nodeFiles, []);
  });

  it("stack config <cluster>.cilium.version pins the Cilium chart the cluster gets", async () => {
    const n = registered.length;
    const cfg = validateWfhConfig({
      program: "wfh",
      home: { name: "ikoolder", cilium: { version: "1.18.0" } },
      iko: { chartPath: CHART, crdManifestPath: CRD },
    });
    const home = declareCluster(cfg.home, { secrets: {} });
    await settle(home.provider, ...home.readyGate);
    const rel = one(since(n), "kubernetes:helm.sh/v3:Release", "ikoolder-cni-cilium");
    assert.deepStrictEqual([rel.inputs.chart, rel.inputs.version], ["cilium", "1.18.0"]);
  });

  it("KindCluster checks its own args: one error naming every problem, nothing declared", () => {
    const n = registered.length;
    assert.throws(
      () => new KindCluster("badmirror", { registryMirror: { endpoint: "registry:5000" }, readyTimeoutSeconds: 1 }),
      /^Error: KindCluster "badmirror": registryMirror\.endpoint: "registry:5000" is not an http:\/\/ or https:\/\/ address.*; readyTimeoutSeconds: 1 must be a whole number from 10 to 3600 \(seconds\)$/,
    );
    assert.strictEqual(since(n).length, 0);
  });

  it("KindCluster: dynamic resource with the kind config, secret kubeconfigs, endpoints and a provider", async () => {
    const n = registered.length;
    const kind = new KindCluster("ikowork", { workers: 1 });
    await settle(kind, kind.provider);
    const mine = since(n);
    const dyn = mine.find((r) => r.type.startsWith("pulumi-nodejs:dynamic"));
    assert.ok(dyn, "a dynamic kind resource");
    assert.strictEqual(dyn.type, "pulumi-nodejs:dynamic/kind:Cluster");
    assert.strictEqual(dyn.name, "ikowork-kind");
    assert.deepStrictEqual(dyn.additionalSecretOutputs, ["kubeconfig", "peerKubeconfig"], "both kubeconfigs secret");
    assert.strictEqual(dyn.inputs.name, "ikowork");
    assert.strictEqual(dyn.inputs.configYaml, kind.configYaml);
    assert.strictEqual(dyn.parent, await urnOf(kind));
    // Unset commands and timeout become the documented defaults, so the provider never sees an empty command.
    assert.strictEqual(dyn.inputs.kindCommand, "kind");
    assert.strictEqual(dyn.inputs.dockerCommand, "docker");
    assert.strictEqual(dyn.inputs.readyTimeoutSeconds, DEFAULT_READY_TIMEOUT_SECONDS);
    assert.deepStrictEqual(await resolve(kind.caData), { value: FAKE_CA, secret: false });
    const kc = await resolve(kind.kubeconfig);
    assert.ok(kc.secret, "kubeconfig is secret");
    assert.ok((await resolve(kind.peerKubeconfig)).secret, "peerKubeconfig is secret");
    assert.deepStrictEqual(await resolve(kind.endpoint), { value: "https://127.0.0.1:41234", secret: false });
    assert.strictEqual((await resolve(kind.peerEndpoint)).value, "https://ikowork-control-plane:6443");
    const prov = one(mine, "pulumi:providers:kubernetes", "ikowork-k8s");
    assert.strictEqual(prov.parent, await urnOf(kind));
    // The identity the kind provider recorded: the cluster's name and its CA's fingerprint.
    assert.strictEqual(prov.inputs.clusterIdentifier, "kind:ikowork@ca-sha256:1375aebc80b48e1e");
    assert.deepStrictEqual(await resolve(kind.identity), {
      value: "kind:ikowork@ca-sha256:1375aebc80b48e1e",
      secret: false,
    });
    assert.strictEqual(kind.description, 'kind cluster "ikowork"');
    assert.ok(unwrapSecret(prov.inputs.kubeconfig).secret, "the provider gets the kubeconfig as a secret");
  });

  it("KindCluster: state written before identities existed keeps the name as the provider's identity (upgrading replaces nothing); a role names it in messages", async () => {
    const n = registered.length;
    legacyKindClusters.add("ikolegacy");
    try {
      const kind = new KindCluster("ikolegacy", { role: "work" });
      await settle(kind, kind.provider);
      const prov = one(since(n), "pulumi:providers:kubernetes", "ikolegacy-k8s");
      assert.strictEqual(prov.inputs.clusterIdentifier, "ikolegacy");
      assert.strictEqual(kind.description, 'work (kind cluster "ikolegacy")');
    } finally {
      legacyKindClusters.delete("ikolegacy");
    }
  });

  it("KindCluster: given commands, a timeout and a cluster name, the dynamic resource gets exactly those", async () => {
    const n = registered.length;
    const kind = new KindCluster("given", {
      clusterName: "given-name",
      kindCommand: "/opt/kind/bin/kind",
      dockerCommand: "/usr/bin/podman",
      readyTimeoutSeconds: 42,
    });
    await settle(kind, kind.provider);
    const dyn = one(since(n), "pulumi-nodejs:dynamic/kind:Cluster", "given-kind");
    assert.strictEqual(dyn.inputs.name, "given-name");
    assert.strictEqual(dyn.inputs.kindCommand, "/opt/kind/bin/kind");
    assert.strictEqual(dyn.inputs.dockerCommand, "/usr/bin/podman");
    assert.strictEqual(dyn.inputs.readyTimeoutSeconds, 42);
    assert.strictEqual((await resolve(kind.peerEndpoint)).value, "https://given-name-control-plane:6443");
  });

  it("ExistingCluster: from a file (its provider gets the path) or contents (as a secret), with the same handle shape; a missing file is one clear error", async () => {
    const n = registered.length;
    const fs = await import("fs");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "iko-existing-")), "kc");
    fs.writeFileSync(file, fakeKubeconfig("lab-ikowork", "https://127.0.0.1:7443"));
    const c = new ExistingCluster("ikowork", { kubeconfigPath: file });
    await settle(c, c.provider);
    assert.ok((await resolve(c.kubeconfig)).secret);
    assert.strictEqual((await resolve(c.peerEndpoint)).value, "https://127.0.0.1:7443");
    assert.strictEqual((await resolve(c.caData)).value, Buffer.from("FAKE-CA-PEM").toString("base64"));
    const provider = one(since(n), "pulumi:providers:kubernetes", "ikowork-k8s");
    assert.strictEqual(provider.parent, await urnOf(c));
    // The provider gets the file's path, so state records where the credentials are, not a copy.
    assert.deepStrictEqual(unwrapSecret(provider.inputs.kubeconfig), { value: file, secret: false });
    // Identified by its CA, not its name: a kubeconfig pointing at another cluster replaces what is on it.
    assert.strictEqual(provider.inputs.clusterIdentifier, "ikowork@ca-sha256:1375aebc80b48e1e");
    assert.strictEqual(c.description, 'cluster "ikowork" (kubeconfig)');
    // Given contents, it gets them, as a secret.
    const m = registered.length;
    const text = fakeKubeconfig("lab-ikoother", "https://127.0.0.1:7444");
    const byContents = new ExistingCluster("ikoother", { kubeconfig: text });
    await settle(byContents, byContents.provider);
    assert.deepStrictEqual(
      unwrapSecret(one(since(m), "pulumi:providers:kubernetes", "ikoother-k8s").inputs.kubeconfig),
      {
        value: text,
        secret: true,
      },
    );
    assert.throws(() => new ExistingCluster("ghost", { kubeconfigPath: "/no/such/file" }), {
      message:
        'ExistingCluster "ghost": kubeconfigPath: "/no/such/file" cannot be read (ENOENT); point it at an existing kubeconfig file',
    });
  });

  it("ExistingCluster: endpoint, CA and peer endpoint from their own kubeconfigs; an unusable one fails naming the cluster", async () => {
    const noCa = YAML.parse(fakeKubeconfig("lab-a", "https://127.0.0.1:7450"));
    delete noCa.clusters[0].cluster["certificate-authority-data"];
    const c = new ExistingCluster("peered", {
      kubeconfig: YAML.stringify(noCa),
      peerKubeconfig: fakeKubeconfig("lab-a", "https://peered-control-plane:6443"),
    });
    await settle(c, c.provider);
    assert.deepStrictEqual(await resolve(c.endpoint), { value: "https://127.0.0.1:7450", secret: false });
    assert.deepStrictEqual(await resolve(c.peerEndpoint), {
      value: "https://peered-control-plane:6443",
      secret: false,
    });
    assert.deepStrictEqual(await resolve(c.caData), { value: "", secret: false }, "no embedded CA: empty");
    assert.deepStrictEqual(
      await resolve(c.peerKubeconfig),
      { value: fakeKubeconfig("lab-a", "https://peered-control-plane:6443"), secret: true },
      "the peer kubeconfig given, as a secret",
    );
    const broken = new ExistingCluster("broken", { kubeconfig: "- not\n- a mapping\n" });
    // (Pulumi may report it first through the provider's inputs, which carry the same error.)
    await assert.rejects(
      resolve(broken.endpoint),
      /^KubeconfigError: (error serializing property "\w+": )?cluster "broken" kubeconfig is not a kubeconfig \(expected a YAML mapping/,
    );
    await assert.rejects(
      resolve(broken.identity),
      /^KubeconfigError: (error serializing property "\w+": )?cluster "broken" kubeconfig is not a kubeconfig \(expected a YAML mapping/,
    );
    const badPeer = new ExistingCluster("bad-peer", {
      kubeconfig: fakeKubeconfig("lab-b", "https://127.0.0.1:7451"),
      peerKubeconfig: "a: [\n",
    });
    await assert.rejects(
      resolve(badPeer.peerEndpoint),
      /^KubeconfigError: cluster "bad-peer" peerKubeconfig is not valid YAML/,
    );
    // Let the broken clusters' providers fail to register now, not while a later test waits.
    await new Promise((r) => setTimeout(r, 200));
  });

  it("readKubeconfigFile: one message naming the key, the path and the fix, for a missing file and an unusable one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-read-kubeconfig-"));
    try {
      assert.throws(() => readKubeconfigFile(path.join(dir, "none"), "home.kubeconfigPath"), {
        name: "KubeconfigError",
        message: `home.kubeconfigPath: cannot read kubeconfig file "${path.join(dir, "none")}" (ENOENT); point it at an existing, readable kubeconfig file`,
      });
      const unusable = path.join(dir, "kc");
      fs.writeFileSync(unusable, "kind: Config\n");
      assert.throws(() => readKubeconfigFile(unusable, "home.kubeconfigPath"), {
        message: `home.kubeconfigPath ("${unusable}") has no current-context; set one with \`kubectl config use-context <name> --kubeconfig <file>\``,
      });
      const good = fakeKubeconfig("lab-c", "https://127.0.0.1:7452");
      fs.writeFileSync(unusable, good);
      assert.strictEqual(readKubeconfigFile(unusable, "k"), good);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("CiliumCni: a pinned release into kube-system on the cluster's provider, and a gated handle", async () => {
    const n = registered.length;
    const kind = new KindCluster("ikohome", {});
    const cni = new CiliumCni("ikohome-cni", { cluster: kind, clusterId: 1 });
    await settle(kind, cni, cni.release, cni.probe);
    const rel = one(since(n), "kubernetes:helm.sh/v3:Release", "ikohome-cni-cilium");
    assert.deepStrictEqual(
      [rel.inputs.name, rel.inputs.namespace, rel.inputs.chart, rel.inputs.version],
      ["cilium", "kube-system", "cilium", "1.18.6"],
    );
    assert.deepStrictEqual(rel.inputs.repositoryOpts, { repo: "https://helm.cilium.io/" });
    assert.deepStrictEqual((rel.inputs.values as { cluster: unknown }).cluster, { name: "ikohome", id: 1 });
    assert.strictEqual(rel.provider, await providerUrn(kind.provider));
    assert.strictEqual(rel.parent, await urnOf(cni));
    const probe = one(since(n), "kubernetes:apps/v1:DaemonSet", "ikohome-cni-probe");
    assert.deepStrictEqual([probe.provider, probe.parent], [await providerUrn(kind.provider), await urnOf(cni)]);
    assert.deepStrictEqual(probe.inputs, {
      apiVersion: "apps/v1",
      kind: "DaemonSet",
      ...cniProbeDaemonSet("iko-plus-cni-probe"),
    });
    assert.deepStrictEqual(cni.handle.readyGate, [cni.release, cni.probe]);
    const local = new CiliumCni("air-cni", { cluster: kind, clusterId: 9, chartPath: "./charts/cilium-1.18.0.tgz" });
    await settle(local, local.release);
    const airRel = one(since(n), "kubernetes:helm.sh/v3:Release", "air-cni-cilium");
    assert.strictEqual(airRel.inputs.chart, "./charts/cilium-1.18.0.tgz");
    assert.strictEqual(airRel.inputs.repositoryOpts, undefined);
    const older = new CiliumCni("older-cni", { cluster: kind, clusterId: 8, version: "1.18.0" });
    await settle(older, older.release);
    const olderRel = one(since(n), "kubernetes:helm.sh/v3:Release", "older-cni-cilium");
    assert.deepStrictEqual(
      [olderRel.inputs.chart, olderRel.inputs.version],
      ["cilium", "1.18.0"],
      "version pins the chart",
    );
    assert.strictEqual(rel.inputs.timeout, 600, "the release waits 600 s by default");
    assert.ok(
      probe.dependencies.some((d) => d.endsWith("::ikohome-cni-cilium")),
      "the probe after the release",
    );
    // The options: a timeout, a probe image from a mirror, and more to wait for.
    const gate = new KindCluster("gate", {});
    const tuned = new CiliumCni("tuned-cni", {
      cluster: kind,
      clusterId: 10,
      timeoutSeconds: 120,
      probeImage: "mirror.local/pause:3.10",
      dependsOn: [gate],
    });
    await settle(tuned, tuned.release, tuned.probe);
    const tunedRel = one(since(n), "kubernetes:helm.sh/v3:Release", "tuned-cni-cilium");
    assert.strictEqual(tunedRel.inputs.timeout, 120);
    assert.ok(
      tunedRel.dependencies.some((d) => d.endsWith("::gate-kind")),
      "the release waits for what it is given (a component: its resources)",
    );
    assert.deepStrictEqual(
      (
        one(since(n), "kubernetes:apps/v1:DaemonSet", "tuned-cni-probe").inputs as {
          spec: { template: { spec: { containers: { image: string }[] } } };
        }
      ).spec.template.spec.containers.map((c) => c.image),
      ["mirror.local/pause:3.10"],
    );
  });

  it("IkoHomeOperator remote: SA identity on work, secret kubeconfig on home, webhooks off, post-renderer, CRD on work", async () => {
    const n = registered.length;
    const home = new KindCluster("h1", {});
    const work = new KindCluster("w1", {});
    const homeCni = new CiliumCni("h1-cni", { cluster: home, clusterId: 1 });
    const workCni = new CiliumCni("w1-cni", { cluster: work, clusterId: 2 });
    const iko = new IkoHomeOperator("iko", {
      home: homeCni.handle,
      chart: { path: CHART },
      remote: { target: workCni.handle, crdManifestPath: CRD },
      workDir: path.join(os.tmpdir(), "iko-plus-unit-postrender"),
    });
    await settle(iko, iko.release, iko.crdMirror as CrdMirror, homeCni.release, workCni.release);
    const mine = since(n);
    const homeProv = await providerUrn(home.provider);
    const workProv = await providerUrn(work.provider);
    const homeCniUrn = await urnOf(homeCni.release);
    const workCniUrn = await urnOf(workCni.release);

    // The identity on work: exactly IKO's rules, bound to a dedicated ServiceAccount.
    const sa = one(mine, "kubernetes:core/v1:ServiceAccount", "iko-identity-sa");
    assert.deepStrictEqual(sa.inputs.metadata, { name: "iko-remote-operator", namespace: "iko-remote" });
    assert.strictEqual(sa.provider, workProv);
    const role = one(mine, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole", "iko-identity-role");
    assert.strictEqual((role.inputs.rules as unknown[]).length, 15);
    const token = one(mine, "kubernetes:core/v1:Secret", "iko-identity-token");
    assert.strictEqual(token.inputs.type, "kubernetes.io/service-account-token");
    assert.deepStrictEqual((token.inputs.metadata as { name: string }).name, "iko-remote-operator-token-g1");
    for (const r of [sa, role, token]) {
      assert.strictEqual(r.provider, workProv, `${r.name} goes to work`);
      assert.ok(r.dependencies.includes(workCniUrn), `${r.name} waits for work's CNI`);
    }
    const ns = one(mine, "kubernetes:core/v1:Namespace", "iko-identity-ns");
    assert.deepStrictEqual([ns.inputs.metadata, ns.provider], [{ name: "iko-remote" }, workProv]);
    assert.deepStrictEqual(role.inputs.metadata, { name: "iko-remote-operator" });
    const binding = one(mine, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding", "iko-identity-binding");
    assert.deepStrictEqual(
      [binding.inputs.metadata, binding.inputs.roleRef, binding.inputs.subjects, binding.provider],
      [
        { name: "iko-remote-operator" },
        { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "iko-remote-operator" },
        [{ kind: "ServiceAccount", name: "iko-remote-operator", namespace: "iko-remote" }],
        workProv,
      ],
    );
    assert.deepStrictEqual(token.inputs.metadata, {
      name: "iko-remote-operator-token-g1",
      namespace: "iko-remote",
      annotations: { "kubernetes.io/service-account.name": "iko-remote-operator" },
    });
    assert.strictEqual(token.deleteBeforeReplace, true, "a new generation's token replaces the old one first");
    const urnIn = (r: Registered, other: Registered) =>
      r.dependencies.some((d) => d.endsWith(`$${other.type}::${other.name}`));
    assert.ok(urnIn(sa, ns), "the ServiceAccount after its namespace");
    assert.ok(urnIn(binding, role) && urnIn(binding, sa), "the binding after the role and the ServiceAccount");
    assert.ok(urnIn(token, sa) && urnIn(token, binding), "the token after the ServiceAccount and its binding");

    // The minted kubeconfig: token auth against work's peer endpoint, secret.
    const minted = await resolve(iko.targetKubeconfig as pulumi.Output<string>);
    assert.ok(minted.secret);
    const doc = YAML.parse(minted.value);
    assert.strictEqual(
      doc.users[0].user.token,
      fakeToken("iko-remote", "iko-remote-operator-token-g1"),
      "the token of the operator's own ServiceAccount",
    );
    assert.strictEqual(doc.clusters[0].cluster.server, "https://w1-control-plane:6443");
    assert.strictEqual(doc.clusters[0].cluster["certificate-authority-data"], FAKE_CA, "the token Secret's ca.crt");
    assert.ok(!minted.value.includes("client-key-data"), "not the admin credentials");

    // The Secret on home: work-kubeconfig/config, secret, in the release namespace.
    const secret = one(mine, "kubernetes:core/v1:Secret", "iko-target-kubeconfig");
    assert.strictEqual(secret.provider, homeProv);
    assert.deepStrictEqual(secret.inputs.metadata, { name: "work-kubeconfig", namespace: "iko" });
    const stringData = unwrapSecret(secret.inputs.stringData);
    const data = unwrapSecret((stringData.value as Record<string, unknown>).config);
    assert.ok(stringData.secret || data.secret, "the kubeconfig goes in as a secret");
    assert.strictEqual(data.value, minted.value);

    // The release: home provider, webhooks off, a post-renderer, after the Secret and the CNI.
    const rel = one(mine, "kubernetes:helm.sh/v3:Release", "iko-iko");
    assert.strictEqual(rel.provider, homeProv);
    assert.deepStrictEqual([rel.inputs.name, rel.inputs.namespace, rel.inputs.chart], ["iko", "iko", CHART]);
    assert.deepStrictEqual(rel.inputs.values, {
      apiserver: { enableMutatingWebhook: false, enableValidatingWebhook: false },
    });
    assert.match(String(rel.inputs.postrender), /iko-plus-unit-postrender\/iko-postrender-[a-f0-9]{16}\.sh$/);
    assert.ok(
      rel.dependencies.some((d) => d.endsWith("::iko-target-kubeconfig")),
      "the operator waits for its kubeconfig Secret",
    );
    assert.ok(rel.dependencies.includes(homeCniUrn), "the operator waits for home's CNI");
    assert.strictEqual(iko.deploymentName, "iko-iris-operator-amd");
    assert.strictEqual(rel.inputs.timeout, 300, "the release waits 300 s by default");
    const ikoNs = one(mine, "kubernetes:core/v1:Namespace", "iko-ns");
    assert.deepStrictEqual([ikoNs.inputs.metadata, ikoNs.provider], [{ name: "iko" }, homeProv]);
    assert.ok(
      rel.dependencies.some((d) => d.endsWith("::iko-ns")),
      "the release after its namespace",
    );
    assert.ok(
      secret.dependencies.some((d) => d.endsWith("::iko-ns")),
      "the Secret after its namespace",
    );
    assert.strictEqual(secret.inputs.type, "Opaque");
    assert.strictEqual(
      one(mine, "iko-plus:iko:RemoteOperatorIdentity", "iko-identity").parent,
      await urnOf(iko),
      "the identity is the operator's child",
    );
    // The wrapper Helm runs carries the patch's parameters: Secret, key, mount path, the
    // kubeconfig's checksum (a new kubeconfig rolls the operator) and the container to patch.
    const wrapper = fs.readFileSync(String(rel.inputs.postrender), "utf8");
    const encoded = /'([A-Za-z0-9+/=]+)'$/m.exec(wrapper)?.[1] ?? "";
    assert.deepStrictEqual(JSON.parse(Buffer.from(encoded, "base64").toString("utf8")), {
      secretName: "work-kubeconfig",
      secretKey: "config",
      kubeconfigPath: "/airgap/.kube/config",
      checksum: createHash("sha256").update(minted.value).digest("hex").slice(0, 16),
      containerName: "operator",
    });

    // The CRD on work, from the manifest, applied with force.
    const crd = one(mine, "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition", "iko-crd-crd");
    assert.strictEqual(crd.provider, workProv);
    assert.strictEqual((crd.inputs.metadata as { name: string }).name, "irisclusters.intersystems.com");
    assert.deepStrictEqual((crd.inputs.metadata as { annotations: unknown }).annotations, {
      "pulumi.com/patchForce": "true",
    });
    assert.strictEqual((crd.inputs.spec as { group: string }).group, "intersystems.com");
    assert.ok(crd.dependencies.includes(workCniUrn));
  });

  it("IkoHomeOperator remote with admin credentials passes work's peer kubeconfig, and a new generation renames the token", async () => {
    const n = registered.length;
    const home = new KindCluster("h2", {});
    const work = new KindCluster("w2", {});
    const admin = new IkoHomeOperator("iko-admin", {
      home,
      chart: { path: CHART },
      remote: { target: work, credentials: "admin", crdManifestPath: CRD },
      workDir: path.join(os.tmpdir(), "iko-plus-unit-postrender"),
    });
    await settle(admin, admin.release);
    assert.strictEqual(
      (await resolve(admin.targetKubeconfig as pulumi.Output<string>)).value,
      (await resolve(work.peerKubeconfig)).value,
    );
    assert.ok(!since(n).some((r) => r.type === "kubernetes:core/v1:ServiceAccount"), "no ServiceAccount in admin mode");
    const rotated = new IkoHomeOperator("iko-rot", {
      home,
      chart: { path: CHART },
      remote: { target: work, credentialGeneration: 2, crdManifestPath: CRD },
      workDir: path.join(os.tmpdir(), "iko-plus-unit-postrender"),
    });
    await settle(rotated, rotated.release);
    assert.strictEqual(
      (one(since(n), "kubernetes:core/v1:Secret", "iko-rot-identity-token").inputs.metadata as { name: string }).name,
      "iko-remote-operator-token-g2",
    );
  });

  it("IkoHomeOperator remote in a preview (mock, preview): the Release names the wrapper, nothing is written", async () => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-unit-preview-"));
    fs.rmdirSync(workDir);
    installMocks(true);
    try {
      const n = registered.length;
      const home = new KindCluster("ph", {});
      const work = new KindCluster("pw", {});
      const iko = new IkoHomeOperator("iko-preview", {
        home,
        chart: { path: CHART },
        remote: { target: work, crdManifestPath: CRD },
        workDir,
      });
      await settle(iko, iko.release);
      const rel = one(since(n), "kubernetes:helm.sh/v3:Release", "iko-preview-iko");
      assert.match(String(rel.inputs.postrender), /iko-postrender-[a-f0-9]{16}\.sh$/);
      assert.ok(!fs.existsSync(workDir), "a preview writes no post-renderer");
    } finally {
      installMocks();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });

  it("IkoHomeOperator from a chart repository: name, version and repo to Helm, the timeout given", async () => {
    const n = registered.length;
    const member = new KindCluster("m-repo", {});
    const op = new IkoHomeOperator("iko-repo", {
      home: member,
      chart: { repo: "oci://registry.example.com/charts", version: "3.8.42" },
      timeoutSeconds: 900,
    });
    await settle(op, op.release);
    const rel = one(since(n), "kubernetes:helm.sh/v3:Release", "iko-repo-iko");
    assert.deepStrictEqual(
      [rel.inputs.chart, rel.inputs.version, rel.inputs.repositoryOpts, rel.inputs.timeout],
      ["iris-operator-amd", "3.8.42", { repo: "oci://registry.example.com/charts" }, 900],
    );
    const named = new IkoHomeOperator("iko-named", {
      home: member,
      chart: { repo: "https://charts.example.com", name: "iris-operator", version: "3.8.42" },
    });
    await settle(named, named.release);
    assert.strictEqual(one(since(n), "kubernetes:helm.sh/v3:Release", "iko-named-iko").inputs.chart, "iris-operator");
  });

  it("IkoHomeOperator local: no Secret, no post-renderer, chart defaults", async () => {
    const n = registered.length;
    const member = new KindCluster("m1", {});
    const local = new IkoHomeOperator("iko-local", { home: member, chart: { path: CHART } });
    await settle(local, local.release);
    const rel = one(since(n), "kubernetes:helm.sh/v3:Release", "iko-local-iko");
    assert.strictEqual(rel.inputs.postrender, undefined);
    assert.deepStrictEqual(rel.inputs.values, {});
    assert.ok(!since(n).some((r) => r.type === "kubernetes:core/v1:Secret"));
    assert.strictEqual(local.targetKubeconfig, undefined);
  });

  it("CrdMirror from a live cluster reads the CRD on the source and writes it on the target", async () => {
    const n = registered.length;
    const src = new KindCluster("src", {});
    const dst = new KindCluster("dst", {});
    const mirror = new CrdMirror("mirror", { target: dst, sourceCluster: src });
    await settle(mirror, mirror.crd);
    const read = since(n).find((r) => r.name === "mirror-source");
    assert.ok(read, "the source CRD is read");
    assert.strictEqual(read.provider, await providerUrn(src.provider));
    assert.strictEqual(
      one(since(n), "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition", "mirror-crd").provider,
      await providerUrn(dst.provider),
    );
    // What else the read waits for (e.g. the operator that creates the CRD on the source).
    const after = new KindCluster("src-after", {});
    const waiting = new CrdMirror("mirror-after", { target: dst, sourceCluster: src, sourceDependsOn: [after] });
    await settle(waiting, waiting.crd);
    const waitingRead = since(n).find((r) => r.name === "mirror-after-source");
    assert.ok(
      waitingRead?.dependencies.some((d) => d.endsWith("::src-after-kind")),
      "the read waits for sourceDependsOn",
    );
    // A manifest that exists but holds no such CRD: one message naming the component and the file.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-crd-mirror-"));
    try {
      const other = path.join(dir, "other.yaml");
      fs.writeFileSync(other, "kind: ConfigMap\n");
      assert.throws(() => new CrdMirror("wrong-file", { target: dst, manifestPath: other }), {
        message: `CrdMirror "wrong-file" manifestPath ("${other}") holds no CustomResourceDefinition named irisclusters.intersystems.com; export it with \`kubectl get crd irisclusters.intersystems.com -o yaml\``,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.throws(() => new CrdMirror("bad", { target: dst }), {
      message:
        'CrdMirror "bad": manifestPath: (not set) is required unless sourceCluster is given; give exactly one of manifestPath and sourceCluster',
    });
  });

  it("wfh stack: the recipe's clusters, Cilium on both, IKO at home, IrisClusters at work after the CRD", async () => {
    const n = registered.length;
    const cfg = validateWfhConfig({
      home: { name: "ikohome" },
      work: { name: "ikowork" },
      iko: { chartPath: CHART, crdManifestPath: CRD },
      irisClusters: [
        {
          name: "iris-a",
          namespace: "iris",
          image: "containers.intersystems.com/intersystems/iris-community:2025.1",
          serviceType: "LoadBalancer",
        },
        { name: "iris-b", namespace: "iris", image: "containers.intersystems.com/intersystems/iris-community:2025.1" },
        { name: "iris-c", image: "containers.intersystems.com/intersystems/iris-community:2025.1" },
      ],
    });
    const out = wfhStack(cfg, { secrets: {} });
    assert.ok(
      (await resolve(out.homeKubeconfig)).secret &&
        (await resolve(out.workKubeconfig)).secret &&
        (await resolve(out.operatorTargetKubeconfig)).secret,
    );
    await new Promise((r) => setTimeout(r, 300));
    const mine = since(n);
    const kinds = mine
      .filter((r) => r.type === "pulumi-nodejs:dynamic/kind:Cluster")
      .map((r) => r.inputs.name)
      .sort();
    assert.deepStrictEqual(kinds, ["ikohome", "ikowork"]);
    for (const r of mine.filter((r) => r.type === "pulumi-nodejs:dynamic/kind:Cluster")) {
      assert.deepStrictEqual(YAML.parse(r.inputs.configYaml as string).networking, { disableDefaultCNI: true });
      assert.strictEqual(YAML.parse(r.inputs.configYaml as string).nodes.length, 2);
    }
    assert.deepStrictEqual(
      mine
        .filter((r) => r.type === "kubernetes:helm.sh/v3:Release")
        .map((r) => r.name)
        .sort(),
      ["iko-iko", "ikohome-cni-cilium", "ikowork-cni-cilium"],
    );
    const iris = one(mine, "kubernetes:intersystems.com/v1alpha1:IrisCluster", "iriscluster-iris-iris-a");
    assert.deepStrictEqual(iris.inputs.spec, {
      topology: { data: { image: "containers.intersystems.com/intersystems/iris-community:2025.1" } },
      serviceTemplate: { spec: { type: "LoadBalancer" } },
    });
    assert.ok(
      iris.dependencies.some((d) => d.endsWith("::iko-crd-crd")),
      "IrisCluster waits for its CRD",
    );
    assert.ok(
      iris.dependencies.some((d) => d.endsWith("::ikowork-cni-cilium")),
      "and for work's CNI",
    );
    assert.ok(
      iris.dependencies.some((d) => d.endsWith("::work-ns-iris")),
      "and for its namespace",
    );
    // No resource may fall back to the default provider.
    for (const r of mine.filter((r) => r.custom && r.type.startsWith("kubernetes:"))) {
      assert.ok(
        r.provider.includes("pulumi:providers:kubernetes::ikohome-k8s") ||
          r.provider.includes("pulumi:providers:kubernetes::ikowork-k8s"),
        `${r.type}/${r.name} has an explicit provider: ${r.provider}`,
      );
    }
    // One Namespace per namespace the IrisClusters use, none for "default", each named as given.
    const namespaces = mine.filter((r) => r.type === "kubernetes:core/v1:Namespace" && r.name.startsWith("work-ns-"));
    assert.deepStrictEqual(
      namespaces.map((r) => [r.name, r.inputs.metadata]),
      [["work-ns-iris", { name: "iris" }]],
    );
    const inDefault = one(mine, "kubernetes:intersystems.com/v1alpha1:IrisCluster", "iriscluster-default-iris-c");
    assert.ok(!inDefault.dependencies.some((d) => d.includes("::work-ns-")), "no namespace for default");
    assert.ok(
      inDefault.dependencies.some((d) => d.endsWith("::iko-crd-crd")),
      "but the CRD still",
    );
    assert.deepStrictEqual(out.irisClusters, ["iris/iris-a", "iris/iris-b", "default/iris-c"]);
  });
});
