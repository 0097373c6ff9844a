import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  KindClusterInputs,
  KindClusterProvider,
  KindClusterState,
  kindConfigYaml,
  mirrorNodeFiles,
  preflight,
} from "../../components/kind";

const STANDIN = path.resolve(__dirname, "../fixtures/kind-standin");

describe("KindClusterProvider against the stand-in kind", () => {
  let state: string;
  let inputs: KindClusterInputs;
  const provider = new KindClusterProvider();
  const log = () => fs.readFileSync(path.join(state, "args.log"), "utf8").trim().split("\n");
  const tempDirs = () =>
    fs
      .readdirSync(os.tmpdir())
      .filter((d) => d.startsWith("iko-plus-kind-"))
      .sort();

  beforeEach(() => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), "kind-standin-state-"));
    process.env.KIND_STANDIN_STATE = state;
    delete process.env.KIND_STANDIN_FAIL_CREATE;
    delete process.env.KIND_STANDIN_FAIL_ON;
    delete process.env.DOCKER_STANDIN_DOWN;
    delete process.env.DOCKER_STANDIN_NOT_READY;
    delete process.env.DOCKER_STANDIN_KUBELET_LOG;
    inputs = {
      name: "ikowork",
      configYaml: kindConfigYaml({}),
      kindCommand: path.join(STANDIN, "kind"),
      dockerCommand: path.join(STANDIN, "docker"),
      nodeFiles: [],
      readyTimeoutSeconds: 10,
    };
  });
  afterEach(() => fs.rmSync(state, { recursive: true, force: true }));

  it("creates with the config on stdin and a temporary kubeconfig, then removes the temp folder", async () => {
    const before = tempDirs();
    const res = await provider.create(inputs);
    assert.strictEqual(res.id, "ikowork");
    const outs = res.outs as KindClusterState;
    assert.match(outs.kubeconfig, /server: https:\/\/127\.0\.0\.1:\d+/);
    assert.match(outs.peerKubeconfig, /server: https:\/\/ikowork-control-plane:6443/);
    assert.strictEqual(fs.readFileSync(path.join(state, "clusters/ikowork/config.yaml"), "utf8"), inputs.configYaml);
    const calls = log();
    assert.strictEqual(calls[0], "version");
    assert.match(
      calls[1],
      /^create cluster --name ikowork --config - --kubeconfig \/.*iko-plus-kind-[^/]+\/kubeconfig$/,
    );
    assert.strictEqual(calls[2], "get nodes --name ikowork");
    assert.strictEqual(calls[3], "get kubeconfig --name ikowork --internal");
    assert.deepStrictEqual(tempDirs(), before, "the temporary kubeconfig folder must be gone");
    assert.ok(
      !fs.existsSync(path.join(process.cwd(), "kubeconfig")) &&
        !fs.existsSync(path.join(process.cwd(), "ikowork-config")),
    );
  });

  it("reads a live cluster's kubeconfigs and reports a deleted cluster as gone", async () => {
    const created = (await provider.create(inputs)).outs as KindClusterState;
    const read = await provider.read("ikowork", created);
    assert.strictEqual(read.id, "ikowork");
    assert.strictEqual((read.props as KindClusterState).kubeconfig, created.kubeconfig);
    fs.rmSync(path.join(state, "clusters/ikowork"), { recursive: true });
    const gone = await provider.read("ikowork", created);
    assert.strictEqual(gone.id, "");
  });

  it("deletes idempotently", async () => {
    const created = (await provider.create(inputs)).outs as KindClusterState;
    await provider.delete("ikowork", created);
    assert.ok(!fs.existsSync(path.join(state, "clusters/ikowork")));
    await provider.delete("ikowork", created);
    const deletes = log().filter((l) => l.startsWith("delete"));
    assert.strictEqual(deletes.length, 2);
    // A private kubeconfig, so kind never edits ~/.kube/config.
    for (const d of deletes)
      assert.match(d, /^delete cluster --name ikowork --kubeconfig \/.*iko-plus-kind-[^/]+\/kubeconfig$/);
  });

  it("replaces on any config or name change, but not on a new executable path", async () => {
    const olds = (await provider.create(inputs)).outs as KindClusterState;
    assert.deepStrictEqual(await provider.diff("ikowork", olds, inputs), {
      changes: false,
      replaces: [],
      deleteBeforeReplace: true,
    });
    const mirrored = await provider.diff("ikowork", olds, {
      ...inputs,
      nodeFiles: mirrorNodeFiles({ endpoint: "http://reg:5000" }),
    });
    assert.deepStrictEqual(mirrored.replaces, ["nodeFiles"]);
    const legacy = { ...olds } as Partial<KindClusterState>;
    delete legacy.nodeFiles;
    assert.strictEqual(
      (await provider.diff("ikowork", legacy as KindClusterState, inputs)).changes,
      false,
      "state without nodeFiles means none",
    );
    assert.deepStrictEqual(await provider.diff("ikowork", olds, { ...inputs, readyTimeoutSeconds: 600 }), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: true,
    });
    const changed = await provider.diff("ikowork", olds, { ...inputs, configYaml: kindConfigYaml({ workers: 2 }) });
    assert.deepStrictEqual(changed, { changes: true, replaces: ["configYaml"], deleteBeforeReplace: true });
    const renamed = await provider.diff("ikowork", olds, { ...inputs, name: "ikowork2" });
    assert.deepStrictEqual(renamed.replaces, ["name"]);
    const moved = await provider.diff("ikowork", olds, { ...inputs, kindCommand: "/usr/local/bin/kind" });
    assert.deepStrictEqual(moved, { changes: true, replaces: [], deleteBeforeReplace: true });
  });

  it("fails clearly when kind is missing", async () => {
    await assert.rejects(
      provider.create({ ...inputs, kindCommand: "kind-not-installed-here" }),
      /kind: "kind-not-installed-here" was not found or is not executable\. Install kind v0\.30\.0/,
    );
  });

  it("fails clearly when docker is missing or its engine is down, before calling kind", async () => {
    await assert.rejects(
      preflight({ ...inputs, dockerCommand: "/nonexistent/docker" }),
      /docker: "\/nonexistent\/docker" was not found or is not executable\. kind clusters need a Docker engine/,
    );
    process.env.DOCKER_STANDIN_DOWN = "1";
    await assert.rejects(
      provider.create(inputs),
      /is the Docker engine running\?\): Cannot connect to the Docker daemon at unix:\/\/\/var\/run\/docker\.sock\. Is the docker daemon running\?; kind clusters need a Docker engine/,
    );
    assert.ok(!fs.existsSync(path.join(state, "args.log")), "kind must not run when docker is down");
  });

  it("a kind that is a file but not executable gets the same install hint as a missing one", async () => {
    const notExecutable = path.join(state, "kind");
    fs.writeFileSync(notExecutable, "#!/bin/sh\n", { mode: 0o644 });
    await assert.rejects(
      provider.create({ ...inputs, kindCommand: notExecutable }),
      new RegExp(`^Error: kind: "${notExecutable}" was not found or is not executable\\. Install kind v0\\.30\\.0`),
    );
  });

  it("names the kind command that failed, with kind's own error, on read, delete and a failed version check", async () => {
    const created = (await provider.create(inputs)).outs as KindClusterState;
    process.env.KIND_STANDIN_FAIL_ON = "get clusters";
    await assert.rejects(
      provider.read("ikowork", created),
      /^Error: kind get clusters failed: ERROR: stand-in failure of get clusters$/,
    );
    process.env.KIND_STANDIN_FAIL_ON = "get kubeconfig";
    await assert.rejects(
      provider.read("ikowork", created),
      /^Error: kind get kubeconfig --name ikowork failed: ERROR: stand-in failure of get kubeconfig$/,
    );
    process.env.KIND_STANDIN_FAIL_ON = "delete cluster";
    await assert.rejects(
      provider.delete("ikowork", created),
      /^Error: kind delete cluster --name ikowork failed: ERROR: stand-in failure of delete cluster$/,
    );
    process.env.KIND_STANDIN_FAIL_ON = "version ";
    await assert.rejects(
      provider.create({ ...inputs, name: "other" }),
      new RegExp(`^Error: kind: "${inputs.kindCommand} version" failed: ERROR: stand-in failure of version`),
    );
  });

  it("surfaces kind's own error on a failed create and leaves no temp folder", async () => {
    const before = tempDirs();
    process.env.KIND_STANDIN_FAIL_CREATE = "something kind did not like";
    await assert.rejects(
      provider.create(inputs),
      /^Error: kind cluster "ikowork": kind create cluster --name ikowork failed: ERROR: failed to create cluster: something kind did not like$/,
    );
    assert.deepStrictEqual(tempDirs(), before);
  });

  it("writes the mirror's host files into every node before it waits for them", async () => {
    const files = mirrorNodeFiles({ endpoint: "http://iko-plus-registry:5000", registries: ["docker.io", "quay.io"] });
    await provider.create({ ...inputs, configYaml: kindConfigYaml({ workers: 2 }), nodeFiles: files });
    for (const node of ["ikowork-control-plane", "ikowork-worker", "ikowork-worker2"]) {
      for (const f of files)
        assert.strictEqual(
          fs.readFileSync(path.join(state, "nodes", node, f.path), "utf8"),
          f.content,
          `${f.path} on ${node}`,
        );
    }
  });

  it("does not report the cluster created until every node is Ready", async () => {
    fs.writeFileSync(path.join(state, "not-ready"), "ikowork-worker");
    let done = false;
    const created = provider.create(inputs).then((r) => {
      done = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 2500));
    assert.strictEqual(done, false, "create returned while ikowork-worker was NotReady");
    fs.rmSync(path.join(state, "not-ready"));
    assert.strictEqual((await created).id, "ikowork");
  });

  it("fails at once with the cause and the fix when a kubelet died of inotify limits, and deletes the cluster", async () => {
    process.env.DOCKER_STANDIN_NOT_READY = "ikowork-worker";
    process.env.DOCKER_STANDIN_KUBELET_LOG =
      'E1201 kubelet.go:1 "Failed to start" err="inotify_init: too many open files"';
    await assert.rejects(provider.create({ ...inputs, readyTimeoutSeconds: 60 }), (err: Error) => {
      assert.match(
        err.message,
        /^kind cluster "ikowork": node ikowork-worker never became Ready: its kubelet failed with ".*inotify_init: too many open files.*": the host's inotify limits are too low/,
      );
      assert.match(err.message, /sysctl -w fs\.inotify\.max_user_instances=8192 fs\.inotify\.max_user_watches=1048576/);
      return true;
    });
    assert.ok(!fs.existsSync(path.join(state, "clusters/ikowork")), "the half-made cluster is deleted");
  });

  it("fails after readyTimeoutSeconds naming the nodes that are not Ready, and deletes the cluster", async () => {
    process.env.DOCKER_STANDIN_NOT_READY = "all";
    await assert.rejects(
      provider.create({ ...inputs, readyTimeoutSeconds: 2 }),
      /^Error: kind cluster "ikowork": nodes not Ready after 2 s: ikowork-control-plane \(Ready=False \(stand-in\)\), ikowork-worker \(Ready=False \(stand-in\)\); see/,
    );
    assert.ok(!fs.existsSync(path.join(state, "clusters/ikowork")));
  });
});
