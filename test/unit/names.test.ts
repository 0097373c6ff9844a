import * as assert from "assert";
import {
  chartImageValues,
  checkCidr,
  checkCiliumClusterId,
  checkClusterName,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkImageRef,
  checkNodePort,
  checkWholeNumber,
  cidrsOverlap,
  kindContextName,
  kindControlPlaneHost,
  parseCidr,
  splitImageRef,
} from "../../components/names";

describe("names", () => {
  it("accepts DNS-1123 labels and rejects the rest with the rule", () => {
    assert.strictEqual(checkDns1123Label("ikowork"), undefined);
    assert.strictEqual(checkDns1123Label("a-1"), undefined);
    assert.match(checkDns1123Label("IKO") as string, /not a DNS-1123 label/);
    assert.match(checkDns1123Label("-a") as string, /starting and ending/);
    assert.match(checkDns1123Label("a".repeat(64)) as string, /64 characters/);
    assert.match(checkDns1123Label("") as string, /must not be empty/);
  });
  it("accepts dotted subdomains", () => {
    assert.strictEqual(checkDns1123Subdomain("work.kubeconfig"), undefined);
    assert.match(checkDns1123Subdomain("Work_Kubeconfig") as string, /DNS-1123 subdomain/);
  });
  it("limits cluster names to Cilium's 32 characters", () => {
    assert.strictEqual(checkClusterName("a".repeat(32)), undefined);
    assert.strictEqual(
      checkClusterName("a".repeat(33)),
      "is 33 characters; Cilium ClusterMesh allows at most 32, so shorten it",
    );
    assert.match(checkClusterName("ikohome.lab") as string, /DNS-1123 label/);
  });
  it("checks Cilium cluster ids 1..255", () => {
    assert.strictEqual(checkCiliumClusterId(1), undefined);
    assert.strictEqual(checkCiliumClusterId(255), undefined);
    for (const bad of [0, 256, 1.5, -1]) assert.ok(checkCiliumClusterId(bad));
  });
  it("one whole-number range check: the bounds are in, one past them and fractions, NaN, text are out", () => {
    const check = checkWholeNumber(1, 100, " (nodes per zone)");
    for (const ok of [1, 2, 99, 100]) assert.strictEqual(check(ok), undefined, String(ok));
    for (const bad of [0, 101, -1, 1.5, NaN, Infinity, "5", true, undefined, null])
      assert.strictEqual(check(bad), "must be a whole number from 1 to 100 (nodes per zone)", String(bad));
    assert.strictEqual(checkWholeNumber(0, 20)(21), "must be a whole number from 0 to 20");
    assert.strictEqual(checkWholeNumber(0, 20)(0), undefined);
    assert.strictEqual(checkNodePort(30000), undefined);
    assert.strictEqual(checkNodePort(32767), undefined);
    assert.strictEqual(checkNodePort(29999), "must be a whole number from 30000 to 32767 (Kubernetes' NodePort range)");
    assert.strictEqual(checkNodePort(32768), "must be a whole number from 30000 to 32767 (Kubernetes' NodePort range)");
  });
  it("names kind contexts and control-plane hosts", () => {
    assert.strictEqual(kindContextName("ikowork"), "kind-ikowork");
    assert.strictEqual(kindControlPlaneHost("ikowork"), "ikowork-control-plane");
  });
  it("wants pinned image references", () => {
    assert.strictEqual(checkImageRef("containers.intersystems.com/intersystems/iris-community:2025.1"), undefined);
    assert.strictEqual(checkImageRef(`kindest/node:v1.34.0@sha256:${"a".repeat(64)}`), undefined);
    assert.strictEqual(checkImageRef(`busybox@sha256:${"b".repeat(64)}`), undefined);
    assert.strictEqual(
      checkImageRef("busybox"),
      'has no tag; pin a version, e.g. ":2025.1" (an untagged image means latest)',
    );
    assert.strictEqual(checkImageRef("repo/iris:latest"), 'uses the tag "latest"; pin a version, e.g. ":2025.1"');
    assert.match(checkImageRef("Bad Image:1") as string, /not a valid image reference/);
  });
  it("parses CIDRs and detects overlaps", () => {
    assert.deepStrictEqual(parseCidr("10.244.1.7/16"), { network: ((10 << 24) >>> 0) + (244 << 16), prefix: 16 });
    assert.strictEqual(parseCidr("10.300.0.0/16"), undefined);
    assert.strictEqual(parseCidr("10.0.0.0/33"), undefined);
    assert.strictEqual(checkCidr("10.0.0.0/8"), undefined);
    assert.ok(checkCidr("10.0.0.0"));
    assert.strictEqual(cidrsOverlap("10.244.0.0/16", "10.244.128.0/17"), true);
    assert.strictEqual(cidrsOverlap("10.244.0.0/16", "10.245.0.0/16"), false);
    assert.strictEqual(cidrsOverlap("0.0.0.0/0", "192.168.0.0/24"), true);
  });
});

describe("names: boundaries the mutation run found untested (components/names)", () => {
  it("splitImageRef: a digest or tag at the very start, a registry port, a tag only after the last '/'", () => {
    assert.deepStrictEqual(splitImageRef("@sha256:abc"), { name: "", digest: "sha256:abc" });
    assert.deepStrictEqual(splitImageRef(":1"), { name: "", tag: "1" });
    assert.deepStrictEqual(splitImageRef("r:5000/a/b"), { name: "r:5000/a/b" });
    assert.deepStrictEqual(splitImageRef("r:5000/a/b:1.0@sha256:d"), {
      name: "r:5000/a/b",
      tag: "1.0",
      digest: "sha256:d",
    });
    assert.deepStrictEqual(splitImageRef("a/b:1"), { name: "a/b", tag: "1" });
    assert.deepStrictEqual(splitImageRef("/b:1"), { name: "/b", tag: "1" });
  });

  it("chartImageValues: a name starting with '/' has an empty registry; no '/' gives nothing", () => {
    assert.deepStrictEqual(chartImageValues("/repo:1"), { registry: "", repository: "repo", tag: "1" });
    assert.strictEqual(chartImageValues("repo:1"), undefined);
    assert.deepStrictEqual(chartImageValues("r:5000/a/b:2@sha256:d"), {
      registry: "r:5000",
      repository: "a/b",
      tag: "2@sha256:d",
    });
  });

  it("parseCidr: octet 255 and prefix 32 are the largest; anything around the address refused; the network masked", () => {
    assert.deepStrictEqual(parseCidr("255.255.255.255/32"), { network: 0xffffffff, prefix: 32 });
    assert.deepStrictEqual(parseCidr("10.244.1.7/16"), { network: (10 * 2 ** 24 + 244 * 2 ** 16) >>> 0, prefix: 16 });
    assert.deepStrictEqual(parseCidr("192.168.0.0/0"), { network: 0, prefix: 0 });
    assert.deepStrictEqual(parseCidr("1.2.3.4/31"), {
      network: (2 ** 24 + 2 * 2 ** 16 + 3 * 2 ** 8 + 4) >>> 0,
      prefix: 31,
    });
    for (const bad of ["256.0.0.0/8", "1.2.3.4/33", "x1.2.3.4/8", "1.2.3.4/8x", "1.2.3.1234/8", "1.2.3.4/123"])
      assert.strictEqual(parseCidr(bad), undefined, bad);
  });

  it("cidrsOverlap: by the shorter prefix; /0 overlaps everything; a malformed side never overlaps", () => {
    assert.strictEqual(cidrsOverlap("10.0.0.0/8", "10.1.0.0/16"), true);
    assert.strictEqual(cidrsOverlap("10.1.0.0/16", "10.2.0.0/16"), false);
    assert.strictEqual(cidrsOverlap("0.0.0.0/0", "192.168.1.0/24"), true);
    assert.strictEqual(cidrsOverlap("10.0.0.0/8", "nope"), false);
    assert.strictEqual(cidrsOverlap("nope", "10.0.0.0/8"), false);
  });

  it("checkDns1123Subdomain: 253 characters pass, 254 are refused with the count; empty refused", () => {
    const label = "a".repeat(63);
    const at253 = [label, label, label, "a".repeat(61)].join(".");
    assert.strictEqual(at253.length, 253);
    assert.strictEqual(checkDns1123Subdomain(at253), undefined);
    assert.strictEqual(checkDns1123Subdomain(`${at253}a`), "is 254 characters; a DNS-1123 subdomain has at most 253");
    assert.strictEqual(checkDns1123Subdomain(""), "must not be empty");
  });

  it("checkWholeNumber: a number-like string is not a number", () => {
    assert.strictEqual(checkWholeNumber(1, 3)("2"), "must be a whole number from 1 to 3");
    assert.strictEqual(checkWholeNumber(1, 3)(2), undefined);
  });
});
