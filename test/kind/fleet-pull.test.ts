/**
 * kind tier: a Pull-mode member for real. The fleet stack on two one-node kind clusters:
 * `pull-host` runs Karmada from the real chart (v1.18.2, as fleet-helm.test.ts, its API on host
 * port 32301); `pull-member`'s API is made unreachable from pull-host (iptables DROP in the
 * pull-host node for the member node's address, port 6443, for the node and its pods), then the
 * member is joined in Pull mode: karmada-agent on it calls Karmada. It must become Ready and get
 * its federated IrisCluster (placed by label, reconciled by the IKO stand-in) and license Secret;
 * a second up changes nothing; taking the join out of the config leaves nothing of it behind in
 * Karmada or on the member; destroy leaves no container.
 */
import * as assert from "assert";
import * as k8s from "@kubernetes/client-node";
import { Clients, clientsFromText, maybe, waitFor } from "../lab/kube";
import { PulumiCli } from "../lab/pulumi-cli";
import { LabStack } from "../lab/stacks";
import {
  containersNamed,
  docker,
  karmadaTierEnv,
  kindFleetConfig,
  printKarmadaDiagnostics,
  sh,
  standinImages,
  tierEnv,
  kindPulumiCli,
} from "./tier";
import { stopAfterFirstFailure } from "../steps";

const HOST = "pull-host";
const MEMBER = "pull-member";
const STACK = "kindtest-fleet-pull";
const PORT = 32301;
const env = tierEnv();
const kenv = karmadaTierEnv();
const IRIS = {
  group: "intersystems.com",
  version: "v1alpha1",
  plural: "irisclusters",
  namespace: "default",
  name: "federated-iris",
};
const CLUSTER = { group: "cluster.karmada.io", version: "v1alpha1", plural: "clusters", name: MEMBER };
const LICENSE = "IRIS-LICENSE-KEY-pull-0123456789abcdef";
const SHHHH = { password: "s3cr3t-pull-kind-42" };

type Cond = { type: string; status: string; lastTransitionTime?: string | Date };
type Obj = Record<string, unknown> & {
  metadata?: { name?: string; labels?: Record<string, string>; creationTimestamp?: string };
  spec?: Record<string, unknown>;
  status?: { conditions?: Cond[]; phase?: string };
};
const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const condition = (o: Obj | undefined, type: string) => o?.status?.conditions?.find((c) => c.type === type);

/** The member's kind workers: 0, then 1 once the replacement step has replaced the member. */
let memberWorkers = 0;

/** Phase 1: both clusters and Karmada, the member not joined. Phase 2 adds the Pull join and what is placed on it. */
function config(joined: boolean): Record<string, unknown> {
  const base = kindFleetConfig(HOST, MEMBER, kenv, env) as Record<string, unknown>;
  const [host, member] = base["iko-plus:clusters"] as Record<string, unknown>[];
  const cfg: Record<string, unknown> = {
    ...base,
    "iko-plus:clusters": [
      { ...host, iko: false, extraPortMappings: [{ containerPort: PORT, hostPort: PORT }] },
      {
        ...member,
        workers: memberWorkers,
        join: joined
          ? { provider: "kind", labels: { role: "pull" }, syncMode: "Pull", agentImage: kenv.KARMADA_IMAGE_AGENT }
          : false,
      },
    ],
    "iko-plus:karmada": {
      ...(base["iko-plus:karmada"] as Record<string, unknown>),
      endpoint: `https://127.0.0.1:${PORT}`,
      nodePort: PORT,
    },
    "iko-plus:federatedIrisClusters": [
      {
        ...(base["iko-plus:federatedIrisClusters"] as Record<string, unknown>[])[0],
        placement: { labels: { role: "pull" } },
      },
    ],
  };
  if (!joined) {
    cfg["iko-plus:federatedIrisClusters"] = [];
    cfg["iko-plus:fleetSecrets"] = [];
  }
  return cfg;
}

describe("kind tier: a Pull-mode member (karmada-agent on pull-member, its API unreachable from the Karmada host pull-host)", function () {
  stopAfterFirstFailure(this);
  let cli: PulumiCli;
  let stack: LabStack;
  let host: Clients;
  let member: Clients;
  let karmada: Clients;
  let memberIp = "";
  let upDone = 0;
  const kind = (...args: string[]) => sh(env.KIND_BIN, args);
  // Only what config() sets changes (the rest is Pulumi.fleet.yaml's); the secret keys exist only
  // while an entry names them (the stack refuses unreferenced keys).
  const setConfig = async (joined: boolean) => {
    stack.edit((c) => {
      for (const k of [...Object.keys(config(true)), "iko-plus:irisLicenseKey", "iko-plus:shhhhSecretData"])
        delete c[k];
      Object.assign(c, config(joined));
    });
    if (joined) {
      await cli.ok(["config", "set", "--secret", "--stack", STACK, "irisLicenseKey", LICENSE]);
      await cli.ok(["config", "set", "--secret", "--stack", STACK, "shhhhSecretData", JSON.stringify(SHHHH)]);
    }
  };

  before(async () => {
    cli = kindPulumiCli(env);
    for (const name of [HOST, MEMBER]) kind("delete", "cluster", "--name", name);
    assert.ok(
      kenv.KARMADA_IMAGE_AGENT,
      "karmada-images.env names the agent image (bash testbed/kind-tier/karmada-images.sh build)",
    );
    stack = new LabStack(cli, STACK, "Pulumi.fleet.yaml", config(false));
    await stack.init();
  });

  // A failure (e.g. the Karmada API not serving its groups in time) is read before the clusters go.
  afterEach(function () {
    if (this.currentTest?.state === "failed") printKarmadaDiagnostics(HOST, PORT);
  });

  after(async () => {
    if (stack) {
      await cli.run(["destroy", "--yes", "--skip-preview", "--continue-on-error", "--stack", STACK]);
      await stack.remove();
    }
    for (const name of [HOST, MEMBER]) kind("delete", "cluster", "--name", name);
    cli?.dispose();
  });

  it("up (phase 1): both clusters and Karmada from the chart, the member not joined yet", async () => {
    const t0 = Date.now();
    await stack.up();
    const kcs = JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>;
    host = clientsFromText(kcs[HOST]);
    member = clientsFromText(kcs[MEMBER]);
    karmada = clientsFromText(await stack.output("karmadaKubeconfig"));
    assert.strictEqual(await maybe(() => karmada.custom.getClusterCustomObject(CLUSTER)), undefined, "no Cluster yet");
    console.log(`      up (clusters, Karmada, IKO on the member): ${secs(Date.now() - t0)}`);
  });

  it("the member's API is unreachable from pull-host, for its node and for its pods (where Karmada's controllers run): a Push join could not work", async () => {
    memberIp = docker(
      "inspect",
      "-f",
      "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
      `${MEMBER}-control-plane`,
    ).stdout.trim();
    assert.match(memberIp, /^\d+\.\d+\.\d+\.\d+$/);
    const probe = (node: string) =>
      docker(
        "exec",
        `${node}-control-plane`,
        "curl",
        "-sk",
        "--max-time",
        "5",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        `https://${memberIp}:6443/livez`,
      );
    assert.strictEqual(probe(HOST).code, 0, "reachable before the rule");
    for (const chain of ["OUTPUT", "FORWARD"]) {
      const res = docker(
        "exec",
        `${HOST}-control-plane`,
        "iptables",
        "-I",
        chain,
        "1",
        "-d",
        memberIp,
        "-p",
        "tcp",
        "--dport",
        "6443",
        "-j",
        "DROP",
      );
      assert.strictEqual(res.code, 0, res.stderr);
    }
    const blocked = probe(HOST);
    assert.strictEqual(
      blocked.code,
      28,
      `curl from the pull-host node times out: ${blocked.code} ${blocked.stdout} ${blocked.stderr}`,
    );
    assert.strictEqual(probe(MEMBER).code, 0, "the member's API itself is up");
    // From a pod on pull-host, the path of karmada-controller-manager's calls.
    await host.core.createNamespacedPod({
      namespace: "default",
      body: {
        metadata: { name: "reach-member" },
        spec: {
          restartPolicy: "Never",
          containers: [
            {
              name: "curl",
              image: kenv.KARMADA_IMAGE_KUBECTL,
              command: ["bash", "-c", `curl -sk --max-time 5 https://${memberIp}:6443/livez; echo " rc=$?"`],
            },
          ],
        },
      },
    });
    await waitFor(
      "the probe pod finished",
      async () => {
        const p = await host.core.readNamespacedPod({ name: "reach-member", namespace: "default" });
        return ["Succeeded", "Failed"].includes(String(p.status?.phase));
      },
      120_000,
      2000,
    );
    const log = await host.core.readNamespacedPodLog({ name: "reach-member", namespace: "default" });
    assert.match(String(log), /rc=28/, `curl from a pod on pull-host times out: ${log}`);
    await host.core.deleteNamespacedPod({ name: "reach-member", namespace: "default", gracePeriodSeconds: 0 });
  });

  it("up (phase 2) joins pull-member in Pull mode: the agent registers into its Cluster, which turns Ready", async () => {
    await setConfig(true);
    const t0 = Date.now();
    await stack.up();
    upDone = Date.now();
    const c = await waitFor(
      `Cluster ${MEMBER} Ready`,
      async () => {
        const o = await maybe(() => karmada.custom.getClusterCustomObject(CLUSTER) as Promise<Obj>);
        return condition(o, "Ready")?.status === "True" ? o : undefined;
      },
      180_000,
      2000,
    );
    assert.deepStrictEqual(
      [c.spec?.syncMode, c.spec?.apiEndpoint, c.spec?.secretRef, c.metadata?.labels?.role],
      ["Pull", `https://${MEMBER}-control-plane:6443`, undefined, "pull"],
    );
    assert.strictEqual(c.spec?.id, (await member.core.readNamespace({ name: "kube-system" })).metadata?.uid);
    const pods = (
      await member.core.listNamespacedPod({ namespace: "karmada-cluster", labelSelector: "app=karmada-agent" })
    ).items;
    assert.strictEqual(pods.length, 1);
    assert.strictEqual(pods[0].spec?.containers[0].image, kenv.KARMADA_IMAGE_AGENT);
    const started = Date.parse(String(pods[0].status?.containerStatuses?.[0].state?.running?.startedAt));
    const ready = Date.parse(String(condition(c, "Ready")?.lastTransitionTime));
    const created = Date.parse(String(c.metadata?.creationTimestamp));
    // The still-blocked path: Karmada never called the member.
    assert.strictEqual(
      docker("exec", `${HOST}-control-plane`, "curl", "-sk", "--max-time", "3", `https://${memberIp}:6443/livez`).code,
      28,
    );
    console.log(
      `      up (join, federated objects): ${secs(upDone - t0)}; agent started to Cluster Ready (register to Ready): ${secs(ready - started)}; Cluster declared to Ready: ${secs(ready - created)}`,
    );
  });

  it("the IrisCluster placed by label lands on pull-member through the agent and is reconciled by the stand-in; the license and fleet Secrets arrive", async () => {
    const onMember = await waitFor(
      "federated-iris on pull-member",
      () => maybe(() => member.custom.getNamespacedCustomObject(IRIS) as Promise<Obj>),
      180_000,
      2000,
    );
    const landed = Date.now();
    assert.strictEqual((onMember.spec?.topology as { data: { image: string } }).data.image, standinImages(env).iris);
    await waitFor(
      "the stand-in reports Running and Ready on pull-member",
      async () => {
        const o = await maybe(() => member.custom.getNamespacedCustomObject(IRIS) as Promise<Obj>);
        return o?.status?.phase === "Running" && condition(o, "Ready")?.status === "True";
      },
      420_000,
      3000,
    );
    const reconciled = Date.now();
    await waitFor(
      "Running aggregated onto the template in Karmada (the agent reports Work status)",
      async () => {
        const t = (await karmada.custom.getNamespacedCustomObject(IRIS)) as Obj;
        return t.status?.phase === "Running";
      },
      120_000,
      2000,
    );
    const license = await waitFor(
      "the license Secret",
      () => maybe(() => member.core.readNamespacedSecret({ name: "federated-iris-license", namespace: "default" })),
      120_000,
      2000,
    );
    assert.strictEqual(Buffer.from(license.data?.["iris.key"] ?? "", "base64").toString("utf8"), LICENSE);
    const shhhh = await waitFor(
      "shhhh-secret",
      () => maybe(() => member.core.readNamespacedSecret({ name: "shhhh-secret", namespace: "default" })),
      120_000,
      2000,
    );
    assert.strictEqual(Buffer.from(shhhh.data?.password ?? "", "base64").toString("utf8"), SHHHH.password);
    const agentKc = await member.core.readNamespacedSecret({
      name: "karmada-kubeconfig",
      namespace: "karmada-cluster",
    });
    const token = (
      JSON.parse(Buffer.from(agentKc.data?.["karmada-kubeconfig"] ?? "", "base64").toString("utf8")) as {
        users: { user: { token: string } }[];
      }
    ).users[0].user.token;
    assert.ok(token.length > 20);
    const state = await stack.exportState();
    for (const s of [LICENSE, SHHHH.password, token])
      assert.ok(!state.includes(s), "no plaintext secret (license, fleet Secret, the agent's token) in the state");
    console.log(
      `      propagation: the IrisCluster on pull-member ${secs(landed - upDone)} after up returned, reconciled there ${secs(reconciled - landed)} later`,
    );
  });

  it("the agent's Karmada credential is scoped: it may read its own Cluster, not another's Secret or Works", async () => {
    const agentKc = await member.core.readNamespacedSecret({
      name: "karmada-kubeconfig",
      namespace: "karmada-cluster",
    });
    const text = Buffer.from(agentKc.data?.["karmada-kubeconfig"] ?? "", "base64").toString("utf8");
    const kc = new k8s.KubeConfig();
    kc.loadFromString(text);
    // From this host the Karmada API is at 127.0.0.1 (in the certificate), not the host node's name.
    kc.clusters[0] = {
      ...kc.clusters[0],
      server: `https://127.0.0.1:${PORT}`,
      tlsServerName: undefined,
    } as k8s.Cluster;
    const authz = kc.makeApiClient(k8s.AuthorizationV1Api);
    const can = async (attrs: k8s.V1ResourceAttributes) =>
      (await authz.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: attrs } } })).status?.allowed ??
      false;
    assert.ok(await can({ group: "cluster.karmada.io", resource: "clusters", verb: "get", name: MEMBER }));
    assert.ok(
      await can({ group: "work.karmada.io", resource: "works", verb: "update", namespace: `karmada-es-${MEMBER}` }),
    );
    for (const [what, attrs] of [
      ["delete its Cluster", { group: "cluster.karmada.io", resource: "clusters", verb: "delete", name: MEMBER }],
      ["create Clusters", { group: "cluster.karmada.io", resource: "clusters", verb: "create" }],
      ["read Secrets", { resource: "secrets", verb: "get", namespace: "karmada-cluster" }],
      [
        "touch another member's Works",
        { group: "work.karmada.io", resource: "works", verb: "list", namespace: "karmada-es-other" },
      ],
      [
        "change policies",
        { group: "policy.karmada.io", resource: "propagationpolicies", verb: "create", namespace: "default" },
      ],
    ] as [string, k8s.V1ResourceAttributes][])
      assert.strictEqual(await can(attrs), false, `the agent may not ${what}`);
  });

  it("pull-member replaced by a config change (workers 0 -> 1): the preview replaces the cluster and its join; the agent registers again, the Cluster is Ready with the new kube-system UID, the IrisCluster propagated and Running", async () => {
    const oldUid = (await member.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    memberWorkers = 1;
    await setConfig(true);
    const preview = await stack.preview(["--json"]);
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps;
    const replaced = steps
      .filter((x) => x.op === "replace" || x.op === "create-replacement")
      .map((x) => x.urn.split("::").pop());
    for (const name of [
      `${MEMBER}-kind`,
      `${MEMBER}-k8s`,
      `${MEMBER}-member-cluster`,
      `${MEMBER}-member-execution-ns`,
      `${MEMBER}-member-agent`,
    ])
      assert.ok(replaced.includes(name), `the preview replaces ${name}: ${JSON.stringify(replaced)}`);
    for (const name of [`${HOST}-kind`, `${HOST}-k8s`])
      assert.ok(!replaced.includes(name), `the preview keeps ${name}: ${JSON.stringify(replaced)}`);
    const t0 = Date.now();
    await stack.up();
    upDone = Date.now();
    member = clientsFromText((JSON.parse(await stack.output("clusterKubeconfigs")) as Record<string, string>)[MEMBER]);
    const uid = (await member.core.readNamespace({ name: "kube-system" })).metadata?.uid;
    assert.notStrictEqual(uid, oldUid, "a new member cluster");
    const c = await waitFor(
      `Cluster ${MEMBER} Ready again`,
      async () => {
        const o = await maybe(() => karmada.custom.getClusterCustomObject(CLUSTER) as Promise<Obj>);
        return condition(o, "Ready")?.status === "True" ? o : undefined;
      },
      180_000,
      2000,
    );
    assert.strictEqual(c.spec?.id, uid, "the Cluster carries the new cluster's kube-system UID");
    await waitFor(
      "the stand-in reports Running and Ready on the new pull-member",
      async () => {
        const o = await maybe(() => member.custom.getNamespacedCustomObject(IRIS) as Promise<Obj>);
        return o?.status?.phase === "Running" && condition(o, "Ready")?.status === "True";
      },
      420_000,
      3000,
    );
    console.log(
      `      replacement: up ${secs(upDone - t0)}, the IrisCluster Running on the new member ${secs(Date.now() - upDone)} later`,
    );
    await stack.preview(["--expect-no-changes"]);
  });

  it("a second up changes nothing", async () => {
    await stack.preview(["--expect-no-changes"]);
    const res = await stack.up(["--expect-no-changes"]);
    assert.doesNotMatch(res.stdout, /\b(created|updated|replaced|deleted)\b/, res.stdout);
  });

  it("taking the join out (up without it) leaves nothing of it behind: in Karmada, on the member", async () => {
    await setConfig(false);
    const t0 = Date.now();
    const res = await stack.up();
    assert.match(res.stdout, /Cluster pull-member-member-cluster deleted/);
    assert.strictEqual(await maybe(() => karmada.custom.getClusterCustomObject(CLUSTER)), undefined, "no Cluster");
    for (const [what, read] of [
      ["execution namespace", () => karmada.core.readNamespace({ name: `karmada-es-${MEMBER}` })],
      [
        "agent ServiceAccount",
        () =>
          karmada.core.readNamespacedServiceAccount({ name: `karmada-agent-${MEMBER}`, namespace: "karmada-cluster" }),
      ],
      [
        "agent token",
        () => karmada.core.readNamespacedSecret({ name: `karmada-agent-${MEMBER}`, namespace: "karmada-cluster" }),
      ],
      [
        "agent ClusterRole",
        () =>
          karmada.config
            .makeApiClient(k8s.RbacAuthorizationV1Api)
            .readClusterRole({ name: `system:karmada:${MEMBER}:agent` }),
      ],
      [
        "agent lease",
        () =>
          karmada.config
            .makeApiClient(k8s.CoordinationV1Api)
            .readNamespacedLease({ name: MEMBER, namespace: "karmada-cluster" }),
      ],
      ["member namespace karmada-cluster", () => member.core.readNamespace({ name: "karmada-cluster" })],
      [
        "member ClusterRole karmada-agent",
        () => member.config.makeApiClient(k8s.RbacAuthorizationV1Api).readClusterRole({ name: "karmada-agent" }),
      ],
      ["the IrisCluster on the member", () => member.custom.getNamespacedCustomObject(IRIS)],
      [
        "the license Secret on the member",
        () => member.core.readNamespacedSecret({ name: "federated-iris-license", namespace: "default" }),
      ],
    ] as [string, () => Promise<unknown>][]) {
      await waitFor(`no ${what}`, async () => (await maybe(read)) === undefined, 60_000, 2000);
    }
    console.log(`      unjoin (up without the join): ${secs(Date.now() - t0)}`);
  });

  it("destroy leaves no container", async () => {
    const res = await stack.destroy();
    for (const line of [
      /helm\.sh\/v3:Release karmada-karmada deleted/,
      /dynamic\/kind:Cluster pull-host-kind deleted/,
      /dynamic\/kind:Cluster pull-member-kind deleted/,
    ])
      assert.match(res.stdout, line);
    assert.deepStrictEqual(containersNamed([`${HOST}-`, `${MEMBER}-`]), []);
    assert.deepStrictEqual(
      kind("get", "clusters")
        .stdout.split("\n")
        .filter((n) => n === HOST || n === MEMBER),
      [],
    );
  });
});
