/**
 * Unit (pure, and a local HTTP server): which chart repositories `up` would fetch from, and the
 * message when one does not answer (stacks/chart-check.ts).
 */
import * as assert from "assert";
import * as http from "http";
import * as path from "path";
import { AddressInfo } from "net";
import { validateFleetConfig, validateWfhConfig } from "../../stacks";
import { chartRepoChecks, chartRepoProblems, probeChartRepo } from "../../stacks/chart-check";

const CHART = path.resolve(__dirname, "../fixtures/iko-chart/iris-operator");
const CRD = path.resolve(__dirname, "../fixtures/crds/irisclusters.intersystems.com.yaml");

describe("chart repositories up fetches from, checked before anything is created (stacks/chart-check.ts)", () => {
  it("wfh on kind with Cilium from its repository: one check per cluster, naming its chartPath key", () => {
    const cfg = validateWfhConfig({
      program: "wfh",
      home: { name: "ikohome", cilium: { enabled: true } },
      work: { name: "ikowork", cilium: { enabled: true, chartPath: CHART } },
      iko: { chartPath: CHART, crdManifestPath: CRD },
    });
    assert.deepStrictEqual(chartRepoChecks(cfg), [
      { key: "home.cilium.chartPath", chart: "the Cilium chart of ikohome", repo: "https://helm.cilium.io/" },
    ]);
  });

  it("the IKO chart from iko.chartRepo, and the Karmada chart of a helm-mode fleet", () => {
    const cfg = validateFleetConfig({
      program: "fleet",
      clusters: [{ name: "ikofett", cilium: { enabled: false } }],
      karmada: { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443" },
      iko: { chartRepo: "https://charts.example.com/iko", chartVersion: "3.8.42", crdManifestPath: CRD },
    });
    assert.deepStrictEqual(
      chartRepoChecks(cfg).map((c) => c.key),
      ["iko.chartPath", "karmada.chartPath"],
    );
  });

  it("one problem per check whose repository did not answer; each repository probed once", async () => {
    const probed: string[] = [];
    const problems = await chartRepoProblems(
      [
        { key: "home.cilium.chartPath", chart: "the Cilium chart of ikohome", repo: "https://helm.cilium.io/" },
        { key: "work.cilium.chartPath", chart: "the Cilium chart of ikowork", repo: "https://helm.cilium.io/" },
        { key: "iko.chartPath", chart: "the IKO chart (iko.chartRepo)", repo: "https://ok.example/" },
      ],
      async (repo) => {
        probed.push(repo);
        return repo.includes("cilium") ? "ENOTFOUND" : "";
      },
    );
    assert.deepStrictEqual(probed, ["https://helm.cilium.io/", "https://ok.example/"]);
    assert.deepStrictEqual(problems, [
      "iko-plus:home.cilium.chartPath: not set, so up fetches the Cilium chart of ikohome from https://helm.cilium.io/, which does not answer (ENOTFOUND); set iko-plus:home.cilium.chartPath to a local copy of the chart, or make https://helm.cilium.io/ reachable",
      "iko-plus:work.cilium.chartPath: not set, so up fetches the Cilium chart of ikowork from https://helm.cilium.io/, which does not answer (ENOTFOUND); set iko-plus:work.cilium.chartPath to a local copy of the chart, or make https://helm.cilium.io/ reachable",
    ]);
  });

  it("the probe: a repository's index.yaml answering 200 is reachable; 404 and a refused port are not", async () => {
    const server = http.createServer((req, res) => {
      res.statusCode = req.url === "/good/index.yaml" ? 200 : 404;
      res.end("apiVersion: v1\n");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      assert.strictEqual(await probeChartRepo(`http://127.0.0.1:${port}/good/`), "");
      assert.strictEqual(await probeChartRepo(`http://127.0.0.1:${port}/bad`), "HTTP 404 for /bad/index.yaml");
    } finally {
      await new Promise((r) => server.close(r));
    }
    assert.strictEqual(await probeChartRepo(`http://127.0.0.1:${port}/good/`), "ECONNREFUSED");
  });
});
