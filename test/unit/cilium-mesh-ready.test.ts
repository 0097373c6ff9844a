/**
 * ClusterMeshReady: the wait until every agent of every mesh member holds the other members'
 * backends of the probe Service; and the pod exec it reads agents with (components/cluster/api.ts),
 * run against a stand-in API server on loopback (real TLS, a real WebSocket upgrade).
 */
import * as assert from "assert";
import * as https from "https";
import * as pulumi from "@pulumi/pulumi";
import type { Duplex } from "stream";
import { execInPod, execPath, execResultOf, parseWsFrames } from "../../components/cluster/api";
import {
  ClusterMeshReadyProvider,
  MESH_PROBE_SERVICE,
  agentGap,
  meshProbeServiceManifest,
  meshReadyTimeoutMessage,
  readyAddresses,
  serviceBackends,
  waitForMesh,
} from "../../components/cilium/mesh-ready";
import { generateFleetCa } from "../../components/tls/ca";

/** A server frame (unmasked), as an API server sends it; `mask` masks it as a client would. */
function frame(opcode: number, payload: Buffer, mask?: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : len < 65536
        ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff])
        : Buffer.concat([
            Buffer.from([0x80 | opcode, 127]),
            Buffer.from(BigInt(len).toString(16).padStart(16, "0"), "hex"),
          ]);
  if (!mask) return Buffer.concat([head, payload]);
  head[1] |= 0x80;
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  return Buffer.concat([head, mask, body]);
}
const channel = (n: number, text: string) => frame(2, Buffer.concat([Buffer.from([n]), Buffer.from(text)]));

/** Cilium's `service list -o json` entry (api/v1/models: ServiceSpec) for a Service. */
const entry = (ns: string, name: string, frontend: string, backends: string[]) => ({
  spec: {
    id: 7,
    "frontend-address": { ip: frontend, port: 2379, protocol: "TCP", scope: "external" },
    "backend-addresses": backends.map((ip) => ({ ip, port: 2379, state: "active" })),
    flags: { name, namespace: ns, type: "ClusterIP" },
  },
  status: { realized: {} },
});

describe("unit (pure): ClusterMeshReady's reading of Cilium and the API", () => {
  it("the probe Service: global, ClusterIP, backed by the member's clustermesh-apiserver, ours", () => {
    assert.deepStrictEqual(meshProbeServiceManifest(), {
      metadata: {
        name: "iko-plus-mesh-probe",
        namespace: "kube-system",
        labels: { "app.kubernetes.io/managed-by": "iko-plus" },
        annotations: { "service.cilium.io/global": "true" },
      },
      spec: {
        type: "ClusterIP",
        selector: { "k8s-app": "clustermesh-apiserver" },
        ports: [{ name: "probe", port: 2379, targetPort: 2379, protocol: "TCP" }],
      },
    });
  });

  it("serviceBackends: the backends of every frontend of that Service only, sorted, once each", () => {
    const list = [
      entry("kube-system", MESH_PROBE_SERVICE, "10.97.0.5", ["10.246.0.9", "10.245.0.3"]),
      entry("kube-system", MESH_PROBE_SERVICE, "172.18.0.2", ["10.245.0.3"]),
      entry("default", MESH_PROBE_SERVICE, "10.97.0.6", ["10.1.1.1"]),
      entry("kube-system", "other", "10.97.0.7", ["10.2.2.2"]),
      { spec: { flags: { name: MESH_PROBE_SERVICE, namespace: "kube-system" }, "backend-addresses": null } },
    ];
    assert.deepStrictEqual(serviceBackends(list, { namespace: "kube-system", name: MESH_PROBE_SERVICE }), [
      "10.245.0.3",
      "10.246.0.9",
    ]);
    assert.deepStrictEqual(serviceBackends({ not: "a list" }, { namespace: "kube-system", name: "x" }), []);
  });

  it("readyAddresses: endpoints not marked unready, across slices", () => {
    const list = {
      items: [
        {
          endpoints: [
            { addresses: ["10.0.0.2"], conditions: { ready: true } },
            { addresses: ["10.0.0.3"], conditions: { ready: false } },
          ],
        },
        { endpoints: [{ addresses: ["10.0.0.1"], conditions: {} }] },
        { endpoints: null },
      ],
    };
    assert.deepStrictEqual(readyAddresses(list), ["10.0.0.1", "10.0.0.2"]);
    assert.deepStrictEqual(readyAddresses(undefined), []);
  });

  it("agentGap: what an agent lacks of each other member (never its own), or why it is unknown", () => {
    const own = { a: ["10.1.0.1"], b: ["10.2.0.1", "10.2.0.2"], c: [], d: "its API answered 503" };
    assert.deepStrictEqual(agentGap("a", "cilium-x", ["10.2.0.1"], own), {
      member: "a",
      agent: "cilium-x",
      missing: { b: ["10.2.0.2"], c: "its clustermesh-apiserver has no ready pod", d: "its API answered 503" },
    });
    assert.strictEqual(
      agentGap("a", "cilium-x", ["10.2.0.1", "10.2.0.2"], { a: [], b: ["10.2.0.1", "10.2.0.2"] }),
      undefined,
    );
  });

  it("the timeout message names each agent, the member it lacks, and the fix", () => {
    assert.strictEqual(
      meshReadyTimeoutMessage(300, [
        { member: "mesh-a", agent: "cilium-q", missing: { "mesh-b": ["10.246.0.9"] } },
        "mesh-b has no running Cilium agent (200)",
      ]),
      "the Cilium ClusterMesh did not carry the global Service kube-system/iko-plus-mesh-probe between its members within 300 s: " +
        "mesh-a's agent cilium-q holds no backend of mesh-b (lacks 10.246.0.9); mesh-b has no running Cilium agent (200); " +
        "check each member's clustermesh-apiserver and its kvstoremesh (kubectl -n kube-system logs deploy/clustermesh-apiserver -c kvstoremesh) " +
        "and that every member reaches the others' clustermesh-apiserver address and NodePort, then run up again",
    );
  });

  it("parseWsFrames: short, 16-bit and 64-bit lengths, a masked frame, and an incomplete tail kept", () => {
    const big = Buffer.alloc(70_000, 7);
    const mid = Buffer.alloc(300, 5);
    const data = Buffer.concat([
      frame(2, Buffer.from("ab")),
      frame(2, mid),
      frame(2, big),
      frame(1, Buffer.from("hi"), Buffer.from([1, 2, 3, 4])),
      frame(8, Buffer.alloc(0)),
      frame(2, Buffer.from("partial")).subarray(0, 5),
    ]);
    const { frames, rest } = parseWsFrames(data);
    assert.deepStrictEqual(
      frames.map((f) => [f.opcode, f.payload.length]),
      [
        [2, 2],
        [2, 300],
        [2, 70_000],
        [1, 2],
        [8, 0],
      ],
    );
    assert.strictEqual(frames[3].payload.toString(), "hi");
    assert.ok(frames[2].payload.equals(big));
    assert.strictEqual(rest.length, 5);
  });

  it("the provider serialises as Pulumi ships a dynamic provider (its exec included)", async () => {
    const fn = await pulumi.runtime.serializeFunction(() => new ClusterMeshReadyProvider(), {
      isFactoryFunction: true,
    });
    assert.match(fn.text, /v4\.channel\.k8s\.io/);
  });

  it("execResultOf and execPath: channels 1, 2 and 3 of v4.channel.k8s.io; one command parameter per argument", () => {
    const frames = parseWsFrames(
      Buffer.concat([channel(1, "out1 "), channel(2, "err"), channel(1, "out2"), channel(3, '{"status":"Success"}')]),
    ).frames;
    assert.deepStrictEqual(execResultOf(frames), { stdout: "out1 out2", stderr: "err", status: { status: "Success" } });
    assert.strictEqual(
      execPath("kube-system", "cilium-x", "cilium-agent", ["cilium-dbg", "service", "list", "-o", "json"]),
      "/api/v1/namespaces/kube-system/pods/cilium-x/exec?command=cilium-dbg&command=service&command=list&command=-o&command=json&container=cilium-agent&stdout=true&stderr=true",
    );
  });
});

/** A stand-in API server on loopback: GETs answered from `answers`, exec upgrades from `execs`. */
class FakeApi {
  server: https.Server;
  port = 0;
  answers: Record<string, unknown> = {};
  /** By pod name: what each exec into it answers, in turn (the last repeats). */
  execs: Record<string, string[]> = {};
  requests: string[] = [];
  constructor(cert: { certPem: string; keyPem: string }) {
    this.server = https.createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
      this.requests.push(`GET ${req.url}`);
      const a = this.answers[req.url ?? ""];
      if (a === undefined || typeof a === "number") res.writeHead(typeof a === "number" ? a : 404).end("{}");
      else res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(a));
    });
    this.server.on("upgrade", (req, socket: Duplex) => {
      this.requests.push(`EXEC ${req.url}`);
      if (req.headers.authorization !== "Bearer t0ken") {
        socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      const pod = /\/pods\/([^/]+)\/exec/.exec(req.url ?? "")?.[1] ?? "";
      const queue = this.execs[pod] ?? [];
      const out = queue.length > 1 ? (queue.shift() as string) : (queue[0] ?? "");
      socket.write(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Protocol: v4.channel.k8s.io\r\n\r\n",
      );
      // Split across writes, as a real server may send it.
      const bytes = Buffer.concat([channel(1, out), channel(3, '{"status":"Success"}'), frame(8, Buffer.alloc(0))]);
      socket.write(bytes.subarray(0, 3));
      setTimeout(() => socket.end(bytes.subarray(3)), 5);
    });
  }
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", () => r()));
    this.port = (this.server.address() as { port: number }).port;
  }
  access(token = "t0ken") {
    return { server: `https://127.0.0.1:${this.port}`, insecure: true, token };
  }
}

describe("unit (stand-in API server, real TLS and WebSocket): exec and the mesh wait", () => {
  const cert = generateFleetCa({ keyBits: 2048, commonName: "fake apiserver" });
  const a = new FakeApi(cert);
  const b = new FakeApi(cert);
  const slices = `/apis/discovery.k8s.io/v1/namespaces/kube-system/endpointslices?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${MESH_PROBE_SERVICE}`)}`;
  const pods = `/api/v1/namespaces/kube-system/pods?labelSelector=${encodeURIComponent("k8s-app=cilium")}`;
  const running = (name: string) => ({ metadata: { name }, status: { phase: "Running" } });
  before(async () => {
    await a.start();
    await b.start();
  });
  after(() => {
    a.server.close();
    b.server.close();
  });

  it("execInPod: what the command wrote, through a real upgrade; a refused upgrade is an error naming the pod", async () => {
    a.execs = { "cilium-a1": ["hello from the agent"] };
    const r = await execInPod(a.access(), { namespace: "kube-system", pod: "cilium-a1", container: "cilium-agent" }, [
      "cilium-dbg",
      "status",
    ]);
    assert.deepStrictEqual(r, { stdout: "hello from the agent", stderr: "", status: { status: "Success" } });
    const refused = await execInPod(
      a.access("wrong"),
      { namespace: "kube-system", pod: "cilium-a1", container: "cilium-agent" },
      ["true"],
    );
    assert.strictEqual(refused.error, "exec in kube-system/cilium-a1 (cilium-agent): HTTP 401 (no WebSocket upgrade)");
    assert.doesNotMatch(JSON.stringify(refused), /wrong/);
  });

  it("waitForMesh: returns once each member's agents hold the other's probe backends (a lacks b's at first)", async () => {
    a.answers = {
      [slices]: { items: [{ endpoints: [{ addresses: ["10.245.0.3"] }] }] },
      [pods]: { items: [running("cilium-a1")] },
    };
    b.answers = {
      [slices]: { items: [{ endpoints: [{ addresses: ["10.246.0.9"] }] }] },
      [pods]: { items: [running("cilium-b1")] },
    };
    const list = (backends: string[]) =>
      JSON.stringify([entry("kube-system", MESH_PROBE_SERVICE, "10.97.0.5", backends)]);
    a.execs = { "cilium-a1": [list(["10.245.0.3"]), list(["10.245.0.3", "10.246.0.9"])] };
    b.execs = { "cilium-b1": [list(["10.245.0.3", "10.246.0.9"])] };
    a.requests.length = 0;
    await waitForMesh(
      {
        members: [
          { name: "mesh-a", kubeconfig: a.access() },
          { name: "mesh-b", kubeconfig: b.access() },
        ],
        timeoutSeconds: 30,
        triggers: [],
      },
      10,
    );
    assert.strictEqual(a.requests.filter((r) => r.startsWith("EXEC")).length, 2, a.requests.join("\n"));
  });

  it("waitForMesh: fails after its timeout with the one message naming the agent and the member it lacks", async () => {
    a.execs = {
      "cilium-a1": [JSON.stringify([entry("kube-system", MESH_PROBE_SERVICE, "10.97.0.5", ["10.245.0.3"])])],
    };
    await assert.rejects(
      waitForMesh(
        {
          members: [
            { name: "mesh-a", kubeconfig: a.access() },
            { name: "mesh-b", kubeconfig: b.access() },
          ],
          timeoutSeconds: 0,
          triggers: [],
        },
        10,
      ),
      (e: Error) =>
        e.message.startsWith(
          "the Cilium ClusterMesh did not carry the global Service kube-system/iko-plus-mesh-probe between its members within 0 s: mesh-a's agent cilium-a1 holds no backend of mesh-b (lacks 10.246.0.9); check",
        ) && !/t0ken/.test(e.message),
    );
  });
});
