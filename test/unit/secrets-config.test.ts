/**
 * Edge: every program's config errors (wfh, fleet, region). Fed by the one list of secrets
 * (components/names/secrets.ts): each secret config key, and each key a config field names as
 * holding a secret, is given its sentinel under a misspelled key, with a wrong type and as a
 * malformed value; and every field of a top-level key stored as a secret is given one under an
 * unknown key, with a wrong type and where a component check rejects it. No error text may show it.
 */
import * as assert from "assert";
import * as path from "path";
import { SecretEntry, isSecretName, secretsAt } from "../../components/names/secrets";
import { GeneratedCa, generateFleetCa } from "../../components/tls";
import { ConfigError, validateConfig } from "../../stacks";
import { kubeconfigWith, sampleOf, sentinelOf, shownSentinels } from "./secret-sentinels";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
const IMAGE = "containers.intersystems.com/intersystems/iris:2025.1";
const P = "iko-plus:";

type Raw = Record<string, unknown>;
type Program = "wfh" | "fleet" | "region";

let ca: GeneratedCa;

/**
 * A valid config of each program that uses every secret of the list the program reads, each
 * held by its own config key (stored as a secret: `secretKeys`).
 */
function bases(): Record<Program, { raw: Raw; secretKeys: string[] }> {
  const keys = (...k: string[]) => k.map((x) => `${P}${x}`);
  return {
    wfh: {
      raw: {
        program: "wfh",
        home: { name: "ikohome", source: "kubeconfig" },
        work: { name: "ikowork", source: "kubeconfig" },
        homeKubeconfig: kubeconfigWith("plain-home"),
        workKubeconfig: kubeconfigWith("plain-work"),
        iko: { chartPath: CHART, crdManifestPath: CRD },
        irisClusters: [{ name: "iris-a", image: IMAGE, licenseKeySecret: "iris-key-secret" }],
      },
      secretKeys: keys("homeKubeconfig", "workKubeconfig"),
    },
    fleet: {
      raw: {
        program: "fleet",
        clusters: [
          { name: "ikofett", kubeconfigSecret: "fettKubeconfigText", iko: false, join: true },
          { name: "ikoclone", kubeconfigSecret: "cloneKubeconfigText", join: true },
        ],
        fettKubeconfigText: kubeconfigWith("plain-fett", "https://10.1.0.1:6443"),
        cloneKubeconfigText: kubeconfigWith("plain-clone", "https://10.1.0.2:6443"),
        karmada: { mode: "existing", kubeconfigSecret: "karmadaKubeconfigText" },
        karmadaKubeconfigText: kubeconfigWith("plain-karmada", "https://10.1.0.3:5443"),
        iko: { chartPath: CHART, crdManifestPath: CRD },
        fleetTls: { members: ["ikoclone"], ca: { certificateConfig: "fleetCaCert", keyConfig: "fleetCaKey" } },
        fleetCaCert: ca.certPem,
        fleetCaKey: ca.keyPem,
        federatedIrisClusters: [
          {
            name: "federated-iris",
            image: IMAGE,
            licenseKeyConfig: "irisLicenseKeyText",
            placement: { clusterNames: ["ikoclone"] },
            tls: true,
          },
        ],
        irisLicenseKeyText: "plain-license",
        fleetSecrets: [{ name: "app-secret", dataKey: "appSecretData", clusterNames: ["ikoclone"] }],
        appSecretData: { password: "plain-password" },
      },
      secretKeys: keys(
        "fettKubeconfigText",
        "cloneKubeconfigText",
        "karmadaKubeconfigText",
        "fleetCaKey",
        "irisLicenseKeyText",
        "appSecretData",
      ),
    },
    region: {
      raw: {
        program: "region",
        fleetStack: "dr-fleet",
        region: "us-central1",
        zones: ["us-central1-a"],
        member: { name: "iris-us-central1", kubeconfigSecret: "memberKubeconfigText", labels: { dr: "iris" } },
        memberKubeconfigText: kubeconfigWith("plain-member"),
        iko: { chartPath: CHART, crdManifestPath: CRD },
      },
      secretKeys: keys("memberKubeconfigText"),
    },
  };
}

/** The error text of a config (empty when it is valid): a ConfigError's, or any other error's message. */
function errorText(raw: Raw, secretKeys: string[]): string {
  try {
    validateConfig(raw, secretKeys, raw.program === "region" ? "dr-us-central1" : undefined);
    return "";
  } catch (e) {
    return e instanceof ConfigError ? e.problems.join("\n") : `${(e as Error).stack ?? String(e)}`;
  }
}

/** The values at a path with `[]` (every item): `clusters[].kubeconfigSecret` of a config. */
function valuesAt(v: unknown, p: string): unknown[] {
  let cur: unknown[] = [v];
  for (const seg of p.split(".")) {
    const list = seg.endsWith("[]");
    const key = list ? seg.slice(0, -2) : seg;
    cur = cur.flatMap((c) => {
      const next = c !== null && typeof c === "object" ? (c as Raw)[key] : undefined;
      return list ? (Array.isArray(next) ? next : []) : next === undefined ? [] : [next];
    });
  }
  return cur;
}

/** The config keys holding an entry's secret in a program's base: the key itself, or the keys its field names. */
function heldAt(e: SecretEntry, raw: Raw): string[] {
  if (e.place === "config") return raw[e.path] === undefined ? [] : [e.path];
  return valuesAt(raw, e.path).filter((v): v is string => typeof v === "string");
}

/** Sets every value at a path with `[]` (every item) to `value`. */
function setRefs(raw: Raw, p: string, value: unknown): void {
  const segs = p.split(".");
  const walk = (c: unknown, i: number): void => {
    if (c === null || typeof c !== "object") return;
    const seg = segs[i];
    const list = seg.endsWith("[]");
    const key = list ? seg.slice(0, -2) : seg;
    const next = (c as Raw)[key];
    if (i === segs.length - 1) {
      if (next !== undefined) (c as Raw)[key] = value;
      return;
    }
    if (list) (Array.isArray(next) ? next : []).forEach((x) => walk(x, i + 1));
    else walk(next, i + 1);
  };
  walk(raw, 0);
}

const copy = (raw: Raw): Raw => JSON.parse(JSON.stringify(raw)) as Raw;
const PROGRAMS: Program[] = ["wfh", "fleet", "region"];
const CONFIG_SECRETS = [...secretsAt("config"), ...secretsAt("config ref")];

/** Wrong types for a value: what a secret config key may hold by mistake, each carrying the sentinel. */
function wrongTypes(s: string, sample: unknown): [string, unknown][] {
  return [
    ["a list", [s]],
    ["a number-like text in an object", { value: s, n: 1 }],
    ...(typeof sample === "string"
      ? ([["an object", { text: s }]] as [string, unknown][])
      : ([
          ["text", s],
          ["an object of non-strings", { password: [s] }],
        ] as [string, unknown][])),
  ];
}

describe("unit (pure): config errors never show a secret of the list", () => {
  before(() => {
    ca = generateFleetCa({ keyBits: 2048 });
  });

  it("unit (pure): the base configs are valid, and every config secret of the list is used by one", () => {
    const b = bases();
    for (const p of PROGRAMS) assert.strictEqual(errorText(b[p].raw, b[p].secretKeys), "", p);
    for (const e of CONFIG_SECRETS)
      assert.ok(
        PROGRAMS.some((p) => heldAt(e, b[p].raw).length > 0),
        `${e.place} ${e.path}: no base config here uses it; add it to a base in bases()`,
      );
  });

  for (const e of CONFIG_SECRETS) {
    it(`unit (pure): ${e.place} ${e.path}: misspelled, of a wrong type or malformed, its value never shows`, () => {
      const b = bases();
      const s = sentinelOf(e);
      const sample = sampleOf(e);
      let cases = 0;
      for (const p of PROGRAMS) {
        const { raw: base, secretKeys } = b[p];
        for (const key of heldAt(e, base)) {
          const variants: [string, Raw, string[]][] = [];
          // The secret under a misspelled key, stored as a secret.
          const typo = copy(base);
          typo[`${key}Typo`] = sample;
          variants.push(["misspelled, stored as a secret", typo, [...secretKeys, `${P}${key}Typo`]]);
          // A misspelling that keeps the secret-looking name, not stored as a secret.
          const namedKey = `x${key.charAt(0).toUpperCase()}${key.slice(1)}`;
          const named = copy(base);
          named[namedKey] = sample;
          if (isSecretName(namedKey)) variants.push(["misspelled, named as a secret", named, secretKeys]);
          for (const [what, v] of wrongTypes(s, sample)) {
            const wrong = copy(base);
            wrong[key] = v;
            variants.push([`of a wrong type (${what})`, wrong, secretKeys]);
          }
          const malformed = copy(base);
          malformed[key] = typeof sample === "string" ? `not: [valid ${s}` : s;
          variants.push(["malformed", malformed, secretKeys]);
          if (e.place === "config ref") {
            // The secret itself put in the field that should name its key, as text or as an object
            // (a sample shaped as a key name could be one: that is the not-set case above).
            for (const v of [sample, kubeconfigWith(s), { text: s }].filter((x) => !/^[\w.-]+$/.test(String(x)))) {
              const inRef = copy(base);
              setRefs(inRef, e.path, v);
              variants.push(["put in the field that names its key", inRef, secretKeys]);
            }
          }
          for (const [what, raw, keys] of variants) {
            cases++;
            const text = errorText(raw, keys);
            assert.deepStrictEqual(shownSentinels(text), [], `${p} ${key} ${what}: ${text}`);
            if (what.startsWith("misspelled"))
              assert.match(text, /is not a known key/, `${p} ${key} ${what}: the misspelled key is reported`);
          }
        }
      }
      assert.ok(cases > 0, "some program reads it");
    });
  }

  /**
   * Every object or list node of a base config, and every scalar leaf, as a JSON path below its
   * top-level key: where a sentinel goes under an unknown key, in place of a value, or as a
   * wrong-typed value.
   */
  function nodes(v: unknown, at: (string | number)[] = []): { path: (string | number)[]; leaf: boolean }[] {
    if (Array.isArray(v)) return [{ path: at, leaf: false }, ...v.flatMap((x, i) => nodes(x, [...at, i]))];
    if (v !== null && typeof v === "object")
      return [{ path: at, leaf: false }, ...Object.entries(v).flatMap(([k, x]) => nodes(x, [...at, k]))];
    return [{ path: at, leaf: true }];
  }
  function setAt(raw: Raw, p: (string | number)[], f: (old: unknown) => unknown): void {
    let cur = raw as Record<string | number, unknown>;
    for (const k of p.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
    cur[p[p.length - 1]] = f(cur[p[p.length - 1]]);
  }

  for (const p of PROGRAMS) {
    it(`unit (pure): ${p}: a top-level key stored as a secret shows no value of it in any problem (unknown keys, wrong types, component checks)`, () => {
      const { raw: base, secretKeys } = bases()[p];
      const s = "SNTLstoredWholeAsSecretQ7x";
      let reported = 0;
      let cases = 0;
      for (const top of Object.keys(base).filter((k) => k !== "program" && !secretKeys.includes(`${P}${k}`))) {
        const keys = [...secretKeys, `${P}${top}`];
        for (const n of nodes(base[top], [top])) {
          const variants: Raw[] = [];
          if (n.leaf) {
            for (const v of [s, { v: s }, [s], `${s}/..:${s.toUpperCase()}`]) {
              const raw = copy(base);
              setAt(raw, n.path, () => v);
              variants.push(raw);
            }
          } else {
            const raw = copy(base);
            setAt(raw, n.path, (old) => (Array.isArray(old) ? [...old, s] : { ...(old as Raw), unknownField: s }));
            variants.push(raw);
          }
          for (const raw of variants) {
            cases++;
            const text = errorText(raw, keys);
            if (text) reported++;
            // Problems under the secret key show nothing of it. (Problems of other keys may cite a
            // cluster name from it, as in "use one of: ..."; names are in every URN anyway.)
            const own = text.split("\n").filter((l) => l.startsWith(`${P}${top}.`) || l.startsWith(`${P}${top}[`));
            assert.ok(!own.join("\n").includes(s), `${p} ${n.path.join(".")} stored as a secret: ${text}`);
          }
        }
      }
      assert.ok(reported > cases / 2, `most variants are reported (${reported} of ${cases})`);
    });
  }
});
