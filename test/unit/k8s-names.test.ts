/**
 * The name and label rules (components/names, components/karmada/selectors.ts) against
 * Kubernetes' own validation (k8s.io/apimachinery), on a generated corpus of valid and invalid
 * strings. The verdicts were computed by test/fixtures/k8s-names (Go) and are committed, so this
 * test needs no Go; its README says how to regenerate them.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import {
  CILIUM_NAME_MAX,
  KARMADA_NAME_MAX,
  checkClusterName,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkKarmadaClusterName,
} from "../../components/names";
import { checkLabelKey, checkLabelValue } from "../../components/karmada/selectors";

interface Verdict {
  value: string;
  dns1123Label: boolean;
  dns1123Subdomain: boolean;
  qualifiedName: boolean;
  labelValue: boolean;
}

const FIXTURE = path.resolve(__dirname, "../fixtures/k8s-names");
const file = JSON.parse(fs.readFileSync(path.join(FIXTURE, "verdicts.json"), "utf8")) as {
  apimachinery: string;
  verdicts: Verdict[];
};
const corpus = JSON.parse(fs.readFileSync(path.join(FIXTURE, "corpus.json"), "utf8")) as string[];

/** Our rule (true: accepted) beside Kubernetes' verdict, for every string where they differ. */
function disagreements(ours: (v: string) => boolean, theirs: (v: Verdict) => boolean): string[] {
  return file.verdicts
    .filter((v) => ours(v.value) !== theirs(v))
    .map((v) => `${JSON.stringify(v.value)}: ours ${ours(v.value)}, Kubernetes ${theirs(v)}`);
}

describe(`unit (pure): name and label rules agree with Kubernetes (k8s.io/apimachinery ${file.apimachinery})`, () => {
  it("unit (pure): the verdicts cover the whole corpus, with valid and invalid strings of each rule and the edges", () => {
    assert.deepStrictEqual(
      file.verdicts.map((v) => v.value),
      corpus,
      "verdicts.json is of corpus.json: run `go run . verdicts` (README)",
    );
    for (const rule of ["dns1123Label", "dns1123Subdomain", "qualifiedName", "labelValue"] as const) {
      assert.ok(file.verdicts.some((v) => v[rule]) && file.verdicts.some((v) => !v[rule]), rule);
    }
    for (const edge of ["", "-ab", "ab-", ".ab", "ab.", "_ab", "ab_", "Aab", "é", "a".repeat(63), "a".repeat(64)])
      assert.ok(corpus.includes(edge), JSON.stringify(edge));
  });

  it("unit (pure): checkDns1123Label is IsDNS1123Label", () => {
    assert.deepStrictEqual(
      disagreements(
        (s) => checkDns1123Label(s) === undefined,
        (v) => v.dns1123Label,
      ),
      [],
    );
  });

  it("unit (pure): checkDns1123Subdomain is IsDNS1123Subdomain", () => {
    assert.deepStrictEqual(
      disagreements(
        (s) => checkDns1123Subdomain(s) === undefined,
        (v) => v.dns1123Subdomain,
      ),
      [],
    );
  });

  it("unit (pure): checkLabelKey is IsQualifiedName (a label key)", () => {
    assert.deepStrictEqual(
      disagreements(
        (s) => checkLabelKey(s) === undefined,
        (v) => v.qualifiedName,
      ),
      [],
    );
  });

  it("unit (pure): checkLabelValue is IsValidLabelValue", () => {
    assert.deepStrictEqual(
      disagreements(
        (s) => checkLabelValue("k", s) === undefined,
        (v) => v.labelValue,
      ),
      [],
    );
  });

  it("unit (pure): cluster and Karmada member names are DNS-1123 labels within their own shorter limits", () => {
    assert.deepStrictEqual(
      disagreements(
        (s) => checkClusterName(s) === undefined,
        (v) => v.dns1123Label && v.value.length <= CILIUM_NAME_MAX,
      ),
      [],
    );
    assert.deepStrictEqual(
      disagreements(
        (s) => checkKarmadaClusterName(s) === undefined,
        (v) => v.dns1123Label && v.value.length <= KARMADA_NAME_MAX,
      ),
      [],
    );
  });
});
