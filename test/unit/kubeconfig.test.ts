import * as assert from "assert";
import * as YAML from "yaml";
import {
  KubeconfigError,
  kubeconfigCredentials,
  parseKubeconfig,
  rewriteServer,
  tokenKubeconfig,
} from "../../components/kubeconfig";
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

  /** A kubeconfig of two clusters, contexts and users; the current context is the second. */
  const twoContexts = (user: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    YAML.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        { name: "first", cluster: { server: "https://first:1", "certificate-authority-data": "Rmlyc3Q=" } },
        { name: "second", cluster: { server: "https://second:2", ...extra } },
      ],
      contexts: [
        { name: "ctx-first", context: { cluster: "first", user: "first" } },
        { name: "ctx-second", context: { cluster: "second", user: "second" } },
      ],
      users: [
        { name: "first", user: { token: "first-token" } },
        { name: "second", user },
      ],
      "current-context": "ctx-second",
    });
  const noFiles = (f: string): string => {
    throw new Error(`no file should be read, asked for ${f}`);
  };
  const message = (fn: () => unknown): string => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof KubeconfigError, `a KubeconfigError, got ${String(e)}`);
      assert.strictEqual(e.name, "KubeconfigError");
      return e.message;
    }
    assert.fail("expected a KubeconfigError");
  };

  it("follows the current context to its own cluster and user, not the first ones", () => {
    assert.deepStrictEqual(parseKubeconfig(twoContexts({ "client-certificate-data": "Q0VSVA==" })), {
      context: "ctx-second",
      cluster: "second",
      server: "https://second:2",
      caData: undefined,
      auth: "client-certificate",
    });
  });

  it("tells each way a user authenticates apart, and a context whose user is not listed", () => {
    const auth = (user: Record<string, unknown>) => parseKubeconfig(twoContexts(user)).auth;
    assert.strictEqual(auth({ "client-certificate": "/c.pem", "client-key": "/k.pem" }), "client-certificate");
    assert.strictEqual(auth({ token: "t" }), "token");
    assert.strictEqual(auth({ tokenFile: "/t" }), "token");
    assert.strictEqual(auth({ exec: { command: "gke-gcloud-auth-plugin" } }), "exec");
    assert.strictEqual(auth({ username: "u", password: "p" }), "other");
    const orphan = YAML.parse(twoContexts({ token: "t" }));
    orphan.contexts[1].context.user = "nobody";
    assert.strictEqual(parseKubeconfig(YAML.stringify(orphan)).auth, "other");
    delete orphan.users;
    assert.strictEqual(parseKubeconfig(YAML.stringify(orphan)).auth, "other");
  });

  it("says what is wrong, where, and the fix, in exact words; the default source is 'the kubeconfig'", () => {
    assert.strictEqual(
      message(() => parseKubeconfig("a: [\n")),
      "the kubeconfig is not valid YAML; pass a kubeconfig as written by kind or kubectl",
    );
    for (const notAMapping of ["", "just text", "- a\n- b\n", "null"])
      assert.strictEqual(
        message(() => parseKubeconfig(notAMapping, "home kubeconfig")),
        "home kubeconfig is not a kubeconfig (expected a YAML mapping with clusters, contexts and users)",
        JSON.stringify(notAMapping),
      );
    const noContexts = YAML.parse(kc);
    delete noContexts.contexts;
    assert.strictEqual(
      message(() => parseKubeconfig(YAML.stringify(noContexts), "k")),
      'k names current-context "kind-ikowork", but no context of that name exists; fix current-context',
    );
    const dangling = YAML.parse(twoContexts({ token: "t" }));
    dangling.contexts[1].context.cluster = "third";
    assert.strictEqual(
      message(() => parseKubeconfig(YAML.stringify(dangling), "k")),
      'k: context "ctx-second" points at cluster "third", which is not in clusters; fix the context',
    );
    delete dangling.contexts[1].context.cluster;
    assert.strictEqual(
      message(() => parseKubeconfig(YAML.stringify(dangling), "k")),
      'k: context "ctx-second" points at cluster "", which is not in clusters; fix the context',
    );
    delete dangling.clusters;
    assert.match(
      message(() => parseKubeconfig(YAML.stringify(dangling), "k")),
      /points at cluster ""/,
    );
    const emptyCluster = YAML.parse(twoContexts({ token: "t" }));
    delete emptyCluster.clusters[1].cluster;
    assert.strictEqual(
      message(() => parseKubeconfig(YAML.stringify(emptyCluster), "k")),
      'k: context "ctx-second" points at cluster "second", which is not in clusters; fix the context',
    );
    const noServer = YAML.parse(twoContexts({ token: "t" }));
    delete noServer.clusters[1].cluster.server;
    const noServerMessage =
      'k: cluster "second" has no valid server URL; set clusters[].cluster.server to https://<host>:<port>';
    assert.strictEqual(
      message(() => parseKubeconfig(YAML.stringify(noServer), "k")),
      noServerMessage,
    );
    assert.strictEqual(
      message(() => kubeconfigCredentials(YAML.stringify(noServer), "k", noFiles)),
      noServerMessage,
    );
    noServer.clusters[1].cluster.server = "";
    assert.strictEqual(
      message(() => kubeconfigCredentials(YAML.stringify(noServer), "k", noFiles)),
      noServerMessage,
    );
  });

  it("accepts an http or https server URL with a host, and nothing that only contains one", () => {
    const withServer = (server: string) => {
      const doc = YAML.parse(kc);
      doc.clusters[0].cluster.server = server;
      return YAML.stringify(doc);
    };
    assert.strictEqual(parseKubeconfig(withServer("http://127.0.0.1:8080")).server, "http://127.0.0.1:8080");
    assert.strictEqual(parseKubeconfig(withServer("https://h:1/k8s")).server, "https://h:1/k8s");
    for (const bad of ["xhttps://h:1", "https:///path", "https:// h", "h:6443"])
      assert.match(
        message(() => parseKubeconfig(withServer(bad))),
        /has no valid server URL/,
        bad,
      );
  });

  it("rewriteServer takes only https://host:port, names the server, and reads its kubeconfig as any other", () => {
    for (const bad of ["http://h:1", "https://h:1/path", " https://h:1", "xhttps://h:1", "https://"])
      assert.strictEqual(
        message(() => rewriteServer(kc, bad)),
        `server "${bad}" is not an https://host:port URL`,
        bad,
      );
    assert.strictEqual(
      message(() => rewriteServer("a: [\n", "https://h:1")),
      "the kubeconfig is not valid YAML; pass a kubeconfig as written by kind or kubectl",
    );
    const out = YAML.parse(rewriteServer(twoContexts({ token: "t" }), "https://moved:3", "k"));
    assert.deepStrictEqual(
      out.clusters.map((c: { cluster: { server: string } }) => c.cluster.server),
      ["https://first:1", "https://moved:3"],
      "only the current context's cluster moves",
    );
  });

  it("mints a token kubeconfig without a namespace when none is given", () => {
    const doc = YAML.parse(tokenKubeconfig({ name: "w", server: "https://h:1", caData: "Q0E=", token: "t" }));
    assert.deepStrictEqual(doc.contexts, [{ name: "w", context: { cluster: "w", user: "w" } }]);
    assert.deepStrictEqual(
      message(() => tokenKubeconfig({ name: "w", server: "https://h:1", caData: "Q0E=", token: "" })),
      'the token for "w" is empty; wait for the ServiceAccount token to be issued',
    );
    assert.deepStrictEqual(
      message(() => tokenKubeconfig({ name: "w", server: "https://h:1", caData: "", token: "t" })),
      `the CA data for "w" is empty; pass the cluster's base64 CA bundle`,
    );
  });

  it("kubeconfigCredentials: the current context's own cluster and user, embedded data before files", () => {
    const b64 = (t: string) => Buffer.from(t).toString("base64");
    const read = (f: string) => `contents of ${f}`;
    assert.deepStrictEqual(
      kubeconfigCredentials(
        twoContexts(
          { "client-certificate-data": b64("CERT"), "client-key-data": b64("KEY"), token: "ignored" },
          { "certificate-authority-data": b64("CA") },
        ),
        "k",
        noFiles,
      ),
      { server: "https://second:2", insecure: false, ca: "CA", cert: "CERT", key: "KEY" },
    );
    assert.deepStrictEqual(
      kubeconfigCredentials(
        twoContexts(
          { "client-certificate": "/c.pem", "client-key": "/k.pem" },
          { "certificate-authority": "/ca.pem", "insecure-skip-tls-verify": true },
        ),
        "k",
        read,
      ),
      {
        server: "https://second:2",
        insecure: true,
        ca: "contents of /ca.pem",
        cert: "contents of /c.pem",
        key: "contents of /k.pem",
      },
    );
    // No CA at all: left out (the system roots), not an empty string; "true" as text is not true.
    assert.deepStrictEqual(
      kubeconfigCredentials(twoContexts({ token: "tok" }, { "insecure-skip-tls-verify": "true" }), "k", noFiles),
      { server: "https://second:2", insecure: false, token: "tok" },
    );
    // A certificate without its key is no client certificate: the token is used.
    assert.deepStrictEqual(
      kubeconfigCredentials(twoContexts({ "client-certificate-data": b64("CERT"), token: "tok" }), "k", noFiles),
      { server: "https://second:2", insecure: false, token: "tok" },
    );
    assert.deepStrictEqual(
      kubeconfigCredentials(twoContexts({ "client-key-data": b64("KEY"), tokenFile: "/t" }), "k", (f) => ` ${f}-tok\n`),
      { server: "https://second:2", insecure: false, token: "/t-tok" },
    );
    // Empty values count as missing.
    assert.deepStrictEqual(
      kubeconfigCredentials(
        twoContexts(
          { "client-certificate-data": "", "client-key-data": "", token: "", tokenFile: "/t" },
          {
            "certificate-authority-data": "",
          },
        ),
        "k",
        (f) => (f === "/t" ? "tok" : noFiles(f)),
      ),
      { server: "https://second:2", insecure: false, token: "tok" },
    );
  });

  it("kubeconfigCredentials refuses a user with neither a client certificate and key nor a token, naming it", () => {
    const refusal = (user: string) =>
      `k: user "${user}" authenticates with neither a client certificate and key nor a token; ` +
      "give a kubeconfig with client-certificate-data/client-key-data or a token (exec plugins are not supported here)";
    assert.strictEqual(
      message(() => kubeconfigCredentials(twoContexts({ exec: { command: "x" } }), "k", noFiles)),
      refusal("second"),
    );
    const orphan = YAML.parse(twoContexts({ token: "t" }));
    orphan.contexts[1].context.user = "nobody";
    assert.strictEqual(
      message(() => kubeconfigCredentials(YAML.stringify(orphan), "k", noFiles)),
      refusal(""),
    );
  });
});
