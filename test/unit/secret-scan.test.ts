/** The plaintext-secret scanner the lab runs over every CLI output and stack state. */
import * as assert from "assert";
import * as crypto from "crypto";
import { findPlaintextSecrets } from "../lab/secret-scan";

const { privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const PEM = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const RSA_PEM = crypto
  .generateKeyPairSync("rsa", { modulusLength: 1024 })
  .privateKey.export({ format: "pem", type: "pkcs1" })
  .toString();
const JWT =
  "eyJhbGciOiJSUzI1NiIsImtpZCI6ImFiYyJ9.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50In0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWc";
const CERT_B64 = Buffer.from("-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n").toString("base64");

const kinds = (text: string, known: string[] = []) => findPlaintextSecrets(text, known).map((f) => f.kind);

describe("plaintext secret scan", () => {
  it("finds private keys as PEM text and base64-encoded (Secret data, kubeconfig), RSA or PKCS#8", () => {
    assert.deepStrictEqual(kinds(`a\n${PEM}`), ["PEM private key"]);
    assert.deepStrictEqual(kinds(`"tls.key": "${Buffer.from(PEM).toString("base64")}"`), ["base64 PEM private key"]);
    assert.deepStrictEqual(kinds(`"data": "${Buffer.from(RSA_PEM).toString("base64")}"`), ["base64 PEM private key"]);
  });

  it("finds ServiceAccount tokens, kubeconfig client keys and tokens", () => {
    assert.deepStrictEqual(kinds(`"token": "${JWT}"`), ["ServiceAccount token (JWT)"]);
    assert.deepStrictEqual(
      kinds(`users:\n- user:\n    client-key-data: ${Buffer.from(RSA_PEM).toString("base64")}\n`),
      ["base64 PEM private key", "kubeconfig client key"],
    );
    assert.deepStrictEqual(kinds("    token: abcdefghijklmnop0123456789\n"), ["kubeconfig token"]);
  });

  it("finds known values as given and base64-encoded, with the line and a masked excerpt", () => {
    const found = findPlaintextSecrets(
      `x\ny\nlicense: LAB-LICENSE-KEY-1234\n"iris.key": "${Buffer.from("LAB-LICENSE-KEY-1234").toString("base64")}"`,
      ["LAB-LICENSE-KEY-1234", "short"],
    );
    assert.deepStrictEqual(
      found.map((f) => [f.kind, f.line]),
      [
        ["known secret value", 3],
        ["known secret value (base64)", 4],
      ],
    );
    assert.ok(
      found.every((f) => !f.excerpt.includes("LICENSE-KEY")),
      "the report does not repeat the secret",
    );
  });

  it("stays silent on Pulumi's encrypted secrets, masks, certificates and public data", () => {
    const state = JSON.stringify({
      kubeconfig: {
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        ciphertext: "v1:abcdEFGH1234:longciphertextlongciphertext",
      },
      caData: CERT_B64,
      token: "[secret]",
      "client-key-data": "[secret]",
    });
    assert.deepStrictEqual(
      kinds(`${state}\n    token: [secret]\n    client-key-data: [secret]\n`, ["LAB-LICENSE-KEY-1234"]),
      [],
    );
  });
});
