/**
 * ClusterMesh: the pure rules, values, certificate subjects and Secret manifests (exact outputs,
 * the values also against the real chart's values.schema.json), the certificates really issued,
 * and the component under Pulumi mocks (what it declares on each member, the secret-ness of the
 * CA key and the client keys, and how a member's CiliumCni takes its values).
 */
import * as assert from "assert";
import * as forge from "node-forge";
import * as crypto from "crypto";
import * as pulumi from "@pulumi/pulumi";
import { Registered, installMocks, one, resolve, settle, unwrapSecret } from "./mocks";

const registered: Registered[] = installMocks();
import {
  CiliumCni,
  ClusterMesh,
  MESH_CERT_SECRET_OUTPUTS,
  MeshCertificatesProvider,
  checkClusterMeshArgs,
  checkClusterMeshMembers,
  ciliumValues,
  clusterMeshValues,
  endpointHost,
  issueMeshCertificates,
  meshCertSpecs,
  meshSecretName,
  meshTlsSecretManifest,
} from "../../components/cilium";
import { KindCluster } from "../../components/kind";
import { generateFleetCa } from "../../components/tls";
import { chartValueProblems, ciliumChartDir } from "./cilium-chart";

const since = (n: number) => registered.slice(n);
const urnOf = async (r: pulumi.Resource) => (await resolve(r.urn)).value;
const providerUrn = async (p: pulumi.ProviderResource) => `${await urnOf(p)}::${(await resolve(p.id)).value}`;
const dependsOn = (r: Registered, name: string) => r.dependencies.some((d) => d.endsWith(`::${name}`));
const ID_FIX = "give every cluster its own id from 1 to 255";

describe("unit: ClusterMesh rules (components/cilium/mesh-values.ts)", () => {
  it("refuses a shared Cilium id, a shared name and overlapping pod ranges, naming the earlier member", () => {
    assert.deepStrictEqual(
      checkClusterMeshMembers([
        { name: "mesh-a", clusterId: 1, podSubnet: "10.245.0.0/16" },
        { name: "mesh-b", clusterId: 1, podSubnet: "10.245.128.0/17" },
        { name: "mesh-a", clusterId: 3, podSubnet: "10.247.0.0/16" },
      ]),
      [
        ["members[1].clusterId", 1, `is also members[0]'s Cilium cluster id; ${ID_FIX}`],
        [
          "members[1].podSubnet",
          "10.245.128.0/17",
          'overlaps members[0].podSubnet "10.245.0.0/16"; ClusterMesh needs pod subnets apart, e.g. 10.244.0.0/16 and 10.245.0.0/16',
        ],
        ["members[2].name", "mesh-a", "is also the name of members[0]; give every cluster its own name"],
      ],
    );
  });

  it("names members by ref; skips unknown ids and pod ranges; NodePorts apart only with kube-proxy replacement", () => {
    assert.deepStrictEqual(
      checkClusterMeshMembers([
        { ref: "home", name: "a" },
        { ref: "work", name: "b" },
        { ref: "x", name: "c", clusterId: 4 },
      ]),
      [],
    );
    assert.deepStrictEqual(
      checkClusterMeshMembers([
        { name: "a", nodePort: 32379 },
        { name: "b", nodePort: 32379 },
      ]),
      [],
    );
    assert.deepStrictEqual(
      checkClusterMeshMembers([
        { ref: "home", name: "a", nodePort: 32379 },
        { ref: "work", name: "b", nodePort: 32379, kubeProxyReplacement: true },
      ]),
      [
        [
          "work.nodePort",
          32379,
          "is also home's clustermesh-apiserver NodePort, and one of them replaces kube-proxy, which then sends that NodePort to its own cluster (Cilium #24692); give each its own, e.g. 32380",
        ],
      ],
    );
  });

  it("a pod range or NodePort only one member states is no clash; the NodePort advice names a free port", () => {
    assert.deepStrictEqual(
      checkClusterMeshMembers([
        { name: "a", podSubnet: "10.245.0.0/16", kubeProxyReplacement: true },
        { name: "b", kubeProxyReplacement: true },
        { name: "c", podSubnet: "10.246.0.0/16", nodePort: 32379, kubeProxyReplacement: true },
        { name: "d", nodePort: 32380, kubeProxyReplacement: true },
      ]),
      [],
    );
    assert.deepStrictEqual(
      checkClusterMeshMembers([
        { name: "a", nodePort: 32380 },
        { name: "b", nodePort: 32380, kubeProxyReplacement: true },
      ]),
      [
        [
          "members[1].nodePort",
          32380,
          "is also members[0]'s clustermesh-apiserver NodePort, and one of them replaces kube-proxy, which then sends that NodePort to its own cluster (Cilium #24692); give each its own, e.g. 32379",
        ],
      ],
    );
  });

  it("the component's own checks: at least one member, each a Cilium name, id and NodePort", () => {
    assert.deepStrictEqual(checkClusterMeshArgs([]), [["members", [], "must list at least one cluster"]]);
    assert.deepStrictEqual(checkClusterMeshArgs([{ name: "Mesh_A", clusterId: 0, nodePort: 2379 }, { name: "b" }]), [
      [
        "members[0].name",
        "Mesh_A",
        "is not a DNS-1123 label; use lowercase letters, digits and '-', starting and ending with a letter or digit",
      ],
      ["members[0].clusterId", 0, "must be a whole number from 1 to 255, unique per cluster (Cilium ClusterMesh)"],
      ["members[0].nodePort", 2379, "must be a whole number from 30000 to 32767 (Kubernetes' NodePort range)"],
      ["members[1].clusterId", undefined, "is required: a ClusterMesh member needs its Cilium cluster id (1 to 255)"],
    ]);
  });
});

describe("unit: ClusterMesh values (against the real chart), certificates, Secrets", function () {
  this.timeout(120_000);

  it("a member's clustermesh values: the apiserver behind a NodePort, our TLS, the peers", () => {
    assert.deepStrictEqual(
      clusterMeshValues({ nodePort: 32379, peers: [{ name: "mesh-b", address: "mesh-b-control-plane", port: 32380 }] }),
      {
        useAPIServer: true,
        apiserver: {
          service: { type: "NodePort", nodePort: 32379 },
          tls: { authMode: "cluster", auto: { enabled: false }, enableSecrets: false },
        },
        config: { enabled: true, clusters: [{ name: "mesh-b", address: "mesh-b-control-plane", port: 32380 }] },
      },
    );
  });

  it("ciliumValues merges them over the module images' clustermesh values", () => {
    const mesh = clusterMeshValues({
      nodePort: 32379,
      peers: [{ name: "mesh-b", address: "mesh-b-control-plane", port: 32379 }],
    });
    assert.deepStrictEqual(
      ciliumValues({ clusterName: "mesh-a", clusterId: 11, moduleImages: true, clusterMesh: mesh }).clustermesh,
      {
        useAPIServer: true,
        apiserver: {
          image: { useDigest: false },
          service: { type: "NodePort", nodePort: 32379 },
          tls: { authMode: "cluster", auto: { enabled: false }, enableSecrets: false },
        },
        config: { enabled: true, clusters: [{ name: "mesh-b", address: "mesh-b-control-plane", port: 32379 }] },
      },
    );
  });

  it("a mesh member's whole values are the real chart's (keys and types, values.schema.json)", () => {
    const chart = ciliumChartDir();
    for (const peers of [
      [],
      [
        { name: "mesh-b", address: "mesh-b-control-plane", port: 32379 },
        { name: "mesh-c", address: "172.18.0.9", port: 32381 },
      ],
    ]) {
      const values = ciliumValues({
        clusterName: "mesh-a",
        clusterId: 11,
        moduleImages: true,
        dropCapabilities: ["SYS_RESOURCE"],
        clusterMesh: clusterMeshValues({ nodePort: 32379, peers }),
      });
      assert.deepStrictEqual(chartValueProblems(chart, values), []);
    }
    // The check bites on a mesh value too.
    const bad = ciliumValues({
      clusterName: "mesh-a",
      clusterId: 11,
      clusterMesh: { ...clusterMeshValues({ nodePort: 32379, peers: [] }), useAPIServer: "true" },
    });
    assert.deepStrictEqual(chartValueProblems(chart, bad), [".clustermesh.useAPIServer should be boolean"]);
  });

  it("the certificates' subjects: the chart's server names plus the address, etcd users as client names", () => {
    assert.deepStrictEqual(meshCertSpecs("mesh-a", ["mesh-a-control-plane"]), {
      server: {
        commonName: "clustermesh-apiserver.cilium.io",
        dnsNames: [
          "clustermesh-apiserver.cilium.io",
          "*.mesh.cilium.io",
          "clustermesh-apiserver.kube-system.svc",
          "mesh-a-control-plane",
        ],
        ipAddresses: ["127.0.0.1", "::1"],
      },
      admin: { commonName: "admin-mesh-a", dnsNames: [], ipAddresses: [] },
      local: { commonName: "local-mesh-a", dnsNames: [], ipAddresses: [] },
      remote: { commonName: "remote-mesh-a", dnsNames: [], ipAddresses: [] },
    });
    assert.deepStrictEqual(meshCertSpecs("m", ["172.18.0.4"]).server.ipAddresses, ["127.0.0.1", "::1", "172.18.0.4"]);
    // Names and addresses apart, each once, whatever the order they come in.
    const mixed = meshCertSpecs("m", ["fc00::2", "m-control-plane", "127.0.0.1", "*.mesh.cilium.io", "172.18.0.4"]);
    assert.deepStrictEqual(mixed.server, {
      commonName: "clustermesh-apiserver.cilium.io",
      dnsNames: [
        "clustermesh-apiserver.cilium.io",
        "*.mesh.cilium.io",
        "clustermesh-apiserver.kube-system.svc",
        "m-control-plane",
      ],
      ipAddresses: ["127.0.0.1", "::1", "fc00::2", "172.18.0.4"],
    });
    assert.deepStrictEqual(
      [
        endpointHost("https://mesh-a-control-plane:6443"),
        endpointHost("https://[fc00::1]:6443"),
        endpointHost("https://34.1.2.3"),
      ],
      ["mesh-a-control-plane", "fc00::1", "34.1.2.3"],
    );
  });

  it("a certificate Secret: kubernetes.io/tls with ca.crt, under the name the chart's pods mount", () => {
    assert.deepStrictEqual(MESH_CERT_SECRET_OUTPUTS, ["serverKeyPem", "adminKeyPem", "localKeyPem", "remoteKeyPem"]);
    assert.deepStrictEqual(meshTlsSecretManifest("remote", { ca: "CA", cert: "CERT", key: "KEY" }), {
      metadata: {
        name: "clustermesh-apiserver-remote-cert",
        namespace: "kube-system",
        labels: { "app.kubernetes.io/part-of": "cilium", "app.kubernetes.io/managed-by": "iko-plus" },
      },
      type: "kubernetes.io/tls",
      stringData: { "ca.crt": "CA", "tls.crt": "CERT", "tls.key": "KEY" },
    });
    assert.deepStrictEqual(
      ["server", "admin", "local", "remote"].map((k) => meshSecretName(k as "server")),
      [
        "clustermesh-apiserver-server-cert",
        "clustermesh-apiserver-admin-cert",
        "clustermesh-apiserver-local-cert",
        "clustermesh-apiserver-remote-cert",
      ],
    );
  });

  it("issues the four certificates signed by the CA: names, usages, validity, keys that match", () => {
    const ca = generateFleetCa({ keyBits: 2048, commonName: "mesh test CA" });
    const now = new Date("2026-12-01T00:00:00Z");
    const certs = issueMeshCertificates(
      {
        caCertPem: ca.certPem,
        caKeyPem: ca.keyPem,
        clusterName: "mesh-a",
        addresses: ["mesh-a-control-plane"],
        validityDays: 30,
        generation: 1,
      },
      now,
    );
    const caX = new crypto.X509Certificate(ca.certPem);
    for (const [kind, cn] of [
      ["server", "clustermesh-apiserver.cilium.io"],
      ["admin", "admin-mesh-a"],
      ["local", "local-mesh-a"],
      ["remote", "remote-mesh-a"],
    ] as const) {
      const x = new crypto.X509Certificate(certs[kind].certPem);
      assert.strictEqual(x.subject, `CN=${cn}`, kind);
      assert.strictEqual(x.issuer, caX.subject, kind);
      assert.ok(x.verify(caX.publicKey), `${kind}: signed by the CA`);
      assert.ok(x.checkPrivateKey(crypto.createPrivateKey(certs[kind].keyPem)), `${kind}: its key`);
      assert.strictEqual(x.ca, false);
      assert.deepStrictEqual(
        x.keyUsage?.slice().sort(),
        ["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"],
        `${kind}: serverAuth and clientAuth`,
      );
      assert.strictEqual(new Date(x.validTo).getTime(), now.getTime() + 30 * 86_400_000);
      assert.strictEqual(
        new Date(x.validFrom).getTime(),
        now.getTime() - 5 * 60_000,
        `${kind}: valid from 5 min before`,
      );
      assert.match(certs[kind].keyPem, /^-----BEGIN PRIVATE KEY-----/);
      assert.match(x.serialNumber, /^[1-7][0-9A-F]{31}$/, `${kind}: a positive 128-bit serial`);
      const f = forge.pki.certificateFromPem(certs[kind].certPem);
      const ext = (name: string) => f.getExtension(name) as Record<string, unknown>;
      assert.deepStrictEqual(
        [ext("basicConstraints").cA, ext("basicConstraints").critical],
        [false, true],
        `${kind}: not a CA, critical`,
      );
      const usage = ext("keyUsage");
      assert.deepStrictEqual(
        [usage.critical, usage.digitalSignature, usage.keyEncipherment, usage.keyCertSign, usage.cRLSign],
        [true, true, true, false, false],
        `${kind}: digitalSignature and keyEncipherment only, critical`,
      );
    }
    assert.strictEqual(
      new Set(Object.values(certs).map((c) => new crypto.X509Certificate(c.certPem).serialNumber)).size,
      4,
      "each certificate its own serial",
    );
    assert.strictEqual(
      new crypto.X509Certificate(certs.server.certPem).subjectAltName,
      "DNS:clustermesh-apiserver.cilium.io, DNS:*.mesh.cilium.io, DNS:clustermesh-apiserver.kube-system.svc, DNS:mesh-a-control-plane, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1",
    );
    assert.strictEqual(new crypto.X509Certificate(certs.remote.certPem).subjectAltName, undefined);
  });

  it("the dynamic provider: create returns the inputs and the certificates, read keeps state, every input change replaces", async () => {
    const ca = generateFleetCa({ keyBits: 2048 });
    const p = new MeshCertificatesProvider();
    const inputs = {
      caCertPem: ca.certPem,
      caKeyPem: ca.keyPem,
      clusterName: "mesh-b",
      addresses: ["mesh-b-control-plane"],
      validityDays: 1095,
      generation: 1,
    };
    const made = await p.create(inputs);
    assert.strictEqual(made.id, "mesh-b-1");
    const outs = made.outs as Record<string, string>;
    assert.deepStrictEqual(
      Object.keys(outs).sort(),
      [
        ...Object.keys(inputs),
        "adminCertPem",
        "adminKeyPem",
        "localCertPem",
        "localKeyPem",
        "remoteCertPem",
        "remoteKeyPem",
        "serverCertPem",
        "serverKeyPem",
      ].sort(),
    );
    assert.deepStrictEqual(await p.read("mesh-b-1", outs as never), { id: "mesh-b-1", props: outs });
    assert.deepStrictEqual(await p.diff("mesh-b-1", outs as never, inputs), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    assert.deepStrictEqual(
      (await p.diff("mesh-b-1", outs as never, { ...inputs, addresses: ["10.0.0.1"], generation: 2 })).replaces,
      ["addresses", "generation"],
    );
  });
});

describe("unit (mocks): ClusterMesh", () => {
  it("one CA, per member its certificates and four Secrets through its own provider, its CiliumCni with the peers, after the Secrets", async () => {
    const n = registered.length;
    const a = new KindCluster("mesh-a", {});
    const b = new KindCluster("mesh-b", {});
    const mesh = new ClusterMesh("mesh", {
      members: [
        { cluster: a, clusterId: 11, podSubnet: "10.245.0.0/16", address: "mesh-a-control-plane" },
        { cluster: b, clusterId: 12, podSubnet: "10.246.0.0/16", nodePort: 32380 },
      ],
    });
    const cniA = new CiliumCni("mesh-a-cni", { cluster: a, clusterId: 11, ...mesh.cniArgs("mesh-a") });
    const cniB = new CiliumCni("mesh-b-cni", { cluster: b, clusterId: 12, ...mesh.cniArgs("mesh-b") });
    await settle(
      mesh,
      a,
      b,
      cniA.release,
      cniB.release,
      ...Object.values(mesh.secrets).flat(),
      ...Object.values(mesh.certificates),
    );
    const mine = since(n);
    assert.strictEqual(one(mine, "iko-plus:cilium:ClusterMesh", "mesh").parent, "");
    const ca = one(mine, "pulumi-nodejs:dynamic/iko-plus-tls:FleetCa", "mesh-ca");
    assert.deepStrictEqual(
      [ca.inputs.commonName, ca.inputs.keyBits, ca.inputs.generation],
      ["iko-plus Cilium ClusterMesh CA", 2048, 1],
    );
    assert.strictEqual(mine.filter((r) => r.type.endsWith(":FleetCa")).length, 1, "one CA for the mesh");
    for (const [member, cluster, address] of [
      ["mesh-a", a, "mesh-a-control-plane"],
      ["mesh-b", b, "mesh-b-control-plane"],
    ] as const) {
      const certs = one(mine, "pulumi-nodejs:dynamic/iko-plus-cilium:MeshCertificates", `mesh-${member}-certs`);
      assert.deepStrictEqual(
        certs.additionalSecretOutputs,
        ["serverKeyPem", "adminKeyPem", "localKeyPem", "remoteKeyPem"],
        `${member}: every issued key is a secret output`,
      );
      assert.deepStrictEqual(
        [certs.inputs.clusterName, certs.inputs.addresses, certs.inputs.validityDays, certs.inputs.generation],
        [member, [address], 1095, 1],
      );
      assert.ok(unwrapSecret(certs.inputs.caKeyPem).secret, `${member}: the CA key goes to the issuer as a secret`);
      assert.ok(
        String(certs.inputs.__provider).includes("issueMeshCertificates"),
        "the serialised provider issues the certificates",
      );
      const prov = await providerUrn(cluster.provider);
      for (const kind of ["server", "admin", "local", "remote"] as const) {
        const s = one(mine, "kubernetes:core/v1:Secret", `mesh-${member}-${kind}-cert`);
        assert.deepStrictEqual(
          [s.inputs.metadata, s.inputs.type, s.provider],
          [
            {
              name: `clustermesh-apiserver-${kind}-cert`,
              namespace: "kube-system",
              labels: { "app.kubernetes.io/part-of": "cilium", "app.kubernetes.io/managed-by": "iko-plus" },
            },
            "kubernetes.io/tls",
            prov,
          ],
        );
        assert.ok(
          unwrapSecret(s.inputs.stringData).secret,
          `${member} ${kind}: the Secret's data (its key) is secret input`,
        );
        const pem = mesh.certificates[member].pem(kind);
        const key = await resolve(pem.key);
        assert.strictEqual(key.secret, true, `${member} ${kind}: the client key output is secret`);
        assert.strictEqual(key.value, `fake:mesh-${member}-certs:${kind}KeyPem`, `${member} ${kind}: its own key`);
        assert.strictEqual((await resolve(pem.cert)).value, `fake:mesh-${member}-certs:${kind}CertPem`);
      }
    }
    // Each release: its own NodePort, the other member as its one peer, after its own Secrets.
    const relA = one(mine, "kubernetes:helm.sh/v3:Release", "mesh-a-cni-cilium");
    const relB = one(mine, "kubernetes:helm.sh/v3:Release", "mesh-b-cni-cilium");
    assert.deepStrictEqual(
      (relA.inputs.values as Record<string, unknown>).clustermesh,
      clusterMeshValues({ nodePort: 32379, peers: [{ name: "mesh-b", address: "mesh-b-control-plane", port: 32380 }] }),
    );
    assert.deepStrictEqual(
      (relB.inputs.values as Record<string, unknown>).clustermesh,
      clusterMeshValues({ nodePort: 32380, peers: [{ name: "mesh-a", address: "mesh-a-control-plane", port: 32379 }] }),
    );
    assert.deepStrictEqual((relA.inputs.values as Record<string, unknown>).cluster, { name: "mesh-a", id: 11 });
    for (const kind of ["server", "admin", "local", "remote"]) {
      assert.ok(
        dependsOn(relA, `mesh-mesh-a-${kind}-cert`) && !dependsOn(relA, `mesh-mesh-b-${kind}-cert`),
        `mesh-a's release waits for its own ${kind} Secret`,
      );
      assert.ok(dependsOn(relB, `mesh-mesh-b-${kind}-cert`));
    }
    // The CA certificate is public; the key never leaves the state (no Secret carries it).
    assert.strictEqual((await resolve(mesh.caCertificate)).secret, false);
    assert.throws(() => mesh.cniArgs("mesh-c"), /ClusterMesh: "mesh-c" is not a member \(members: mesh-a, mesh-b\)/);
  });

  it("a supplied CA: no CA resource, the key a secret wherever it goes", async () => {
    const n = registered.length;
    const own = generateFleetCa({ keyBits: 2048 });
    const c = new KindCluster("mesh-own", {});
    const mesh = new ClusterMesh("own-mesh", {
      members: [{ cluster: c, clusterId: 5 }],
      ca: { certificatePem: own.certPem, privateKeyPem: own.keyPem },
    });
    await settle(mesh, ...Object.values(mesh.certificates), ...mesh.secrets["mesh-own"]);
    const mine = since(n);
    assert.strictEqual(mine.filter((r) => r.type.endsWith(":FleetCa")).length, 0);
    const certs = one(mine, "pulumi-nodejs:dynamic/iko-plus-cilium:MeshCertificates", "own-mesh-mesh-own-certs");
    assert.deepStrictEqual(unwrapSecret(certs.inputs.caKeyPem), { value: own.keyPem, secret: true });
    assert.deepStrictEqual(await resolve(mesh.caCertificate), { value: own.certPem, secret: false });
    // A lone member: no peers; its address defaults to the host of its peer endpoint.
    assert.deepStrictEqual(certs.inputs.addresses, ["mesh-own-control-plane"]);
    assert.deepStrictEqual((mesh.cniArgs("mesh-own").clusterMesh.config as { clusters: unknown[] }).clusters, []);
  });

  it("throws one error naming every problem before declaring anything", async () => {
    const a = new KindCluster("dup-a", {});
    const b = new KindCluster("dup-b", {});
    await settle(a, b);
    const before = registered.length;
    assert.throws(
      () =>
        new ClusterMesh("dup", {
          members: [
            { cluster: a, clusterId: 3, podSubnet: "10.1.0.0/16" },
            { cluster: b, clusterId: 3, podSubnet: "10.1.0.0/24" },
          ],
        }),
      new RegExp(
        `^Error: ClusterMesh "dup": members\\[1\\]\\.clusterId: 3 is also members\\[0\\]'s Cilium cluster id; ${ID_FIX}; members\\[1\\]\\.podSubnet: "10\\.1\\.0\\.0/24" overlaps members\\[0\\]\\.podSubnet "10\\.1\\.0\\.0/16"; ClusterMesh needs pod subnets apart, e\\.g\\. 10\\.244\\.0\\.0/16 and 10\\.245\\.0\\.0/16$`,
      ),
    );
    await new Promise((r) => setTimeout(r, 100));
    assert.deepStrictEqual(
      since(before).map((r) => r.name),
      [],
      "nothing of the mesh declared",
    );
  });

  it("readyTimeoutSeconds: a whole number from 10 to 3600, checked by the component itself", async () => {
    const a = new KindCluster("rt-a", {});
    await settle(a);
    const before = registered.length;
    assert.throws(
      () => new ClusterMesh("rt", { members: [{ cluster: a, clusterId: 4 }], readyTimeoutSeconds: 0.5 }),
      /^Error: ClusterMesh "rt": readyTimeoutSeconds: 0\.5 must be a whole number from 10 to 3600$/,
    );
    await new Promise((r) => setTimeout(r, 100));
    assert.deepStrictEqual(since(before), [], "nothing of the mesh declared");
  });
});
