import * as assert from "assert";
import {
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
