/**
 * Cluster identity and reachability messages (pure functions): what makes a new cluster behind the
 * same name a new cluster to its provider, and how an unreachable cluster is named.
 */
import * as assert from "assert";
import * as crypto from "crypto";
import * as pulumi from "@pulumi/pulumi";
import {
  HELM_RELEASE_TYPE,
  caFingerprint,
  clusterIdentity,
  describeCluster,
  hostedIdentity,
  kindReachHint,
  stampIdentity,
  unreachableMessage,
} from "../../components/cluster";
import { kindCaData, kindClusterIdentity } from "../../components/kind/provider";

const CA_A = Buffer.from("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").toString("base64");
const CA_B = Buffer.from("-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n").toString("base64");
const sha16 = (b64: string) =>
  crypto.createHash("sha256").update(Buffer.from(b64, "base64")).digest("hex").slice(0, 16);

function kindKubeconfig(server: string, ca: string): string {
  return [
    "apiVersion: v1",
    "clusters:",
    "- cluster:",
    `    certificate-authority-data: ${ca}`,
    `    server: ${server}`,
    "  name: kind-ikowork",
    "contexts: []",
    "",
  ].join("\n");
}

describe("cluster identity (pure)", () => {
  it("the fingerprint is the first 16 hex digits of the CA's SHA-256, whitespace in the base64 ignored; none without a CA", () => {
    assert.strictEqual(caFingerprint(CA_A), sha16(CA_A));
    assert.strictEqual(caFingerprint(`${CA_A.slice(0, 10)}\n  ${CA_A.slice(10)}`), sha16(CA_A));
    assert.notStrictEqual(caFingerprint(CA_A), caFingerprint(CA_B));
    assert.strictEqual(caFingerprint(undefined), undefined);
    assert.strictEqual(caFingerprint(""), undefined);
  });

  it("identity: the name and the CA's fingerprint; the server URL when there is no CA", () => {
    assert.strictEqual(clusterIdentity("work", CA_A, "https://a:6443"), `work@ca-sha256:${sha16(CA_A)}`);
    assert.strictEqual(clusterIdentity("work", undefined, "https://a:6443"), "work@https://a:6443");
  });

  it("a kind cluster: a new API port after a restart is the same cluster; a new CA (a new cluster) is not", () => {
    const before = kindClusterIdentity("ikowork", kindKubeconfig("https://127.0.0.1:38693", CA_A));
    assert.strictEqual(before, `kind:ikowork@ca-sha256:${sha16(CA_A)}`);
    assert.strictEqual(kindClusterIdentity("ikowork", kindKubeconfig("https://127.0.0.1:40001", CA_A)), before);
    assert.notStrictEqual(kindClusterIdentity("ikowork", kindKubeconfig("https://127.0.0.1:38693", CA_B)), before);
    assert.strictEqual(kindCaData(kindKubeconfig("https://x", CA_B)), CA_B);
  });

  it("a hosted API (Karmada) is new exactly when its host is; a host with a legacy identity keeps the bare name", () => {
    assert.strictEqual(
      hostedIdentity("fleet-karmada-api", { name: "host", identity: "kind:host@ca-sha256:0123456789abcdef" }),
      "fleet-karmada-api@kind:host@ca-sha256:0123456789abcdef",
    );
    assert.strictEqual(hostedIdentity("fleet-karmada-api", { name: "host", identity: "host" }), "fleet-karmada-api");
  });
});

describe("cluster reachability messages (pure)", () => {
  const what = describeCluster('kind cluster "ikowork"', "work");

  it("names the cluster by role and source", () => {
    assert.strictEqual(what, 'work (kind cluster "ikowork")');
    assert.strictEqual(describeCluster('kind cluster "ikowork"'), 'kind cluster "ikowork"');
  });

  it("no answer: the cluster, the address, the error without the repeated address, what to check", () => {
    assert.strictEqual(
      unreachableMessage(
        what,
        "https://127.0.0.1:38693",
        { error: "https://127.0.0.1:38693: connect ECONNREFUSED 127.0.0.1:38693" },
        kindReachHint("ikowork"),
      ),
      'work (kind cluster "ikowork"): the API server at https://127.0.0.1:38693 did not answer ' +
        "(connect ECONNREFUSED 127.0.0.1:38693), so nothing on this cluster can change until it does. " +
        "Check that its node containers run (`docker ps -a --filter label=io.x-k8s.kind.cluster=ikowork`; " +
        "a paused one: `docker unpause <container>`; one deleted: `npm run up` recreates the cluster), " +
        "then run the command again",
    );
  });

  it("a kubeconfig given as a secret: the message shows no address, not even inside the error", () => {
    const message = unreachableMessage(
      'work (cluster "ikowork" (kubeconfig))',
      "https://10.1.2.3:6443",
      { error: "https://10.1.2.3:6443: connect ETIMEDOUT 10.1.2.3:6443" },
      "Check it",
      false,
    ) as string;
    assert.doesNotMatch(message, /10\.1\.2\.3/);
    assert.strictEqual(
      message,
      'work (cluster "ikowork" (kubeconfig)): its API server (the address is in a secret kubeconfig) did not answer ' +
        "(connect ETIMEDOUT <server>), so nothing on this cluster can change until it does. Check it, then run the command again",
    );
  });

  it("refused credentials are named as such; any other answer is left to the provider", () => {
    assert.match(
      unreachableMessage(what, "https://h:6443", { status: 401 }, "x") as string,
      /^work \(kind cluster "ikowork"\): the API server at https:\/\/h:6443 refused the stack's credentials \(401 Unauthorized\)/,
    );
    assert.strictEqual(unreachableMessage(what, "https://h:6443", { status: 200, body: {} }, "x"), undefined);
    assert.strictEqual(unreachableMessage(what, "https://h:6443", { status: 403 }, "x"), undefined);
  });
});

describe("stampIdentity (the transformation every object on a cluster gets)", () => {
  const value = <T>(o: unknown): Promise<T> =>
    new Promise((resolve) => (pulumi.output(o as pulumi.Input<T>) as pulumi.Output<T>).apply((v) => resolve(v as T)));
  const identity = pulumi.output("kind:ikowork@ca-sha256:0123456789abcdef");
  const stamp = stampIdentity(identity);
  const call = (type: string, props: Record<string, unknown>) =>
    stamp({ type, name: "x", props, opts: {}, resource: undefined as unknown as pulumi.Resource });

  it("a Kubernetes object: no value changes, its name stays a plain (known) value; only its annotations carry the dependency", async () => {
    const res = call("kubernetes:core/v1:Namespace", { metadata: { name: "iko", annotations: { a: "b" } } });
    const md = res?.props.metadata as { name: string; annotations: unknown };
    assert.strictEqual(md.name, "iko");
    assert.ok(pulumi.Output.isInstance(md.annotations));
    assert.deepStrictEqual(await value(md.annotations), { a: "b" });
    const none = call("kubernetes:core/v1:Namespace", { metadata: { name: "x" } });
    assert.strictEqual(await value((none?.props.metadata as { annotations: unknown }).annotations), undefined);
  });

  it("metadata given as an Output keeps its value", async () => {
    const res = call("kubernetes:core/v1:Secret", { metadata: pulumi.output({ name: "s" }) });
    assert.deepStrictEqual(await value(res?.props.metadata), { name: "s" });
  });

  it("a Helm release: its name carries the dependency, unchanged; nothing else is touched", async () => {
    const res = call(HELM_RELEASE_TYPE, { name: "cilium", chart: "c" });
    assert.strictEqual(await value(res?.props.name), "cilium");
    assert.strictEqual(res?.props.chart, "c");
    assert.deepStrictEqual(res?.opts, {});
  });

  it("anything else (no metadata) is left alone", () => {
    assert.strictEqual(call("pulumi-nodejs:dynamic:Resource", { a: 1 }), undefined);
  });
});
