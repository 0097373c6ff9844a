/**
 * PullMemberRelease (pure, and its delete against a stand-in Karmada API): when a Pull member's
 * cluster is replaced, the Cluster is deleted and its Works being deleted are released until the
 * Cluster is gone.
 */
import * as assert from "assert";
import * as pulumi from "@pulumi/pulumi";
import { ApiAnswer } from "../../components/cluster/api";
import {
  PullMemberReleaseInputs,
  PullMemberReleaseProvider,
  releaseCluster,
  releaseTimeoutMessage,
  worksToRelease,
} from "../../components/karmada/pull-release";

const karmada = { server: "https://karmada.example:5443", insecure: false, token: "t" };
const inputs: PullMemberReleaseInputs = {
  cluster: "pull-member",
  memberIdentity: "kind:pull-member@ca-sha256:0123456789abcdef",
  timeoutSeconds: 5,
  karmada,
};
const WORKS = "/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-pull-member/works";
const CLUSTER = "/apis/cluster.karmada.io/v1alpha1/clusters/pull-member";

describe("PullMemberRelease (pure)", () => {
  it("releases only Works that are being deleted and still hold a finalizer, by name", () => {
    assert.deepStrictEqual(
      worksToRelease([
        {
          metadata: {
            name: "b",
            deletionTimestamp: "2026-12-06T00:00:00Z",
            finalizers: ["karmada.io/execution-controller"],
          },
        },
        { metadata: { name: "a", deletionTimestamp: "2026-12-06T00:00:00Z", finalizers: ["x"] } },
        { metadata: { name: "live", finalizers: ["karmada.io/execution-controller"] } },
        { metadata: { name: "free", deletionTimestamp: "2026-12-06T00:00:00Z", finalizers: [] } },
      ]),
      ["a", "b"],
    );
  });

  it("the timeout names the Cluster, what was seen last and where to look", () => {
    assert.strictEqual(
      releaseTimeoutMessage("pull-member", 300, "released 2 Works"),
      'Karmada Cluster "pull-member" (Pull mode) was not gone 300 s after its member cluster\'s replacement began ' +
        "(released 2 Works); check `kubectl get cluster pull-member` and the Works in karmada-es-pull-member in the Karmada API, then run up again",
    );
  });
});

describe("PullMemberRelease's delete (stand-in Karmada API)", () => {
  it("the provider serialises as Pulumi ships a dynamic provider (its API calls included)", async () => {
    const fn = await pulumi.runtime.serializeFunction(() => new PullMemberReleaseProvider(), {
      isFactoryFunction: true,
    });
    assert.match(fn.text, /merge-patch\+json/);
    assert.match(fn.text, /finalizers/);
  });

  /** A Karmada whose Cluster goes once no Work holds a finalizer. */
  function standIn(works: { name: string; finalizers: string[] }[]) {
    const calls: string[] = [];
    let deleting = false;
    const call = async (_k: unknown, method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
      calls.push(`${method} ${path}${body ? ` ${JSON.stringify(body)}` : ""}`);
      if (method === "DELETE" && path === CLUSTER) {
        deleting = true;
        return { status: 200 };
      }
      if (method === "GET" && path === CLUSTER)
        return deleting && works.every((w) => w.finalizers.length === 0) ? { status: 404 } : { status: 200, body: {} };
      if (method === "GET" && path === WORKS)
        return {
          status: 200,
          body: {
            items: works.map((w) => ({
              metadata: { name: w.name, finalizers: w.finalizers, deletionTimestamp: deleting ? "now" : undefined },
            })),
          },
        };
      if (method === "PATCH") {
        const w = works.find((x) => path === `${WORKS}/${x.name}`);
        if (w) w.finalizers = [];
        return { status: 200 };
      }
      return { status: 404 };
    };
    return { call, calls };
  }

  it("deletes the Cluster, releases the held Works with a merge patch, and returns once the Cluster is gone", async () => {
    const s = standIn([{ name: "iris-1", finalizers: ["karmada.io/execution-controller"] }]);
    await releaseCluster(inputs, s.call, 1);
    assert.deepStrictEqual(s.calls, [
      `DELETE ${CLUSTER}`,
      `GET ${CLUSTER}`,
      `GET ${WORKS}`,
      `PATCH ${WORKS}/iris-1 {"metadata":{"finalizers":null}}`,
      `GET ${CLUSTER}`,
    ]);
  });

  it("a Cluster already gone: nothing else is called", async () => {
    const calls: string[] = [];
    await releaseCluster(inputs, async (_k, m, p) => (calls.push(`${m} ${p}`), { status: 404 }), 1);
    assert.deepStrictEqual(calls, [`DELETE ${CLUSTER}`]);
  });

  it("a Cluster that never goes fails after the timeout with the one message", async () => {
    const stuck = async (_k: unknown, method: string): Promise<ApiAnswer> =>
      method === "GET" ? { status: 200, body: { items: [] } } : { status: 200 };
    await assert.rejects(
      releaseCluster({ ...inputs, timeoutSeconds: 1 }, stuck, 200),
      /^Error: Karmada Cluster "pull-member" \(Pull mode\) was not gone 1 s after/,
    );
  });
});
