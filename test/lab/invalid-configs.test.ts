/**
 * Bad input, end to end: each invalid configuration below (of the wfh, fleet and region stacks)
 * is previewed with the real CLI against the lab. Every preview must fail with exactly one problem, naming the key, the bad value and the
 * fix, and the lab's clusters (and the stack) must hold no new object afterwards. The number
 * rejected is reported as `RESULT invalid_configs_rejected <n>`.
 */
import * as assert from "assert";
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { labInventory } from "./inventory";
import { labKubeconfigPath } from "./kube";
import { PulumiCli, REPO } from "./pulumi-cli";
import { recordResult } from "./results";
import { committedStackFile } from "./stacks";

type Config = Record<string, unknown>;

interface Case {
  title: string;
  /** The lab stack file the case starts from. */
  from: "Pulumi.lab-wfh.yaml" | "Pulumi.lab-fleet.yaml" | "Pulumi.lab-dr-us-central1.yaml";
  /** Changes to the stack's config (keys without the project prefix). */
  change: (c: Config, files: Files) => void;
  /** Secret config keys the case sets (without the project prefix), from the values set up once in before(). */
  secrets?: string[];
  /** The problem's key (without prefix), its value as shown, and a fragment of the fix. */
  key: string;
  value: string;
  fix: string;
}

/** Files the cases point at, made once per run in a temp folder. */
interface Files {
  dir: string;
  noContext: string;
  deadEndpoint: string;
  deadKarmada: string;
}

const IMAGE = "containers.intersystems.com/intersystems/iris-community:2025.1";
const CHART = "./test/fixtures/iko-chart/iris-operator";
const CRD = "./test/fixtures/crds/irisclusters.intersystems.com.yaml";
const iris = (c: Config) => (c.irisClusters as Config[])[0];
const fic = (c: Config) => (c.federatedIrisClusters as Config[])[0];
const wfh = (
  title: string,
  change: Case["change"],
  key: string,
  value: string,
  fix: string,
  secrets?: string[],
): Case => ({ title, from: "Pulumi.lab-wfh.yaml", change, key, value, fix, secrets });
const fleet = (
  title: string,
  change: Case["change"],
  key: string,
  value: string,
  fix: string,
  secrets?: string[],
): Case => ({ title, from: "Pulumi.lab-fleet.yaml", change, key, value, fix, secrets });
const region = (title: string, change: Case["change"], key: string, value: string, fix: string): Case => ({
  title,
  from: "Pulumi.lab-dr-us-central1.yaml",
  change,
  key,
  value,
  fix,
});

const CASES: Case[] = [
  // The wfh stack (existing lab clusters, or kind clusters where the problem is about kind).
  wfh(
    "unknown program",
    (c) => {
      c.program = "fleeet";
    },
    "program",
    '"fleeet"',
    "use one of: wfh, fleet, region",
  ),
  wfh(
    "misspelled top-level key",
    (c) => {
      c.hom = {};
    },
    "hom",
    "{}",
    "is not a known key; use one of: program, home, work",
  ),
  wfh(
    "cluster name with capitals",
    (c) => {
      (c.home as Config).name = "IkoHome";
    },
    "home.name",
    '"IkoHome"',
    "is not a DNS-1123 label; use lowercase letters",
  ),
  wfh(
    "cluster name too long for Cilium",
    (c) => {
      c.work = { name: "w".repeat(40) };
    },
    "work.name",
    `"${"w".repeat(40)}"`,
    "Cilium ClusterMesh allows at most 32, so shorten it",
  ),
  wfh(
    "name that kind rejects (a dot)",
    (c) => {
      c.work = { name: "iko.work" };
    },
    "work.name",
    '"iko.work"',
    "is not a DNS-1123 label",
  ),
  wfh(
    "duplicate cluster names",
    (c) => {
      (c.work as Config).name = "ikohome";
    },
    "work.name",
    '"ikohome"',
    "is also the name of home; give every cluster its own name",
  ),
  wfh(
    "duplicate Cilium cluster ids",
    (c) => {
      c.home = { name: "ikohome" };
      c.work = { name: "ikowork", cilium: { clusterId: 1 } };
    },
    "work.cilium.clusterId",
    "1",
    "is also home's Cilium cluster id; give every cluster its own id",
  ),
  wfh(
    "Cilium cluster id out of range",
    (c) => {
      c.home = { name: "ikohome", cilium: { clusterId: 256 } };
    },
    "home.cilium.clusterId",
    "256",
    "must be a whole number from 1 to 255",
  ),
  wfh(
    "unknown cluster source",
    (c) => {
      c.home = { name: "ikohome", source: "eks" };
    },
    "home.source",
    '"eks"',
    "use one of: kind, kubeconfig",
  ),
  wfh(
    "kubeconfig source without a kubeconfig",
    (c) => {
      c.home = { name: "ikohome", source: "kubeconfig" };
    },
    "home.source",
    '"kubeconfig"',
    "set home.kubeconfigPath or `pulumi config set --secret homeKubeconfig",
  ),
  wfh(
    "missing kubeconfig file",
    (c, f) => {
      (c.work as Config).kubeconfigPath = path.join(f.dir, "missing");
    },
    "work.kubeconfigPath",
    '"<dir>/missing"',
    "cannot be read (ENOENT); point it at an existing kubeconfig file",
  ),
  wfh(
    "unreadable kubeconfig (a folder)",
    (c, f) => {
      (c.work as Config).kubeconfigPath = f.dir;
    },
    "work.kubeconfigPath",
    '"<dir>"',
    "cannot be read (EISDIR); point it at an existing kubeconfig file",
  ),
  wfh(
    "kubeconfig without a current context",
    (c, f) => {
      (c.work as Config).kubeconfigPath = f.noContext;
    },
    "work.kubeconfigPath",
    '"<dir>/no-context.kubeconfig"',
    "has no current-context; set one with `kubectl config use-context",
  ),
  wfh(
    "kubeconfig with a dead endpoint",
    (c, f) => {
      (c.work as Config).kubeconfigPath = f.deadEndpoint;
    },
    "work.kubeconfigPath",
    '"<dir>/dead-endpoint.kubeconfig"',
    "which does not answer (ECONNREFUSED); start the cluster, or fix the kubeconfig's server",
  ),
  wfh(
    "secret kubeconfig that is not YAML (value hidden)",
    (c) => {
      c.work = { name: "ikowork" };
    },
    "workKubeconfig",
    "[secret]",
    "is not a usable kubeconfig: is not valid YAML",
    ["workKubeconfig"],
  ),
  wfh(
    "negative kind workers",
    (c) => {
      c.home = { name: "ikohome", workers: -1 };
    },
    "home.workers",
    "-1",
    "must be a whole number from 0 to 20",
  ),
  wfh(
    "untagged kind node image",
    (c) => {
      c.home = { name: "ikohome", nodeImage: "kindest/node" };
    },
    "home.nodeImage",
    '"kindest/node"',
    "has no tag; pin a version",
  ),
  wfh(
    "unknown kube-proxy mode",
    (c) => {
      c.home = { name: "ikohome", kubeProxyMode: "userspace" };
    },
    "home.kubeProxyMode",
    '"userspace"',
    "use one of: iptables, ipvs, nftables, none",
  ),
  wfh(
    "malformed pod subnet",
    (c) => {
      c.home = { name: "ikohome", podSubnet: "10.244.0.0" };
    },
    "home.podSubnet",
    '"10.244.0.0"',
    "is not an IPv4 CIDR; use a.b.c.d/n",
  ),
  wfh(
    "overlapping pod subnets (ClusterMesh)",
    (c) => {
      c.home = { name: "ikohome", podSubnet: "10.244.0.0/16" };
      c.work = { name: "ikowork", podSubnet: "10.244.128.0/17" };
    },
    "work.podSubnet",
    '"10.244.128.0/17"',
    "ClusterMesh needs pod subnets apart",
  ),
  wfh(
    "no IKO chart",
    (c) => {
      c.iko = { crdManifestPath: CRD };
    },
    "iko.chartPath",
    "(not set)",
    "set it to the IKO chart folder",
  ),
  wfh(
    "IKO chart path that does not exist",
    (c) => {
      (c.iko as Config).chartPath = "./no-such-chart";
    },
    "iko.chartPath",
    '"./no-such-chart"',
    "does not exist; point it at the IKO chart folder",
  ),
  wfh(
    "chart repo without a version",
    (c) => {
      c.iko = { chartRepo: "oci://registry.example/iko", crdManifestPath: CRD };
    },
    "iko.chartVersion",
    "(not set)",
    "pin the chart version",
  ),
  wfh(
    "remote operator with a webhook on",
    (c) => {
      (c.iko as Config).values = { apiserver: { enableMutatingWebhook: true } };
    },
    "iko.values.apiserver.enableMutatingWebhook",
    "true",
    "a remote operator must run with both webhooks off",
  ),
  wfh(
    "operator image tagged latest",
    (c) => {
      (c.iko as Config).image = "containers.intersystems.com/intersystems/iris-operator-amd:latest";
    },
    "iko.image",
    '"containers.intersystems.com/intersystems/iris-operator-amd:latest"',
    'uses the tag "latest"; pin a version',
  ),
  wfh(
    "unknown credentials mode",
    (c) => {
      (c.iko as Config).credentials = "root";
    },
    "iko.credentials",
    '"root"',
    "use one of: serviceAccount, admin",
  ),
  wfh(
    "credential generation zero",
    (c) => {
      (c.iko as Config).credentialGeneration = 0;
    },
    "iko.credentialGeneration",
    "0",
    "raise it by one to rotate",
  ),
  wfh(
    "relative operator kubeconfig path",
    (c) => {
      (c.iko as Config).kubeconfigPath = "airgap/config";
    },
    "iko.kubeconfigPath",
    '"airgap/config"',
    "must be an absolute file path",
  ),
  wfh(
    "Secret name with capitals",
    (c) => {
      (c.iko as Config).secretName = "Work_Kubeconfig";
    },
    "iko.secretName",
    '"Work_Kubeconfig"',
    "is not a DNS-1123 subdomain",
  ),
  wfh(
    "Secret key with a space",
    (c) => {
      (c.iko as Config).secretKey = "my config";
    },
    "iko.secretKey",
    '"my config"',
    "is not a valid Secret key",
  ),
  wfh(
    "remote operator without a CRD source",
    (c) => {
      c.iko = { chartPath: CHART };
    },
    "iko.crdManifestPath",
    "(not set)",
    "export the CRD with `kubectl get crd irisclusters.intersystems.com -o yaml",
  ),
  wfh(
    "IrisCluster without an image",
    (c) => {
      delete iris(c).image;
    },
    "irisClusters[0].image",
    "(not set)",
    "is required; e.g. containers.intersystems.com",
  ),
  wfh(
    "IrisCluster name with an underscore",
    (c) => {
      iris(c).name = "iris_at_work";
    },
    "irisClusters[0].name",
    '"iris_at_work"',
    "is not a DNS-1123 label",
  ),
  wfh(
    "duplicate IrisClusters",
    (c) => {
      c.irisClusters = [iris(c), iris(c)];
    },
    "irisClusters[1].name",
    '"iris-at-work"',
    "is used twice in namespace default",
  ),
  wfh(
    "licensed IRIS image without a license key",
    (c) => {
      iris(c).image = "containers.intersystems.com/intersystems/iris:2025.1";
    },
    "irisClusters[0].licenseKeySecret",
    "(not set)",
    "name the Secret holding iris.key, or use an iris-community image",
  ),
  wfh(
    "IrisCluster image tagged latest",
    (c) => {
      iris(c).image = "containers.intersystems.com/intersystems/iris-community:latest";
    },
    "irisClusters[0].image",
    '"containers.intersystems.com/intersystems/iris-community:latest"',
    'uses the tag "latest"; pin a version',
  ),
  wfh(
    "IrisCluster image that is not a reference",
    (c) => {
      iris(c).image = "iris community 2025";
    },
    "irisClusters[0].image",
    '"iris community 2025"',
    "is not a valid image reference",
  ),
  wfh(
    "unknown service type",
    (c) => {
      iris(c).serviceType = "Ingress";
    },
    "irisClusters[0].serviceType",
    '"Ingress"',
    "use one of: ClusterIP, NodePort, LoadBalancer",
  ),
  wfh(
    "negative compute replicas",
    (c) => {
      iris(c).spec = { topology: { data: { image: IMAGE }, compute: { image: IMAGE, replicas: -2 } } };
    },
    "irisClusters[0].spec.topology.compute.replicas",
    "-2",
    "must be a whole number from 0 to 100",
  ),
  wfh(
    "zero data shards",
    (c) => {
      iris(c).spec = { topology: { data: { image: IMAGE, shards: 0 } } };
    },
    "irisClusters[0].spec.topology.data.shards",
    "0",
    "must be a whole number from 1 to 64",
  ),
  wfh(
    "misspelled cluster key",
    (c) => {
      (c.work as Config).wokers = 2;
    },
    "work.wokers",
    "2",
    "is not a known key",
  ),

  // The fleet stack (the lab's Karmada and members ikoclone and ikogke).
  fleet(
    "placement naming an unknown cluster",
    (c) => {
      fic(c).placement = { clusterNames: ["ikoghost"] };
    },
    "federatedIrisClusters[0].placement.clusterNames",
    '"ikoghost"',
    "is not a joined member of this fleet; use one of: ikoclone, ikogke",
  ),
  fleet(
    "placement naming a cluster that is not joined",
    (c) => {
      (c.clusters as Config[]).push({ name: "ikohome", kubeconfigPath: labKubeconfigPath("ikohome") });
      fic(c).placement = { clusterNames: ["ikohome"] };
    },
    "federatedIrisClusters[0].placement.clusterNames",
    '"ikohome"',
    "is not a joined member of this fleet",
  ),
  fleet(
    "an empty placement",
    (c) => {
      fic(c).placement = {};
    },
    "federatedIrisClusters[0].placement",
    "{}",
    "places the object nowhere",
  ),
  fleet(
    "an override for a cluster that is not a member",
    (c) => {
      (fic(c).overrides as Config[])[0].clusterNames = ["ikowork"];
    },
    "federatedIrisClusters[0].overrides[0].clusterNames",
    '"ikowork"',
    "is not a joined member of this fleet",
  ),
  fleet(
    "an override path that is not a JSON pointer",
    (c) => {
      ((fic(c).overrides as Config[])[0].plaintext as Config[])[0].path = "spec.storageClassName";
    },
    "federatedIrisClusters[0].overrides[0].plaintext[0].path",
    '"spec.storageClassName"',
    "must be a JSON pointer",
  ),
  fleet(
    "duplicate member names",
    (c) => {
      (c.clusters as Config[]).push({ name: "ikoclone", kubeconfigPath: labKubeconfigPath("ikowork") });
    },
    "clusters[2].name",
    '"ikoclone"',
    "is also the name of clusters[0]",
  ),
  fleet(
    "an existing Karmada without a kubeconfig",
    (c) => {
      c.karmada = { mode: "existing" };
    },
    "karmada.kubeconfigPath",
    "(not set)",
    "is required, or give the kubeconfig's contents instead",
  ),
  fleet(
    "an existing Karmada with a dead endpoint",
    (c, f) => {
      c.karmada = { mode: "existing", kubeconfigPath: f.deadKarmada };
    },
    "karmada.kubeconfigPath",
    '"<dir>/dead-karmada.kubeconfig"',
    "which does not answer (ECONNREFUSED)",
  ),
  fleet(
    "a Karmada host that is not one of the clusters",
    (c) => {
      c.karmada = { mode: "helm", host: "ikokamino", endpoint: "https://127.0.0.1:32443" };
    },
    "karmada.host",
    '"ikokamino"',
    "is not one of this stack",
  ),
  fleet(
    "a Karmada NodePort out of range",
    (c) => {
      (c.clusters as Config[]).push({ name: "ikofett" });
      c.karmada = { mode: "helm", host: "ikofett", endpoint: "https://127.0.0.1:32443", nodePort: 5443 };
    },
    "karmada.nodePort",
    "5443",
    "from 30000 to 32767",
  ),
  fleet(
    "a license key in plain config",
    (c) => {
      fic(c).licenseKeyConfig = "plainLicense";
      c.plainLicense = "LICENSE TEXT";
    },
    "federatedIrisClusters[0].licenseKeyConfig",
    '"plainLicense"',
    "which is not a secret; set it again with `pulumi config set --secret plainLicense",
  ),
  fleet(
    "a fleet Secret whose data is not set",
    (c) => {
      (c.fleetSecrets as Config[])[0].dataKey = "noSuchData";
    },
    "fleetSecrets[0].dataKey",
    '"noSuchData"',
    "which is not set; set it with `pulumi config set --secret noSuchData",
  ),
  fleet(
    "a fleet Secret going nowhere",
    (c) => {
      delete (c.fleetSecrets as Config[])[0].clusterNames;
    },
    "fleetSecrets[0]",
    '"{...}"',
    "sends the Secret nowhere; set clusterNames, labels or matchExpressions",
  ),
  fleet(
    "a GKE member without a location",
    (c) => {
      (c.clusters as Config[]).push({ name: "ikogcp", source: "gke", gke: {} });
    },
    "clusters[2].gke.location",
    "(not set)",
    "is required for a GKE cluster",
  ),
  fleet(
    "a stray top-level key",
    (c) => {
      c.members = [];
    },
    "members",
    "[]",
    "is not a known key",
  ),
  // A region stack (DR): its member joins the fleet stack's Karmada.
  region(
    "a fleet stack name that is not a stack name",
    (c) => {
      c.fleetStack = "organization/iko plus/dr-fleet";
    },
    "fleetStack",
    '"organization/iko plus/dr-fleet"',
    "is not a stack name; use <stack> or <org>/<project>/<stack>",
  ),
  region(
    "a region stack naming itself as its fleet",
    (c) => {
      c.fleetStack = "labtest-invalid";
    },
    "fleetStack",
    '"labtest-invalid"',
    "is this region stack itself; name the fleet stack that runs Karmada",
  ),
  region(
    "a region name with capitals and a space",
    (c) => {
      c.region = "US Central";
    },
    "region",
    '"US Central"',
    "is not a region name; use lowercase letters, digits and '-'",
  ),
  region(
    "zones given as one string, not a list",
    (c) => {
      c.zones = "us-central1-a";
    },
    "zones",
    '"us-central1-a"',
    "must be a non-empty list of zone names",
  ),
  region(
    "a misspelled region key",
    (c) => {
      c.regoin = c.region;
    },
    "regoin",
    '"us-central1"',
    "is not a known key",
  ),
  region(
    "a region member without the CRD to place IrisClusters",
    (c) => {
      delete (c.iko as Config).crdManifestPath;
    },
    "iko.crdManifestPath",
    "(not set)",
    "Karmada places IrisClusters only on members that serve the CRD",
  ),
  fleet(
    "a licensed IRIS image without a license key",
    (c) => {
      fic(c).image = "containers.intersystems.com/intersystems/iris:2025.1";
      delete fic(c).licenseKeyConfig;
    },
    "federatedIrisClusters[0].licenseKeyConfig",
    "(not set)",
    "is required for the licensed image",
  ),
];

/** Runs `fn` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

/** A copy of a lab kubeconfig whose server is a port nothing listens on. */
async function deadCopy(source: string, target: string): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  fs.writeFileSync(
    target,
    fs.readFileSync(source, "utf8").replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://127.0.0.1:${port}`),
  );
}

describe("lab: invalid configurations are rejected by pulumi preview, one message each, nothing created", function () {
  let cli: PulumiCli;
  const stack = "labtest-invalid";
  let files: Files;
  let encryption: Config;

  before(async () => {
    cli = new PulumiCli();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iko-plus-invalid-"));
    files = {
      dir,
      noContext: path.join(dir, "no-context.kubeconfig"),
      deadEndpoint: path.join(dir, "dead-endpoint.kubeconfig"),
      deadKarmada: path.join(dir, "dead-karmada.kubeconfig"),
    };
    fs.writeFileSync(
      files.noContext,
      fs.readFileSync(labKubeconfigPath("ikowork"), "utf8").replace(/current-context: .*\n/, ""),
    );
    await deadCopy(labKubeconfigPath("ikowork"), files.deadEndpoint);
    await deadCopy(labKubeconfigPath("karmada"), files.deadKarmada);
    // One stack; every case previews it with its own --config-file. The passphrase salt lives in
    // the stack's file, so each case file carries it (and the fleet's secrets, encrypted once).
    await cli.ok(["stack", "init", stack, "--secrets-provider", "passphrase"]);
    const secretsFile = path.join(dir, "secrets.yaml");
    fs.copyFileSync(path.join(REPO, `Pulumi.${stack}.yaml`), secretsFile);
    const secrets: Record<string, string> = {
      irisLicenseKey: "LAB-LICENSE-KEY",
      shhhhSecretData: JSON.stringify({ password: "lab-password" }),
      workKubeconfig: "token: [oops",
    };
    for (const [k, v] of Object.entries(secrets)) {
      await cli.ok(["config", "set", "--secret", "--stack", stack, "--config-file", secretsFile, `iko-plus:${k}`, v]);
    }
    encryption = YAML.parse(fs.readFileSync(secretsFile, "utf8")) as Config;
  });

  after(async () => {
    await cli.run(["stack", "rm", "--yes", "--force", "--stack", stack]);
    fs.rmSync(path.join(REPO, `Pulumi.${stack}.yaml`), { force: true });
    fs.rmSync(files.dir, { recursive: true, force: true });
    cli?.dispose();
  });

  it(`${CASES.length} invalid configurations: each preview fails with its one problem (key, value, fix), and the lab holds no new object`, async () => {
    const before = await labInventory();
    const failures: string[] = [];
    let rejected = 0;
    const secure = (encryption.config ?? {}) as Config;
    await pool(CASES, 3, async (c, i) => {
      const base = YAML.parse(fs.readFileSync(committedStackFile(c.from), "utf8")) as { config: Config };
      // Keys without prefix for the change; lab paths for the lab's clusters.
      const cfg: Config = {};
      for (const [k, v] of Object.entries(base.config)) if (k.startsWith("iko-plus:")) cfg[k.slice(9)] = v;
      for (const name of ["home", "work"])
        if (cfg[name]) (cfg[name] as Config).kubeconfigPath = labKubeconfigPath((cfg[name] as Config).name as string);
      if (Array.isArray(cfg.clusters))
        for (const m of cfg.clusters as Config[]) m.kubeconfigPath = labKubeconfigPath(m.name as string);
      if (cfg.karmada) (cfg.karmada as Config).kubeconfigPath = labKubeconfigPath("karmada");
      if (cfg.member) (cfg.member as Config).kubeconfigPath = labKubeconfigPath((cfg.member as Config).name as string);
      c.change(cfg, files);
      const config: Config = { "pulumi:disable-default-providers": ["kubernetes"] };
      for (const [k, v] of Object.entries(cfg)) config[`iko-plus:${k}`] = v;
      // The fleet's secrets, where the changed config still names them (an unnamed one is a problem of its own).
      const named = JSON.stringify(cfg);
      const wanted = [
        ...["irisLicenseKey", "shhhhSecretData"].filter((k) => named.includes(`"${k}"`)),
        ...(c.secrets ?? []),
      ];
      for (const k of wanted) config[`iko-plus:${k}`] = secure[`iko-plus:${k}`];
      const file = path.join(files.dir, `case-${i}.yaml`);
      fs.writeFileSync(file, YAML.stringify({ encryptionsalt: encryption.encryptionsalt, config }));

      const res = await cli.run(["preview", "--stack", stack, "--config-file", file]);
      const out = `${res.stdout}\n${res.stderr}`;
      const problems = out
        .split("\n")
        .filter((l) => /^\s+- iko-plus:/.test(l))
        .map((l) => l.replace(/^\s+- /, "").replaceAll(files.dir, "<dir>"));
      const expectedStart = `iko-plus:${c.key}: ${c.value} `;
      const why =
        res.code === 0
          ? "the preview succeeded"
          : !/invalid configuration \(1 problem\)/.test(out)
            ? `not one config problem:\n${out.split("\n").slice(-15).join("\n")}`
            : problems.length !== 1
              ? `problems: ${JSON.stringify(problems)}`
              : !problems[0].startsWith(expectedStart)
                ? `expected it to start with ${JSON.stringify(expectedStart)}, got ${JSON.stringify(problems[0])}`
                : !problems[0].includes(c.fix)
                  ? `expected the fix ${JSON.stringify(c.fix)} in ${JSON.stringify(problems[0])}`
                  : /LAB-LICENSE-KEY|lab-password|oops/.test(out)
                    ? "a secret value appears in the output"
                    : "";
      if (why) failures.push(`${c.title}: ${why}`);
      else rejected++;
    });
    const after = await labInventory();
    const created = [...after].filter((o) => !before.has(o));
    const exported = (await cli.ok(["stack", "export", "--stack", stack])).stdout;
    const resources = ((JSON.parse(exported) as { deployment?: { resources?: unknown[] } }).deployment?.resources ?? [])
      .length;
    console.log(
      `      ${rejected} of ${CASES.length} invalid configurations rejected; ${created.length} new objects on the lab; ${resources} resources in the stack`,
    );
    recordResult("invalid_configs_rejected", rejected);
    assert.deepStrictEqual(failures, []);
    assert.deepStrictEqual(created, [], "no object was created on the lab's clusters");
    assert.strictEqual(resources, 0, "the stack holds no resource");
  });
});
