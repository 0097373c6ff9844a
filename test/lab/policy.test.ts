/**
 * The policy pack (policy/) run by the lab's real Pulumi CLI: `pulumi preview --policy-pack
 * policy`. A program that breaks every mandatory rule (test/fixtures/policy-bad), in a stack tagged
 * iko-plus:environment=production, fails with each rule's message, and its twins that keep the
 * rules stay silent; previews of the lab stacks (lab-wfh, lab-fleet) report no violation. Three
 * previews in all (each costs seconds on 2 cores). The bad program's GKE clusters go to a
 * stand-in gcp plugin (the lab has no real one; test/fixtures/policy-bad/README.md).
 */
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import { labKubeconfigPath } from "./kube";
import { PulumiCli, REPO, RunResult } from "./pulumi-cli";
import { LabStack, labFleetClusters, labKarmada } from "./stacks";

const POLICY_PACK = path.join(REPO, "policy");
const BAD_DIR = path.join(REPO, "test/fixtures/policy-bad");
const BAD_STACK = "labtest-policy-bad";
const FAKE_GCP_PLUGIN_DIR = path.join(BAD_DIR, "fake-gcp-provider");

interface Violation {
  level: string;
  policy: string;
  type: string;
  name: string;
  message: string;
}

/**
 * The violations in a preview's "Policies:" section. Each is printed as
 * `- [level]  policy  (type: name)`, then the policy's description, then the message.
 */
export function parseViolations(output: string): Violation[] {
  const lines = output.split("\n");
  const out: Violation[] = [];
  lines.forEach((line, i) => {
    const m = /^\s+- \[(\w+)\]\s+(\S+)\s+\((.+): (.+)\)\s*$/.exec(line);
    if (m) out.push({ level: m[1], policy: m[2], type: m[3], name: m[4], message: (lines[i + 2] ?? "").trim() });
  });
  return out;
}

function tail(res: RunResult): string {
  return (res.stdout + "\n" + res.stderr).split("\n").slice(-80).join("\n");
}

describe("lab: policy pack (pulumi preview --policy-pack policy)", function () {
  this.timeout(10 * 60_000);
  let cli: PulumiCli;
  before(() => {
    cli = new PulumiCli();
  });
  after(() => cli?.dispose());

  describe("a program that breaks the rules (test/fixtures/policy-bad)", () => {
    let res: RunResult;
    let violations: Violation[];
    const of = (policy: string) => violations.filter((v) => v.policy === policy);

    // Its own CLI: the stand-in gcp plugin is on PATH for this program only.
    let badCli: PulumiCli;

    before(async () => {
      badCli = new PulumiCli();
      badCli.env.PATH = [FAKE_GCP_PLUGIN_DIR, badCli.env.PATH ?? ""].join(path.delimiter);
      await badCli.ok(["stack", "init", BAD_STACK, "--secrets-provider", "passphrase"], { cwd: BAD_DIR });
      await badCli.ok(["stack", "tag", "set", "iko-plus:environment", "production", "--stack", BAD_STACK], {
        cwd: BAD_DIR,
      });
      res = await badCli.run(["preview", "--stack", BAD_STACK, "--policy-pack", POLICY_PACK], { cwd: BAD_DIR });
      violations = parseViolations(res.stdout);
    });
    after(async () => {
      await badCli.run(["stack", "rm", "--yes", "--force", "--stack", BAD_STACK], { cwd: BAD_DIR });
      fs.rmSync(path.join(BAD_DIR, `Pulumi.${BAD_STACK}.yaml`), { force: true });
      badCli?.dispose();
    });

    it("fails the preview, every violation mandatory, no advisory about unknown values", () => {
      assert.notStrictEqual(res.code, 0, tail(res));
      assert.match(res.stdout, /❌ iko-plus@v0\.1\.0 \(local: .*policy\)/);
      assert.ok(violations.length > 0, tail(res));
      assert.deepStrictEqual(
        violations.filter((v) => v.level !== "mandatory"),
        [],
      );
      assert.doesNotMatch(res.stdout + res.stderr, /can't run policy/);
    });

    it("no-plain-credentials: fires on a plain provider kubeconfig, a private key and a bearer token; silent on secret inputs", () => {
      const found = of("no-plain-credentials");
      assert.deepStrictEqual(found.map((v) => `${v.type}: ${v.name}`).sort(), [
        "kubernetes:core/v1:ConfigMap: leaky-config",
        "kubernetes:core/v1:ConfigMap: leaky-config",
        "pulumi:providers:kubernetes: plain-kubeconfig-provider",
      ]);
      const fix =
        "make it a secret: wrap the value in pulumi.secret() (or read it with config.requireSecret), or keep it in a Kubernetes Secret";
      const messages = found.map((v) => v.message).sort();
      assert.match(
        messages[0],
        new RegExp(
          `^kubernetes:core/v1:ConfigMap "leaky-config": input data\\.note holds a token \\(JWT\\) in plain text, "Auth…" \\(\\d+ characters, masked\\); ${escape(fix)}$`,
        ),
      );
      assert.match(
        messages[1],
        new RegExp(
          `^kubernetes:core/v1:ConfigMap "leaky-config": input data\\["tls\\.key"\\] holds a private key in plain text, "----…" \\(\\d+ characters, masked\\); ${escape(fix)}$`,
        ),
      );
      assert.match(
        messages[2],
        new RegExp(
          `^pulumi:providers:kubernetes "plain-kubeconfig-provider": input kubeconfig holds a kubeconfig in plain text, "apiV…" \\(\\d+ characters, masked\\); ${escape(fix)}$`,
        ),
      );
      assert.doesNotMatch(
        res.stdout + res.stderr,
        /BEGIN PRIVATE KEY|eyJ[\w-]{10,}\.eyJ/,
        "no credential in the output",
      );
      // The same kubeconfig and key as secret inputs: silent.
      assert.deepStrictEqual(
        violations.filter((v) => ["sealed-config", "secret-kubeconfig-provider", "iris-key"].includes(v.name)),
        [],
      );
    });

    it("pinned-images: fires on an untagged and a latest container, not on the pinned one", () => {
      assert.deepStrictEqual(
        of("pinned-images")
          .map((v) => v.message)
          .sort(),
        [
          'kubernetes:apps/v1:Deployment "unpinned-web": input spec.template.spec.containers[0].image is "docker.io/library/nginx", which has no tag (an untagged image means latest); pin a version tag or a digest, e.g. "docker.io/library/nginx:<version>" or "…@sha256:<digest>"',
          'kubernetes:apps/v1:Deployment "unpinned-web": input spec.template.spec.initContainers[0].image is "docker.io/library/busybox:latest", which uses the tag "latest"; pin a version tag or a digest, e.g. "docker.io/library/busybox:<version>" or "…@sha256:<digest>"',
        ],
      );
    });

    it("licensed-iris-needs-license-key: fires without a key and with a key Secret not in the stack; silent with one, and for community", () => {
      assert.deepStrictEqual(
        of("licensed-iris-needs-license-key")
          .map((v) => `${v.name}: ${v.message}`)
          .sort(),
        [
          'dangling-key-iris: kubernetes:intersystems.com/v1alpha1:IrisCluster "dangling-key-iris" (IrisCluster default/dangling-key-iris) runs the licensed image spec.topology.data.image "containers.intersystems.com/intersystems/irishealth:2025.1" and spec.licenseKeySecret.name is "iris-key-missing", but no Secret default/iris-key-missing is declared in this stack on the same cluster; declare it (from a secret config value) in this stack, or use an iris-community image',
          'keyless-iris: kubernetes:intersystems.com/v1alpha1:IrisCluster "keyless-iris" (IrisCluster default/keyless-iris) runs the licensed image spec.topology.data.image "containers.intersystems.com/intersystems/iris:2025.1" but spec.licenseKeySecret.name is not set; set it to a Secret holding the license key (iris.key) declared in this stack (config irisClusters[].licenseKeySecret or federatedIrisClusters[].licenseKeyConfig), or use an iris-community image',
        ],
      );
    });

    it("placement-names-joined-clusters: fires on names that are not joined, in a placement and in an override, and on label selectors that are invalid or select no joined Cluster", () => {
      assert.deepStrictEqual(
        of("placement-names-joined-clusters")
          .map((v) => v.message)
          .sort(),
        [
          'kubernetes:policy.karmada.io/v1alpha1:OverridePolicy "phantom-override" (default/phantom-override): spec.overrideRules[0].targetCluster.clusterNames[0] is "ikophantom", which is not a Karmada Cluster joined in this stack through the same Karmada (joined: ikoclone); join that cluster in this stack (clusters[].join) or remove the name',
          'kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy "ghost-propagate" (default/ghost-propagate): spec.placement.clusterAffinity.clusterNames[1] is "ikoghost", which is not a Karmada Cluster joined in this stack through the same Karmada (joined: ikoclone); join that cluster in this stack (clusters[].join) or remove the name',
          'kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy "nowhere-propagate" (default/nowhere-propagate): spec.placement.clusterAffinity selects no Karmada Cluster joined in this stack through the same Karmada (joined: ikoclone {region=a}), so it places nothing; fix its labelSelector (matchLabels, matchExpressions) or join a cluster with those labels (clusters[].join.labels)',
          'kubernetes:policy.karmada.io/v1alpha1:PropagationPolicy "set-based-propagate" (default/set-based-propagate): spec.placement.clusterAffinity.labelSelector.matchLabels.region is "in (a,c)", which is a set-based selector written as a label value, which selects nothing; write it as matchExpressions: [{key: region, operator: In, values: [a, c]}]',
        ],
      );
    });

    it("remote-iko-webhooks-off: fires on a post-rendered IKO release with the mutating webhook on", () => {
      assert.deepStrictEqual(
        of("remote-iko-webhooks-off").map((v) => v.message),
        [
          'kubernetes:helm.sh/v3:Release "remote-iko" (Helm release "iko", chart "../iko-chart/iris-operator") runs IKO in remote mode (it has a postrender) with admission webhooks on: values.apiserver.enableMutatingWebhook is true; set values.apiserver.enableMutatingWebhook and values.apiserver.enableValidatingWebhook to false (IkoHomeOperator does so in remote mode; do not turn them on through iko.values)',
        ],
      );
    });

    it("production-gke-deletion-protection: fires on a GKE cluster with deletion protection off in the production-tagged stack; silent when on or unset", () => {
      assert.deepStrictEqual(
        of("production-gke-deletion-protection").map((v) => v.message),
        [
          'gcp:container/cluster:Cluster "unprotected-gke" (GKE cluster "unprotected-gke"): input deletionProtection is false in a production stack (stack tag iko-plus:environment=production); set deletionProtection to true (config clusters[].gke.deletionProtection: true), or remove the tag if this stack is not production',
        ],
      );
    });

    it("cilium-mesh-unique-clusters: fires on a ClusterMesh member repeating another's cluster id; silent for a release outside the mesh", () => {
      assert.deepStrictEqual(
        of("cilium-mesh-unique-clusters").map((v) => `${v.name}: ${v.message}`),
        [
          'mesh-c-cni-cilium: kubernetes:helm.sh/v3:Release "mesh-c-cni-cilium" (cluster "mesh-c") joins a Cilium ClusterMesh with values.cluster.id 11, which is also kubernetes:helm.sh/v3:Release "mesh-a-cni-cilium" (cluster "mesh-a")\'s Cilium cluster id; give every cluster its own id from 1 to 255',
        ],
      );
    });

    it("production-clusters-protected: fires on an unprotected kind cluster, GKE cluster and Karmada join in the production-tagged stack; silent on protected ones; the advisory twin stays silent there", () => {
      assert.deepStrictEqual(
        of("production-clusters-protected")
          .map((v) => `${v.type}: ${v.name}`)
          .sort(),
        [
          "gcp:container/cluster:Cluster: unprotected-gke",
          "kubernetes:cluster.karmada.io/v1alpha1:Cluster: ikoclone-cluster",
          "pulumi-nodejs:dynamic/kind:Cluster: unprotected-kind",
        ],
      );
      assert.match(
        of("production-clusters-protected").find((v) => v.name === "unprotected-kind")?.message ?? "",
        /^pulumi-nodejs:dynamic\/kind:Cluster "unprotected-kind" \(kind cluster "unprotected-kind"\) is not protected: .*KindCluster's protect arg\./,
      );
      assert.deepStrictEqual(of("clusters-protected"), []);
    });

    it("reports nothing else (17 violations in all)", () => {
      assert.strictEqual(violations.length, 17, violations.map((v) => `${v.policy} ${v.name}`).join("\n"));
    });
  });

  describe("the lab stacks", () => {
    const stacks: LabStack[] = [];
    after(async () => {
      for (const s of stacks) await s.remove();
    });

    /** A preview that passes the pack; returns its violations as `level policy name`. */
    async function previewPasses(stack: LabStack): Promise<string[]> {
      const res = await cli.run(["preview", "--stack", stack.name, "--policy-pack", "policy"]);
      assert.strictEqual(res.code, 0, tail(res));
      assert.match(res.stdout, /(✅|⚠️) iko-plus@v0\.1\.0 \(local: policy\)/, tail(res));
      assert.doesNotMatch(res.stdout + res.stderr, /can't run policy/);
      return parseViolations(res.stdout).map((v) => `${v.level} ${v.policy} ${v.name}`);
    }
    async function previewClean(stack: LabStack): Promise<void> {
      assert.deepStrictEqual(await previewPasses(stack), []);
    }

    it("lab-wfh: a preview reports no violation", async () => {
      const stack = new LabStack(cli, "labtest-policy-wfh", "Pulumi.lab-wfh.yaml", {
        "iko-plus:home": { name: "ikohome", kubeconfigPath: labKubeconfigPath("ikohome") },
        "iko-plus:work": { name: "ikowork", kubeconfigPath: labKubeconfigPath("ikowork") },
      });
      stacks.push(stack);
      await stack.init();
      await previewClean(stack);
    });

    it("lab-fleet, ikoclone protected by config (clusters[0].protect): the preview passes with one advisory, clusters-protected on ikogke's join only", async () => {
      const clusters = labFleetClusters().map((c) => ({
        ...c,
        ...(c.name === "ikoclone" ? { protect: true } : {}),
      }));
      const stack = new LabStack(cli, "labtest-policy-fleet", "Pulumi.lab-fleet.yaml", {
        "iko-plus:clusters": clusters,
        "iko-plus:karmada": labKarmada(),
      });
      stacks.push(stack);
      await stack.init();
      await cli.ok([
        "config",
        "set",
        "--secret",
        "--stack",
        stack.name,
        "irisLicenseKey",
        "IRIS-LICENSE-KEY-policy-test",
      ]);
      await cli.ok([
        "config",
        "set",
        "--secret",
        "--stack",
        stack.name,
        "shhhhSecretData",
        JSON.stringify({ password: "policy-test" }),
      ]);
      assert.deepStrictEqual(await previewPasses(stack), ["advisory clusters-protected ikogke-member-cluster"]);
    });
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
