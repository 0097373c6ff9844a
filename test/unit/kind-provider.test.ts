import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { KindClusterInputs, KindClusterProvider, KindClusterState, kindConfigYaml, preflight } from "../../components/kind";

const STANDIN = path.resolve(__dirname, "../fixtures/kind-standin");

describe("KindClusterProvider against the stand-in kind", () => {
  let state: string;
  let inputs: KindClusterInputs;
  const provider = new KindClusterProvider();
  const log = () => fs.readFileSync(path.join(state, "args.log"), "utf8").trim().split("\n");
  const tempDirs = () => fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("iko-plus-kind-")).sort();

  beforeEach(() => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), "kind-standin-state-"));
    process.env.KIND_STANDIN_STATE = state;
    delete process.env.KIND_STANDIN_FAIL_CREATE;
    delete process.env.DOCKER_STANDIN_DOWN;
    inputs = { name: "ikowork", configYaml: kindConfigYaml({}), kindCommand: path.join(STANDIN, "kind"), dockerCommand: path.join(STANDIN, "docker") };
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
    assert.match(calls[1], /^create cluster --name ikowork --config - --kubeconfig \/.*iko-plus-kind-[^/]+\/kubeconfig$/);
    assert.strictEqual(calls[2], "get kubeconfig --name ikowork --internal");
    assert.deepStrictEqual(tempDirs(), before, "the temporary kubeconfig folder must be gone");
    assert.ok(!fs.existsSync(path.join(process.cwd(), "kubeconfig")) && !fs.existsSync(path.join(process.cwd(), "ikowork-config")));
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
    assert.deepStrictEqual(log().filter((l) => l.startsWith("delete")), ["delete cluster --name ikowork", "delete cluster --name ikowork"]);
  });

  it("replaces on any config or name change, but not on a new executable path", async () => {
    const olds = (await provider.create(inputs)).outs as KindClusterState;
    assert.deepStrictEqual(await provider.diff("ikowork", olds, inputs), { changes: false, replaces: [], deleteBeforeReplace: true });
    const changed = await provider.diff("ikowork", olds, { ...inputs, configYaml: kindConfigYaml({ workers: 2 }) });
    assert.deepStrictEqual(changed, { changes: true, replaces: ["configYaml"], deleteBeforeReplace: true });
    const renamed = await provider.diff("ikowork", olds, { ...inputs, name: "ikowork2" });
    assert.deepStrictEqual(renamed.replaces, ["name"]);
    const moved = await provider.diff("ikowork", olds, { ...inputs, kindCommand: "/usr/local/bin/kind" });
    assert.deepStrictEqual(moved, { changes: true, replaces: [], deleteBeforeReplace: true });
  });

  it("fails clearly when kind is missing", async () => {
    await assert.rejects(provider.create({ ...inputs, kindCommand: "kind-not-installed-here" }),
      /kind: "kind-not-installed-here" was not found or is not executable\. Install kind v0\.30\.0/);
  });

  it("fails clearly when docker is missing or its engine is down, before calling kind", async () => {
    assert.throws(() => preflight({ ...inputs, dockerCommand: "/nonexistent/docker" }),
      /docker: "\/nonexistent\/docker" was not found or is not executable\. kind clusters need a Docker engine/);
    process.env.DOCKER_STANDIN_DOWN = "1";
    await assert.rejects(provider.create(inputs), /is the Docker engine running\?.*Cannot connect to the Docker daemon/);
    assert.ok(!fs.existsSync(path.join(state, "args.log")), "kind must not run when docker is down");
  });

  it("surfaces kind's own error on a failed create and leaves no temp folder", async () => {
    const before = tempDirs();
    process.env.KIND_STANDIN_FAIL_CREATE = "port is already allocated";
    await assert.rejects(provider.create(inputs), /kind create cluster --name ikowork failed: ERROR: failed to create cluster: port is already allocated/);
    assert.deepStrictEqual(tempDirs(), before);
  });
});
