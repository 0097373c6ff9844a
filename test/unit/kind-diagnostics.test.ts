/** What a failed kind-tier Karmada test reads on the host cluster before the clusters are deleted. */
import * as assert from "assert";
import { karmadaDiagnosticReads } from "../kind/tier";

describe("kind tier: Karmada diagnostics on failure (unit)", () => {
  it("reads the pods, then each server's current and previous log tail", () => {
    assert.deepStrictEqual(karmadaDiagnosticReads("karmada-host", ["karmada-apiserver", "karmada-webhook"], 40), [
      ["-n", "karmada-host", "get", "pods", "-o", "wide"],
      ["-n", "karmada-host", "logs", "deploy/karmada-apiserver", "--all-containers", "--tail=40"],
      ["-n", "karmada-host", "logs", "deploy/karmada-apiserver", "--all-containers", "--tail=40", "--previous"],
      ["-n", "karmada-host", "logs", "deploy/karmada-webhook", "--all-containers", "--tail=40"],
      ["-n", "karmada-host", "logs", "deploy/karmada-webhook", "--all-containers", "--tail=40", "--previous"],
    ]);
  });

  it("tails 60 lines unless told", () => {
    assert.ok(
      karmadaDiagnosticReads("ns", ["d"])
        .slice(1)
        .every((args) => args.includes("--tail=60")),
    );
  });
});
