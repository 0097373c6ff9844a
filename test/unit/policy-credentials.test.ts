import * as assert from "assert";
import * as crypto from "crypto";
import {
  credentialIn,
  hasJwt,
  hasPrivateKey,
  isCredentialKey,
  isKubeconfig,
  plainCredentials,
} from "../../policy/rules/credentials";
import { PolicyResource, SecretValue, UNKNOWN } from "../../policy/rules/values";
import { fakeKubeconfig } from "./mocks";

const KUBECONFIG = fakeKubeconfig("ikowork", "https://127.0.0.1:6443");
const PEM = crypto
  .generateKeyPairSync("ec", { namedCurve: "prime256v1" })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();
const RSA_PEM = crypto
  .generateKeyPairSync("rsa", { modulusLength: 1024 })
  .privateKey.export({ type: "pkcs1", format: "pem" })
  .toString();
const JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
const FIX =
  "make it a secret: wrap the value in pulumi.secret() (or read it with config.requireSecret), or keep it in a Kubernetes Secret";

const res = (type: string, name: string, props: PolicyResource["props"]): PolicyResource => ({
  type,
  name,
  urn: `urn:${name}`,
  props,
});

describe("policy no-plain-credentials: detectors", () => {
  it("recognises kubeconfigs in YAML and JSON, not other YAML", () => {
    assert.strictEqual(isKubeconfig(KUBECONFIG), true);
    assert.strictEqual(
      isKubeconfig(JSON.stringify({ apiVersion: "v1", clusters: [], contexts: [], users: [] }, null, 1)),
      true,
    );
    assert.strictEqual(isKubeconfig("apiVersion: v1\nkind: ConfigMap\ndata:\n  users: 3\n"), false);
  });
  it("recognises PEM private keys, also base64-encoded, but not certificates", () => {
    assert.strictEqual(hasPrivateKey(PEM), true);
    assert.strictEqual(hasPrivateKey(`client-key-data: ${Buffer.from(PEM).toString("base64")}`), true);
    assert.strictEqual(hasPrivateKey(RSA_PEM), true, "PKCS#1 (BEGIN RSA PRIVATE KEY)");
    assert.strictEqual(hasPrivateKey("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"), false);
    assert.strictEqual(
      hasPrivateKey(Buffer.from("-----BEGIN CERTIFICATE-----\nMIIBxyzxyzxyz\n").toString("base64")),
      false,
    );
  });
  it("recognises JWTs (bearer and ServiceAccount tokens)", () => {
    assert.strictEqual(hasJwt(JWT), true);
    assert.strictEqual(hasJwt(`Authorization: Bearer ${JWT}`), true);
    assert.strictEqual(hasJwt("eyJhbGciOiJSUzI1NiJ9 is only a header"), false);
  });
  it("names credential fields: token, kubeconfig, key and names ending so", () => {
    for (const k of [
      "token",
      "kubeconfig",
      "key",
      "accessToken",
      "client-key",
      "iris.key",
      "api_key",
      "privateKey",
      "TOKEN",
    ])
      assert.strictEqual(isCredentialKey(k), true, k);
    for (const k of ["monkey", "keys", "tokens", "keyring", "ca.crt", "config", "kubeconfigPath"])
      assert.strictEqual(isCredentialKey(k), false, k);
  });
  it("orders content kinds: kubeconfig, then private key, then token", () => {
    assert.strictEqual(credentialIn(KUBECONFIG), "kubeconfig");
    assert.strictEqual(credentialIn(PEM), "private key");
    assert.strictEqual(credentialIn(JWT), "token");
    assert.strictEqual(credentialIn("hello"), undefined);
  });
});

describe("policy no-plain-credentials: findings", () => {
  it("fires on a plain provider kubeconfig, naming resource, input and a masked value", () => {
    assert.deepStrictEqual(plainCredentials(res("pulumi:providers:kubernetes", "work", { kubeconfig: KUBECONFIG })), [
      `pulumi:providers:kubernetes "work": input kubeconfig holds a kubeconfig in plain text, "apiV…" (${KUBECONFIG.length} characters, masked); ${FIX}`,
    ]);
  });
  it("stays silent on secret inputs, however deep", () => {
    assert.deepStrictEqual(
      plainCredentials(res("pulumi:providers:kubernetes", "work", { kubeconfig: new SecretValue(KUBECONFIG) })),
      [],
    );
    assert.deepStrictEqual(
      plainCredentials(
        res("kubernetes:core/v1:ConfigMap", "cm", {
          data: new SecretValue({ kubeconfig: KUBECONFIG, "tls.key": PEM, token: "abc" }),
        }),
      ),
      [],
    );
    assert.deepStrictEqual(
      plainCredentials(res("kubernetes:core/v1:Secret", "s", { stringData: { token: new SecretValue(JWT) } })),
      [],
    );
  });
  it("stays silent on unknown values and on a provider kubeconfig that is a file path", () => {
    assert.deepStrictEqual(plainCredentials(res("pulumi:providers:kubernetes", "p", { kubeconfig: UNKNOWN })), []);
    assert.deepStrictEqual(
      plainCredentials(res("pulumi:providers:kubernetes", "p", { kubeconfig: "~/.kube/config" })),
      [],
    );
    assert.deepStrictEqual(
      plainCredentials(res("pulumi:providers:kubernetes", "p", { kubeconfig: "./lab/ikowork/kubeconfig" })),
      [],
    );
  });
  it("fires on content anywhere, and by field name only in Secret/ConfigMap data and provider inputs", () => {
    const found = plainCredentials(
      res("kubernetes:core/v1:ConfigMap", "cm", {
        metadata: { name: "cm", annotations: { "example.com/key": "not judged by name here" } },
        data: { "tls.key": PEM, token: "opaque-123", note: `Bearer ${JWT}`, greeting: "hello", empty: "" },
      }),
    );
    assert.deepStrictEqual(found, [
      `kubernetes:core/v1:ConfigMap "cm": input data["tls.key"] holds a private key in plain text, "----…" (${PEM.length} characters, masked); ${FIX}`,
      `kubernetes:core/v1:ConfigMap "cm": input data.token holds a credential (by its field name) in plain text, "opaq…" (10 characters, masked); ${FIX}`,
      `kubernetes:core/v1:ConfigMap "cm": input data.note holds a token (JWT) in plain text, "Bear…" (${JWT.length + 7} characters, masked); ${FIX}`,
    ]);
    assert.deepStrictEqual(
      plainCredentials(
        res("kubernetes:apps/v1:Deployment", "d", {
          spec: {
            template: {
              spec: {
                containers: [
                  {
                    name: "c",
                    image: "x:1",
                    env: [
                      { name: "KEY", value: "opaque" },
                      { name: "T", value: JWT },
                    ],
                  },
                ],
              },
            },
          },
        }),
      ),
      [
        `kubernetes:apps/v1:Deployment "d": input spec.template.spec.containers[0].env[1].value holds a token (JWT) in plain text, "eyJh…" (${JWT.length} characters, masked); ${FIX}`,
      ],
    );
  });
  it("never puts the credential itself in a message", () => {
    const messages = plainCredentials(
      res("kubernetes:core/v1:ConfigMap", "cm", { data: { a: KUBECONFIG, b: PEM, c: JWT } }),
    ).join("\n");
    for (const secret of ["RkFLRS1LRVk=", PEM.split("\n")[1], JWT.slice(10)])
      assert.ok(!messages.includes(secret), secret);
  });
});
