import * as assert from "assert";
import * as YAML from "yaml";
import { KubeconfigError, parseKubeconfig, rewriteServer, tokenKubeconfig } from "../../components/kubeconfig";
import { fakeKubeconfig } from "./mocks";

describe("kubeconfig", () => {
  const kc = fakeKubeconfig("kind-ikowork", "https://127.0.0.1:41234");

  it("summarises the current context", () => {
    assert.deepStrictEqual(parseKubeconfig(kc), {
      context: "kind-ikowork",
      cluster: "kind-ikowork",
      server: "https://127.0.0.1:41234",
      caData: Buffer.from("FAKE-CA-PEM").toString("base64"),
      auth: "client-certificate",
    });
  });

  it("rejects a kubeconfig without current-context, naming the fix and not the content", () => {
    const doc = YAML.parse(kc);
    delete doc["current-context"];
    assert.throws(
      () => parseKubeconfig(YAML.stringify(doc), "work kubeconfig"),
      (e: Error) =>
        e instanceof KubeconfigError &&
        e.message ===
          "work kubeconfig has no current-context; set one with `kubectl config use-context <name> --kubeconfig <file>`",
    );
  });

  it("rejects a dangling context, garbage and a bad server", () => {
    const doc = YAML.parse(kc);
    doc["current-context"] = "nope";
    assert.throws(
      () => parseKubeconfig(YAML.stringify(doc)),
      /names current-context "nope", but no context of that name exists/,
    );
    assert.throws(() => parseKubeconfig("- a\n- b\n"), /is not a kubeconfig/);
    assert.throws(() => parseKubeconfig("a: [\n"), /is not valid YAML/);
    const bad = YAML.parse(kc);
    bad.clusters[0].cluster.server = "ftp//x";
    assert.throws(() => parseKubeconfig(YAML.stringify(bad)), /has no valid server URL/);
    try {
      parseKubeconfig(YAML.stringify(bad));
    } catch (e) {
      assert.ok(!(e as Error).message.includes("RkFLRS1LRVk="), "error must not contain key material");
    }
  });

  it("rewrites only the server of the current cluster", () => {
    const out = rewriteServer(kc, "https://ikowork-control-plane:6443");
    const before = YAML.parse(kc);
    before.clusters[0].cluster.server = "https://ikowork-control-plane:6443";
    assert.deepStrictEqual(YAML.parse(out), before);
    assert.throws(() => rewriteServer(kc, "http://x:1"), /not an https:\/\/host:port URL/);
  });

  it("mints an exact token kubeconfig", () => {
    assert.strictEqual(
      tokenKubeconfig({
        name: "ikowork",
        server: "https://10.0.0.2:6443",
        caData: "Q0E=",
        token: "t0k",
        namespace: "iko-remote",
      }),
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "  - name: ikowork",
        "    cluster:",
        "      server: https://10.0.0.2:6443",
        "      certificate-authority-data: Q0E=",
        "contexts:",
        "  - name: ikowork",
        "    context:",
        "      cluster: ikowork",
        "      user: ikowork",
        "      namespace: iko-remote",
        "users:",
        "  - name: ikowork",
        "    user:",
        "      token: t0k",
        "current-context: ikowork",
        "",
      ].join("\n"),
    );
    assert.strictEqual(
      parseKubeconfig(tokenKubeconfig({ name: "w", server: "https://h:1", caData: "Q0E=", token: "t" })).auth,
      "token",
    );
    assert.throws(
      () => tokenKubeconfig({ name: "w", server: "https://h:1", caData: "Q0E=", token: "" }),
      /token for "w" is empty/,
    );
    assert.throws(
      () => tokenKubeconfig({ name: "w", server: "https://h:1", caData: "", token: "t" }),
      /CA data for "w" is empty/,
    );
  });
});
