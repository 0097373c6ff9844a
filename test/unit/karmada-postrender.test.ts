/**
 * The Karmada apiserver's readiness probe post-renderer: the pure patch (exact output), the wrapper
 * run as Helm runs it (compiled, and from sources), and KarmadaControlPlane's wiring under mocks.
 */
import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as YAML from "yaml";
import { Registered, installMocks, one, settle } from "./mocks";

const registered: Registered[] = installMocks();
import {
  DEFAULT_APISERVER_READINESS,
  KarmadaControlPlane,
  checkKarmadaControlPlaneArgs,
} from "../../components/karmada";
import {
  karmadaPostRender,
  karmadaPostRenderPatch,
  makeServicesHeadless,
  retimeReadinessProbe,
} from "../../components/karmada/postrender";
import { KindCluster } from "../../components/kind";
import { writePostRenderer } from "../../components/postrender";
import { compiledProject } from "./compiled-project";

const PATCH = {
  deployment: "karmada-apiserver",
  container: "karmada-apiserver",
  timing: { initialDelaySeconds: 1, periodSeconds: 2 },
};
/** What KarmadaControlPlane's post-renderer does by default. */
const PARAMS = { probe: PATCH, headlessServices: ["karmada-aggregated-apiserver"] };

// The chart's karmada-apiserver Deployment as Helm renders it (v1.16.0; v1.18.2 renders the same
// probe and Service; trimmed to what the patch reads), with a Service and a Deployment of the same container name that must pass untouched.
const RENDERED = `---
# Source: karmada/templates/karmada-apiserver.yaml
apiVersion: v1
kind: Service
metadata:
  name: karmada-apiserver
  namespace: karmada-host
spec:
  type: NodePort
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: karmada-apiserver
  namespace: karmada-host
spec:
  template:
    spec:
      containers:
        - name: karmada-apiserver
          image: docker.io/karmada/kube-apiserver:v1.34.1
          livenessProbe:
            failureThreshold: 8
            httpGet: { path: /livez, port: 5443, scheme: HTTPS }
            initialDelaySeconds: 10
            periodSeconds: 10
          readinessProbe:
            failureThreshold: 3
            httpGet: { path: /readyz, port: 5443, scheme: HTTPS }
            initialDelaySeconds: 10
            periodSeconds: 10
            successThreshold: 1
            timeoutSeconds: 15
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: karmada-aggregated-apiserver
spec:
  template:
    spec:
      containers:
        - name: karmada-apiserver
          readinessProbe: { initialDelaySeconds: 1, periodSeconds: 3 }
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: karmada-static-resources
data:
  webhook-configuration.yaml: |-
    metadata:
      labels:
        app: karmada-webhook
        ${"    "}
    webhooks: []
  flag: "on"
---
# Source: karmada/templates/karmada-aggregated-apiserver.yaml
apiVersion: v1
kind: Service
metadata:
  name: karmada-aggregated-apiserver
  namespace: karmada-host
  labels:
    app: karmada-aggregated-apiserver
spec:
  ports:
    - port: 443
      protocol: TCP
      targetPort: 443
  selector:
    app: karmada-aggregated-apiserver
`;

const docs = (text: string) => YAML.parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>);
const container = (doc: Record<string, unknown>) =>
  (doc as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } }).spec.template.spec.containers[0];

describe("Karmada apiserver readiness post-renderer (pure)", () => {
  it("retimes only the apiserver's readiness probe: every other field and document is unchanged", () => {
    const before = docs(RENDERED);
    const after = docs(retimeReadinessProbe(RENDERED, PATCH));
    assert.strictEqual(after.length, 5);
    assert.deepStrictEqual(container(after[1]).readinessProbe, {
      failureThreshold: 3,
      httpGet: { path: "/readyz", port: 5443, scheme: "HTTPS" },
      initialDelaySeconds: 1,
      periodSeconds: 2,
      successThreshold: 1,
      timeoutSeconds: 15,
    });
    assert.deepStrictEqual(
      container(after[1]).livenessProbe,
      container(before[1]).livenessProbe,
      "liveness as the chart has it",
    );
    const rest = (d: Record<string, unknown>) => ({ ...d, spec: undefined });
    assert.deepStrictEqual(rest(after[1]), rest(before[1]));
    assert.deepStrictEqual(after[0], before[0], "the Service passes through");
    assert.deepStrictEqual(after[2], before[2], "another Deployment with a container of that name passes through");
    // Untouched documents keep Helm's text byte for byte (a YAML round trip would add a line to a
    // block scalar with a whitespace-only line, and unquote "on", which Kubernetes reads as true).
    const out = retimeReadinessProbe(RENDERED, PATCH);
    for (const text of RENDERED.split(/^---\n/m).filter((d) => !d.includes("name: karmada-apiserver\n  namespace")))
      if (text.trim() !== "") assert.ok(out.includes(text), `passed through as rendered:\n${text}`);
  });
  it("fails the install when the chart has no such Deployment, container or probe (a changed chart)", () => {
    const message =
      /no Deployment "karmada-apiserver" with a container "karmada-apiserver" that has a readinessProbe in the chart output; is this the Karmada chart\?/;
    assert.throws(() => retimeReadinessProbe("kind: ConfigMap\n", PATCH), message);
    assert.throws(
      () => retimeReadinessProbe(RENDERED, { ...PATCH, container: "apiserver" }),
      /no Deployment "karmada-apiserver" with a container "apiserver"/,
    );
    assert.throws(
      () => retimeReadinessProbe(RENDERED.replace(/ {10}readinessProbe:\n(?: {12}.*\n)+/, ""), PATCH),
      message,
    );
    assert.throws(() => retimeReadinessProbe("a: [\n", PATCH), /the chart rendered invalid YAML/);
  });
  it("makes only the aggregated apiserver's Service headless; every other document passes through as rendered", () => {
    const before = docs(RENDERED);
    const out = makeServicesHeadless(RENDERED, ["karmada-aggregated-apiserver"]);
    const after = docs(out);
    assert.strictEqual(after.length, 5);
    assert.deepStrictEqual(after[4], {
      ...before[4],
      spec: { ...(before[4].spec as object), clusterIP: "None" },
    });
    for (let i = 0; i < 4; i++) assert.deepStrictEqual(after[i], before[i]);
    for (const text of RENDERED.split(/^---\n/m).filter(
      (d) => !d.includes("name: karmada-aggregated-apiserver\n  namespace"),
    ))
      if (text.trim() !== "") assert.ok(out.includes(text), `passed through as rendered:\n${text}`);
    assert.throws(
      () => makeServicesHeadless("kind: ConfigMap\n", ["karmada-aggregated-apiserver"]),
      /no Service "karmada-aggregated-apiserver" in the chart output; is this the Karmada chart\?/,
    );
  });
  it("the default post-render: the probe retimed, then the Service headless; without a probe, only the Service", () => {
    assert.strictEqual(
      karmadaPostRender(RENDERED, PARAMS),
      makeServicesHeadless(retimeReadinessProbe(RENDERED, PATCH), ["karmada-aggregated-apiserver"]),
    );
    assert.strictEqual(
      karmadaPostRender(RENDERED, { headlessServices: ["karmada-aggregated-apiserver"] }),
      makeServicesHeadless(RENDERED, ["karmada-aggregated-apiserver"]),
    );
  });
  it("KarmadaControlPlane's args: the probe's timing must be whole seconds; false is allowed", () => {
    const endpoint = "https://127.0.0.1:32443";
    assert.deepStrictEqual(
      checkKarmadaControlPlaneArgs({
        helm: { endpoint, apiServerReadinessProbe: { initialDelaySeconds: -1, periodSeconds: 0.5 } },
      }),
      [
        ["helm.apiServerReadinessProbe.initialDelaySeconds", -1, "must be a whole number from 0 to 600"],
        ["helm.apiServerReadinessProbe.periodSeconds", 0.5, "must be a whole number from 1 to 600"],
      ],
    );
    assert.deepStrictEqual(checkKarmadaControlPlaneArgs({ helm: { endpoint, apiServerReadinessProbe: false } }), []);
    assert.deepStrictEqual(DEFAULT_APISERVER_READINESS, { initialDelaySeconds: 1, periodSeconds: 2 });
  });
});

describe("Karmada apiserver readiness post-renderer, run as Helm runs it", () => {
  it("compiled, with no ts-node: the wrapper patches the rendered chart and fails on a wrong one", function () {
    this.timeout(30000);
    const project = compiledProject();
    try {
      const componentsDir = path.join(project, ".iko-plus", "program", "0123456789abcdef", "components");
      const workDir = path.join(project, ".iko-plus", "postrender");
      const wrapper = writePostRenderer(workDir, karmadaPostRenderPatch(PARAMS), { componentsDir });
      assert.match(path.basename(wrapper), /^karmada-postrender-[a-f0-9]{16}\.sh$/);
      assert.ok(!/ts-node|\.ts\b/.test(fs.readFileSync(wrapper, "utf8")), "JavaScript only");
      fs.rmSync(path.join(project, ".iko-plus", "program"), { recursive: true });
      const env = { PATH: process.env.PATH ?? "" };
      const out = child.execFileSync(wrapper, [], { input: RENDERED, encoding: "utf8", cwd: os.tmpdir(), env });
      assert.strictEqual(out, karmadaPostRender(RENDERED, PARAMS));
      const failed = child.spawnSync(wrapper, [], { input: "kind: ConfigMap\n", encoding: "utf8", env });
      assert.strictEqual(failed.status, 1);
      assert.match(failed.stderr, /no Deployment "karmada-apiserver"/);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });
});

describe("KarmadaControlPlane's post-renderer under mocks", () => {
  const host = new KindCluster("fettpr", { extraPortMappings: [{ containerPort: 32443, hostPort: 32443 }] });
  it("the release runs the post-renderer by default; from sources it patches the chart as the pure patches do", async function () {
    this.timeout(30000);
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-karmada-postrender-"));
    try {
      const n = registered.length;
      const kp = new KarmadaControlPlane("kppr", { helm: { host, endpoint: "https://127.0.0.1:32443", workDir } });
      await settle(kp, kp.release as pulumi.Resource);
      const rel = one(registered.slice(n), "kubernetes:helm.sh/v3:Release", "kppr-karmada");
      const wrapper = String(rel.inputs.postrender);
      assert.strictEqual(path.dirname(wrapper), workDir);
      assert.match(path.basename(wrapper), /^karmada-postrender-[a-f0-9]{16}\.sh$/);
      const out = child.execFileSync(wrapper, [], { input: RENDERED, encoding: "utf8", cwd: os.tmpdir() });
      assert.strictEqual(out, karmadaPostRender(RENDERED, PARAMS), "the release's names and default timing");
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });
  it("apiServerReadinessProbe: false keeps the chart's probe (the Service is still made headless); a bad timing throws before anything is created", async function () {
    this.timeout(30000);
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-karmada-postrender-"));
    const n = registered.length;
    const kp = new KarmadaControlPlane("kpnopr", {
      helm: { host, endpoint: "https://127.0.0.1:32443", apiServerReadinessProbe: false, workDir },
    });
    await settle(kp, kp.release as pulumi.Resource);
    const wrapper = String(
      one(registered.slice(n), "kubernetes:helm.sh/v3:Release", "kpnopr-karmada").inputs.postrender,
    );
    const out = child.execFileSync(wrapper, [], { input: RENDERED, encoding: "utf8", cwd: os.tmpdir() });
    fs.rmSync(workDir, { recursive: true, force: true });
    assert.strictEqual(out, makeServicesHeadless(RENDERED, ["karmada-aggregated-apiserver"]));
    const m = registered.length;
    assert.throws(
      () =>
        new KarmadaControlPlane("kpbadpr", {
          helm: {
            host,
            endpoint: "https://127.0.0.1:32443",
            apiServerReadinessProbe: { initialDelaySeconds: 1, periodSeconds: 0 },
          },
        }),
      /KarmadaControlPlane "kpbadpr".*helm\.apiServerReadinessProbe\.periodSeconds.*0.*must be a whole number from 1 to 600/s,
    );
    assert.strictEqual(registered.length, m, "nothing created");
  });
});
