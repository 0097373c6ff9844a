import * as assert from "assert";
import { isProduction, unprotectedProductionGke } from "../../policy/rules/gke";
import { PolicyResource, UNKNOWN } from "../../policy/rules/values";

const gke = (props: PolicyResource["props"]): PolicyResource => ({
  type: "gcp:container/cluster:Cluster",
  name: "ikogke-gke",
  urn: "urn:g",
  props: { name: "ikogke", ...props },
});
const PROD = new Map([["iko-plus:environment", "production"]]);

describe("policy production-gke-deletion-protection", () => {
  it("reads the production mark from the stack tag iko-plus:environment", () => {
    assert.strictEqual(isProduction(PROD), true);
    assert.strictEqual(isProduction(new Map([["iko-plus:environment", "staging"]])), false);
    assert.strictEqual(isProduction(new Map([["environment", "production"]])), false);
    assert.strictEqual(isProduction(new Map()), false);
  });
  it("fires on deletionProtection false in a production stack", () => {
    assert.deepStrictEqual(unprotectedProductionGke(gke({ deletionProtection: false }), PROD), [
      'gcp:container/cluster:Cluster "ikogke-gke" (GKE cluster "ikogke"): input deletionProtection is false in a production stack (stack tag iko-plus:environment=production); set deletionProtection to true (config clusters[].gke.deletionProtection: true), or remove the tag if this stack is not production',
    ]);
  });
  it("stays silent when protected, unset (the provider's default is on), unknown, outside production, or for other types", () => {
    assert.deepStrictEqual(unprotectedProductionGke(gke({ deletionProtection: true }), PROD), []);
    assert.deepStrictEqual(unprotectedProductionGke(gke({}), PROD), []);
    assert.deepStrictEqual(unprotectedProductionGke(gke({ deletionProtection: UNKNOWN }), PROD), []);
    assert.deepStrictEqual(unprotectedProductionGke(gke({ deletionProtection: false }), new Map()), []);
    assert.deepStrictEqual(
      unprotectedProductionGke(
        { ...gke({ deletionProtection: false }), type: "gcp:container/nodePool:NodePool" },
        PROD,
      ),
      [],
    );
  });
});
