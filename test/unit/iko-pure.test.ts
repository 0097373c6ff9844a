import * as assert from "assert";
import * as child from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import {
  CHECKSUM_ANNOTATION,
  IRISCLUSTER_CRD,
  RemoteKubeconfigPatch,
  VOLUME_NAME,
  cleanCrd,
  crdFromYaml,
  expandRules,
  ikoOperatorRules,
  ikoValues,
  kubeconfigChecksum,
  loadCrdManifest,
  mergeValues,
  ikoPostRenderPatch,
  patchOperatorManifest,
} from "../../components/iko";
import {
  postRenderCodeFolder,
  postRendererFileName,
  postRendererScript,
  writePostRenderer as writeAnyPostRenderer,
  WritePostRendererOptions,
} from "../../components/postrender";
import { compiledProject } from "./compiled-project";

const PATCH: RemoteKubeconfigPatch = {
  secretName: "work-kubeconfig",
  secretKey: "config",
  kubeconfigPath: "/airgap/.kube/config",
  checksum: "0123456789abcdef",
  containerName: "operator",
};

const writePostRenderer = (dir: string, p: RemoteKubeconfigPatch, opts?: WritePostRendererOptions) =>
  writeAnyPostRenderer(dir, ikoPostRenderPatch(p), opts);

const RENDERED = `---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: iko-iris-operator-amd
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: iko-iris-operator-amd
spec:
  template:
    metadata:
      labels: {app: iris-operator-amd}
    spec:
      containers:
        - name: operator
          image: containers.intersystems.com/intersystems/iris-operator-amd:3.8.42.100
          args: [run, --v=3, --kubeconfig, /old/path, --secure-port=8443]
          volumeMounts:
            - {name: serving-cert, mountPath: /var/serving-cert}
      volumes:
        - name: serving-cert
          secret: {secretName: iko-iris-operator-amd-apiserver-cert}
`;

describe("IKO values", () => {
  it("turns both webhooks off in remote mode, whatever extra values say", () => {
    assert.deepStrictEqual(ikoValues({ remote: true }), {
      apiserver: { enableMutatingWebhook: false, enableValidatingWebhook: false },
    });
    const v = ikoValues({
      remote: true,
      extraValues: { apiserver: { enableMutatingWebhook: true, groupPriorityMinimum: 5 } },
    });
    assert.deepStrictEqual(v.apiserver, {
      enableMutatingWebhook: false,
      enableValidatingWebhook: false,
      groupPriorityMinimum: 5,
    });
  });
  it("leaves the chart's defaults alone in local mode and maps image, pull secrets, log level", () => {
    assert.deepStrictEqual(ikoValues({ remote: false }), {});
    assert.deepStrictEqual(ikoValues({ remote: false, imagePullSecrets: [] }), {}, "no pull secrets: the chart's");
    assert.deepStrictEqual(
      ikoValues({
        remote: false,
        image: { registry: "r.example", repository: "isc/iris-operator-amd", tag: "3.8.42.100" },
        imagePullSecrets: ["pull"],
        logLevel: 5,
      }),
      {
        operator: { registry: "r.example", repository: "isc/iris-operator-amd", tag: "3.8.42.100" },
        imagePullSecrets: [{ name: "pull" }],
        logLevel: 5,
      },
    );
  });
  it("deep-merges values, replacing lists", () => {
    assert.deepStrictEqual(mergeValues({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2], e: 3 } }), {
      a: { b: 1, c: [2], e: 3 },
      d: 1,
    });
  });
});

describe("IKO RBAC", () => {
  it("grants exactly IKO's ClusterRole rights", () => {
    const perms = expandRules(ikoOperatorRules());
    const has = (group: string, resource: string, verb: string) =>
      perms.some(
        (p) =>
          p.group === group &&
          (p.subresource ? `${p.resource}/${p.subresource}` : p.resource) === resource &&
          p.verb === verb,
      );
    assert.ok(has("apps", "statefulsets", "patch"));
    assert.ok(!has("apps", "statefulsets", "delete"));
    assert.ok(has("", "pods/exec", "create"));
    assert.ok(has("", "persistentvolumeclaims", "delete") && !has("", "pods", "delete"));
    assert.ok(has("", "secrets", "get") && !has("", "secrets", "list"));
    assert.ok(has("intersystems.com", "*", "*"));
    assert.ok(!perms.some((p) => p.resource === "namespaces" || p.resource === "nodes"));
    assert.strictEqual(perms.length, new Set(perms.map((p) => JSON.stringify(p))).size);
  });

  it("the rules are IKO's ClusterRole, rule for rule in the chart's order (reference/iko.md)", () => {
    const all = ["*"];
    assert.deepStrictEqual(ikoOperatorRules(), [
      { apiGroups: ["apiextensions.k8s.io"], resources: ["customresourcedefinitions"], verbs: all },
      { apiGroups: ["intersystems.com"], resources: ["*"], verbs: all },
      { apiGroups: ["appcatalog.appscode.com"], resources: ["*"], verbs: all },
      { apiGroups: ["monitoring.coreos.com"], resources: ["servicemonitors"], verbs: all },
      { apiGroups: ["apps"], resources: ["statefulsets"], verbs: ["create", "get", "update", "patch"] },
      {
        apiGroups: [""],
        resources: ["configmaps", "secrets", "services", "serviceaccounts"],
        verbs: ["create", "get", "patch"],
      },
      { apiGroups: [""], resources: ["pods", "pods/exec"], verbs: ["get", "create", "list", "watch", "patch"] },
      {
        apiGroups: [""],
        resources: ["persistentvolumeclaims"],
        verbs: ["get", "create", "list", "watch", "patch", "delete"],
      },
      { apiGroups: [""], resources: ["events"], verbs: ["create"] },
      {
        apiGroups: ["rbac.authorization.k8s.io"],
        resources: ["roles", "rolebindings", "clusterroles", "clusterrolebindings"],
        verbs: ["get", "update", "create", "patch"],
      },
      { apiGroups: ["rbac.authorization.k8s.io"], resources: ["roles", "rolebindings"], verbs: ["delete"] },
      { apiGroups: [""], resources: ["serviceaccounts"], verbs: ["delete"] },
      { apiGroups: ["autoscaling"], resources: ["horizontalpodautoscalers"], verbs: all },
      { apiGroups: ["apiregistration.k8s.io"], resources: ["apiservices"], verbs: ["get", "patch"] },
      {
        apiGroups: ["admissionregistration.k8s.io"],
        resources: ["mutatingwebhookconfigurations", "validatingwebhookconfigurations"],
        verbs: ["delete", "list", "watch", "patch"],
      },
    ]);
  });

  it("expandRules: one permission per group, resource and verb, subresources split, each once, in rule order", () => {
    assert.deepStrictEqual(
      expandRules([
        { apiGroups: ["", "apps"], resources: ["pods/exec", "statefulsets"], verbs: ["get", "create"] },
        { apiGroups: [""], resources: ["pods/exec"], verbs: ["get", "delete"] },
      ]),
      [
        { group: "", resource: "pods", subresource: "exec", verb: "get" },
        { group: "", resource: "pods", subresource: "exec", verb: "create" },
        { group: "", resource: "statefulsets", verb: "get" },
        { group: "", resource: "statefulsets", verb: "create" },
        { group: "apps", resource: "pods", subresource: "exec", verb: "get" },
        { group: "apps", resource: "pods", subresource: "exec", verb: "create" },
        { group: "apps", resource: "statefulsets", verb: "get" },
        { group: "apps", resource: "statefulsets", verb: "create" },
        { group: "", resource: "pods", subresource: "exec", verb: "delete" },
      ],
    );
    assert.deepStrictEqual(expandRules([]), []);
  });
});

describe("IKO post-renderer", () => {
  it("mounts the Secret read-only, points --kubeconfig at it and annotates the checksum", () => {
    const docs = YAML.parseAllDocuments(patchOperatorManifest(RENDERED, PATCH)).map((d) => d.toJS());
    assert.deepStrictEqual(docs[0], {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "iko-iris-operator-amd" },
    });
    const pod = docs[1].spec.template;
    const c = pod.spec.containers[0];
    assert.deepStrictEqual(c.args, ["run", "--v=3", "--secure-port=8443", "--kubeconfig=/airgap/.kube/config"]);
    assert.deepStrictEqual(c.volumeMounts, [
      { name: "serving-cert", mountPath: "/var/serving-cert" },
      { name: VOLUME_NAME, mountPath: "/airgap/.kube", readOnly: true },
    ]);
    assert.deepStrictEqual(pod.spec.volumes[1], {
      name: VOLUME_NAME,
      secret: { secretName: "work-kubeconfig", items: [{ key: "config", path: "config" }], defaultMode: 0o440 },
    });
    assert.deepStrictEqual(pod.metadata.annotations, { [CHECKSUM_ANNOTATION]: "0123456789abcdef" });
  });
  it("is idempotent", () => {
    const once = patchOperatorManifest(RENDERED, PATCH);
    assert.strictEqual(patchOperatorManifest(once, PATCH), once);
  });
  it("fails when no Deployment has the operator container", () => {
    assert.throws(
      () => patchOperatorManifest(RENDERED, { ...PATCH, containerName: "manager" }),
      /no Deployment with a container named "manager" in the chart output; is this the IKO chart/,
    );
  });
  it("patches only a Deployment, skips empty documents, and copes with a bare container and odd fields", () => {
    const op = (extra: Record<string, unknown> = {}) => ({ name: "operator", image: "iko:1", ...extra });
    const stream = [
      "---\n",
      YAML.stringify({ kind: "StatefulSet", spec: { template: { spec: { containers: [op()] } } } }),
      YAML.stringify({
        kind: "Deployment",
        spec: {
          template: {
            metadata: { annotations: "not-a-map" },
            spec: { volumes: "not-a-list", containers: [op({ args: "--kubeconfig=/x", volumeMounts: {} })] },
          },
        },
      }),
    ].join("---\n");
    const docs = YAML.parseAllDocuments(patchOperatorManifest(stream, PATCH)).map((d) => d.toJS());
    assert.strictEqual(docs.length, 2, "the empty document is dropped, not written as null");
    assert.deepStrictEqual(docs[0], { kind: "StatefulSet", spec: { template: { spec: { containers: [op()] } } } });
    assert.deepStrictEqual(docs[1].spec.template, {
      metadata: { annotations: { [CHECKSUM_ANNOTATION]: "0123456789abcdef" } },
      spec: {
        volumes: [
          {
            name: VOLUME_NAME,
            secret: { secretName: "work-kubeconfig", items: [{ key: "config", path: "config" }], defaultMode: 0o440 },
          },
        ],
        containers: [
          op({
            args: ["--kubeconfig=/airgap/.kube/config"],
            volumeMounts: [{ name: VOLUME_NAME, mountPath: "/airgap/.kube", readOnly: true }],
          }),
        ],
      },
    });
    assert.throws(
      () => patchOperatorManifest(YAML.stringify({ kind: "Deployment", spec: { template: { spec: {} } } }), PATCH),
      /no Deployment with a container named "operator"/,
      "a Deployment without containers is not the operator's",
    );
    assert.throws(
      () => patchOperatorManifest("a: [\n", PATCH),
      /^Error: post-render: the chart rendered invalid YAML: /,
    );
  });
  it("checksums kubeconfigs without revealing them", () => {
    assert.strictEqual(kubeconfigChecksum("a"), "ca978112ca1bbdca");
    assert.notStrictEqual(kubeconfigChecksum("a"), kubeconfigChecksum("b"));
  });
  it("generates a content-addressed wrapper with no secret in it (TypeScript: ts-node on the .ts CLI)", () => {
    const code = {
      kind: "ts",
      tsNodeRegister: "../../node_modules/ts-node/register/transpile-only.js",
      cli: "../../components/postrender/cli.ts",
      module: "../../components/iko/postrender.ts",
      tsconfig: "../../tsconfig.json",
    } as const;
    const script = postRendererScript(ikoPostRenderPatch(PATCH), code);
    assert.match(script, /^#!\/bin\/sh\n/);
    const encoded = Buffer.from(JSON.stringify(PATCH)).toString("base64");
    assert.strictEqual(
      script.split("\n")[5],
      `TS_NODE_PROJECT="$here/../../tsconfig.json" exec node -r "$here/../../node_modules/ts-node/register/transpile-only.js" "$here/../../components/postrender/cli.ts" "$here/../../components/iko/postrender.ts" '${encoded}'`,
    );
    assert.ok(!script.includes("kubeconfig:") && !script.includes("client-key"), "parameters only, never a kubeconfig");
    assert.strictEqual(
      postRendererScript(ikoPostRenderPatch(PATCH), { ...code, tsconfig: undefined }).split("\n")[5],
      `exec node -r "$here/../../node_modules/ts-node/register/transpile-only.js" "$here/../../components/postrender/cli.ts" "$here/../../components/iko/postrender.ts" '${encoded}'`,
      "no tsconfig beside the sources: ts-node's defaults",
    );
    assert.match(postRendererFileName("iko-postrender", script), /^iko-postrender-[a-f0-9]{16}\.sh$/);
    assert.notStrictEqual(
      postRendererFileName("iko-postrender", script),
      postRendererFileName("iko-postrender", postRendererScript(ikoPostRenderPatch({ ...PATCH, checksum: "x" }), code)),
    );
  });
  it("compiled: the wrapper runs node alone on copied JavaScript (no ts-node, no TypeScript)", () => {
    const script = postRendererScript(ikoPostRenderPatch(PATCH), {
      kind: "js",
      cli: "lib-0123456789abcdef/cli.js",
      module: "lib-0123456789abcdef/postrender.js",
      nodePath: "../../node_modules",
    });
    const encoded = Buffer.from(JSON.stringify(PATCH)).toString("base64");
    assert.strictEqual(
      script.split("\n")[5],
      `NODE_PATH="$here/../../node_modules" exec node "$here/lib-0123456789abcdef/cli.js" "$here/lib-0123456789abcdef/postrender.js" '${encoded}'`,
    );
    assert.ok(!/ts-node|\.ts\b/.test(script), "nothing of TypeScript");
    assert.strictEqual(postRenderCodeFolder(["a", "b"]), postRenderCodeFolder(["a", "b"]));
    assert.notStrictEqual(
      postRenderCodeFolder(["a", "b"]),
      postRenderCodeFolder(["a", "c"]),
      "other code, other folder",
    );
  });
  it("runs as Helm would run it, from TypeScript sources: manifest on stdin, patched manifest on stdout", function () {
    this.timeout(30000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-postrender-test-"));
    try {
      const wrapper = writePostRenderer(dir, PATCH);
      assert.ok(path.isAbsolute(wrapper));
      assert.match(fs.readFileSync(wrapper, "utf8"), /ts-node/, "run from sources (ts-node), the wrapper uses ts-node");
      assert.strictEqual(fs.statSync(wrapper).mode & 0o777, 0o755);
      assert.strictEqual(writePostRenderer(dir, PATCH), wrapper, "same parameters, same wrapper");
      // Helm runs the post-renderer from its own working directory, not the project's.
      const out = child.execFileSync(wrapper, [], { input: RENDERED, encoding: "utf8", cwd: os.tmpdir() });
      assert.strictEqual(out, patchOperatorManifest(RENDERED, PATCH));
      const failed = child.spawnSync(wrapper, [], { input: "kind: ConfigMap\n", encoding: "utf8" });
      assert.strictEqual(failed.status, 1);
      assert.match(failed.stderr, /no Deployment with a container named "operator"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it("runs as Helm would run it, compiled, in a project with no ts-node, after the program build is gone", function () {
    this.timeout(30000);
    const project = compiledProject();
    try {
      const componentsDir = path.join(project, ".iko-plus", "program", "0123456789abcdef", "components");
      const workDir = path.join(project, ".iko-plus", "postrender");
      const wrapper = writePostRenderer(workDir, PATCH, { componentsDir });
      const script = fs.readFileSync(wrapper, "utf8");
      assert.ok(!/ts-node|\.ts\b/.test(script), "the wrapper runs JavaScript only");
      const lib = fs.readdirSync(workDir).filter((f) => f.startsWith("lib-"));
      assert.deepStrictEqual(lib.length, 1);
      // The whole wrapper: NODE_PATH names the node_modules folder "yaml" resolves from (here a
      // link to this repo's), so node finds it whatever Helm's cwd.
      const nodeModules = path.dirname(fs.realpathSync(path.join(project, "node_modules", "yaml")));
      const encoded = Buffer.from(JSON.stringify(PATCH)).toString("base64");
      assert.strictEqual(
        script,
        [
          "#!/bin/sh",
          "# Generated by iko-plus: Helm post-renderer mounting the target kubeconfig into the IKO operator (IkoHomeOperator).",
          "# Rewritten on every run; do not edit.",
          "set -e",
          'here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)',
          `NODE_PATH="$here/${path.relative(workDir, nodeModules)}" exec node "$here/${lib[0]}/cli.js" "$here/${lib[0]}/postrender.js" '${encoded}'`,
          "",
        ].join("\n"),
      );
      assert.deepStrictEqual(fs.readdirSync(path.join(workDir, lib[0])).sort(), ["cli.js", "postrender.js"]);
      // A later build prunes the one the wrapper came from: the copies keep it working.
      fs.rmSync(path.join(project, ".iko-plus", "program"), { recursive: true });
      const env = { PATH: process.env.PATH ?? "" };
      const out = child.execFileSync(wrapper, [], { input: RENDERED, encoding: "utf8", cwd: os.tmpdir(), env });
      assert.strictEqual(out, patchOperatorManifest(RENDERED, PATCH));
      const failed = child.spawnSync(wrapper, [], { input: "kind: ConfigMap\n", encoding: "utf8", env });
      assert.strictEqual(failed.status, 1);
      assert.match(failed.stderr, /no Deployment with a container named "operator"/);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });
  it("a preview (write: false) gives the same path and writes nothing", () => {
    const project = compiledProject();
    try {
      const componentsDir = path.join(project, ".iko-plus", "program", "0123456789abcdef", "components");
      const workDir = path.join(project, ".iko-plus", "postrender");
      const previewed = writePostRenderer(workDir, PATCH, { componentsDir, write: false });
      assert.ok(!fs.existsSync(workDir), "nothing written in a preview");
      assert.strictEqual(
        writePostRenderer(workDir, PATCH, { componentsDir }),
        previewed,
        "the update runs the wrapper the preview showed",
      );
      assert.ok(fs.existsSync(previewed));
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });
  it("gives a project-relative wrapper path for a relative work folder", () => {
    const cwd = process.cwd();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-project-"));
    try {
      process.chdir(dir);
      const rel = writePostRenderer(path.join(".iko-plus", "postrender"), PATCH);
      assert.match(rel, /^\.\/\.iko-plus\/postrender\/iko-postrender-[a-f0-9]{16}\.sh$/);
      assert.ok(fs.existsSync(path.join(dir, rel)));
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("IrisCluster CRD helpers", () => {
  const fixture = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");
  it("strips server-set fields and status", () => {
    assert.deepStrictEqual(
      cleanCrd({
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: {
          name: "x",
          uid: "u",
          resourceVersion: "1",
          generation: 2,
          creationTimestamp: "t",
          managedFields: [],
          labels: { a: "b" },
          annotations: {
            "kubectl.kubernetes.io/last-applied-configuration": "{}",
            "pulumi.com/patchForce": "true",
            keep: "me",
          },
        },
        spec: { group: "g" },
        status: { acceptedNames: {} },
      }),
      {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: { name: "x", labels: { a: "b" }, annotations: { keep: "me" } },
        spec: { group: "g" },
      },
    );
  });
  it("loads the CRD from a manifest and explains a wrong file", () => {
    const crd = loadCrdManifest(fixture, IRISCLUSTER_CRD, "iko.crdManifestPath");
    assert.strictEqual((crd.spec as { group: string }).group, "intersystems.com");
    assert.throws(
      () => loadCrdManifest("/nonexistent.yaml", IRISCLUSTER_CRD, "iko.crdManifestPath"),
      /iko.crdManifestPath: cannot read CRD manifest "\/nonexistent.yaml" \(ENOENT\)/,
    );
    assert.throws(
      () => crdFromYaml("kind: ConfigMap\n", IRISCLUSTER_CRD, "f"),
      /f holds no CustomResourceDefinition named irisclusters.intersystems.com/,
    );
  });

  it("cleanCrd keeps metadata without annotations as it is, and drops annotations left empty", () => {
    const spec = { group: "g" };
    assert.deepStrictEqual(cleanCrd({ metadata: { name: "x", uid: "u" }, spec }).metadata, { name: "x" });
    assert.deepStrictEqual(
      cleanCrd({ metadata: { name: "x", annotations: { "pulumi.com/patchForce": "true" } }, spec }).metadata,
      { name: "x" },
    );
    assert.deepStrictEqual(cleanCrd({ spec }), {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: {},
      spec,
    });
  });

  it("crdFromYaml: the named CRD of a stream, skipping empty documents, other kinds and other CRDs; exact messages", () => {
    const crd = (name: string) =>
      `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${name}\nspec:\n  group: ${name}\n`;
    const stream = [
      "---\n",
      "kind: ConfigMap\nmetadata:\n  name: irisclusters.intersystems.com\n",
      "kind: CustomResourceDefinition\n",
      crd("other.example.com"),
      crd(IRISCLUSTER_CRD),
    ].join("---\n");
    assert.deepStrictEqual(crdFromYaml(stream, IRISCLUSTER_CRD, "f").spec, { group: IRISCLUSTER_CRD });
    assert.throws(() => crdFromYaml(crd("other.example.com"), IRISCLUSTER_CRD, "f"), {
      message: `f holds no CustomResourceDefinition named ${IRISCLUSTER_CRD}; export it with \`kubectl get crd ${IRISCLUSTER_CRD} -o yaml\``,
    });
    assert.throws(
      () => crdFromYaml("a: [\n", IRISCLUSTER_CRD, "f"),
      (e: Error) =>
        e.message.startsWith("f is not valid YAML (") &&
        e.message.endsWith(`); pass a CRD manifest such as \`kubectl get crd ${IRISCLUSTER_CRD} -o yaml\` writes`),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-crd-"));
    try {
      const file = path.join(dir, "crd.yaml");
      fs.writeFileSync(file, crd("other.example.com"));
      assert.throws(() => loadCrdManifest(file, IRISCLUSTER_CRD, "k"), {
        message: `k ("${file}") holds no CustomResourceDefinition named ${IRISCLUSTER_CRD}; export it with \`kubectl get crd ${IRISCLUSTER_CRD} -o yaml\``,
      });
      assert.throws(() => loadCrdManifest(dir, IRISCLUSTER_CRD, "k"), {
        message: `k: cannot read CRD manifest "${dir}" (EISDIR); point it at a readable YAML file holding ${IRISCLUSTER_CRD}`,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
