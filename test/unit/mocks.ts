/**
 * Pulumi mocks for unit tests: records every registered resource with its inputs, provider,
 * parent and dependencies (read from the register request), and fills in what real
 * controllers would (ServiceAccount tokens, kind kubeconfigs).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { kindClusterIdentity } from "../../components/kind/provider";

export interface Registered {
  type: string;
  name: string;
  urn: string;
  inputs: Record<string, unknown>;
  provider: string;
  parent: string;
  dependencies: string[];
  custom: boolean;
  /** The outputs the resource's options mark secret (`additionalSecretOutputs`). */
  additionalSecretOutputs: string[];
  /** The `deleteBeforeReplace` option. */
  deleteBeforeReplace: boolean;
  /** The `protect` option. */
  protect: boolean;
}

/**
 * The token the mocks give a ServiceAccount token Secret: its own, from its namespace and name,
 * so a token wired from the wrong Secret shows.
 */
export function fakeToken(namespace: string | undefined, secretName: string): string {
  return `fake-sa-token-of-${namespace ?? "default"}-${secretName}`;
}
/** Kind clusters whose mocked state has no identity (written before identities existed). */
export const legacyKindClusters = new Set<string>();

export const FAKE_CA = Buffer.from("FAKE-CA-PEM").toString("base64");
export const FAKE_ACCESS_TOKEN = "ya29.fake-access-token";

/** A kubeconfig with a client key, as kind writes (fake material). */
export function fakeKubeconfig(name: string, server: string): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${name}`,
    "  cluster:",
    `    server: ${server}`,
    `    certificate-authority-data: ${FAKE_CA}`,
    "contexts:",
    `- name: ${name}`,
    "  context:",
    `    cluster: ${name}`,
    `    user: ${name}`,
    `current-context: ${name}`,
    "users:",
    `- name: ${name}`,
    "  user:",
    "    client-certificate-data: RkFLRS1DRVJU",
    "    client-key-data: RkFLRS1LRVk=",
    "",
  ].join("\n");
}

/**
 * A folder of fake kubeconfig files, one per cluster name on first use: returns the function
 * that writes `<name>.kubeconfig` (server https://127.0.0.1:6443) there and gives its path.
 */
export function fakeKubeconfigFiles(prefix: string): (name: string) => string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return (name: string) => {
    const file = path.join(dir, `${name}.kubeconfig`);
    fs.writeFileSync(file, fakeKubeconfig(name, "https://127.0.0.1:6443"));
    return file;
  };
}

interface RegisterRequest {
  getType(): string;
  getName(): string;
  getParent(): string;
  getDependenciesList(): string[];
  getAdditionalsecretoutputsList(): string[];
  getDeletebeforereplace?(): boolean;
  getProtect?(): boolean;
}
interface MonitorLike {
  registerResource(req: RegisterRequest, cb: unknown): unknown;
  readResource(req: RegisterRequest, cb: unknown): unknown;
}

const registered: Registered[] = [];

/** Outputs of other stacks by stack name, returned to StackReference reads (tests set them). */
export const stackOutputs = new Map<string, { outputs: Record<string, unknown>; secretOutputNames?: string[] }>();
const meta = new Map<
  string,
  {
    parent: string;
    dependencies: string[];
    additionalSecretOutputs: string[];
    deleteBeforeReplace: boolean;
    protect: boolean;
  }
>();

/**
 * Milliseconds by which the mocks answer a resource's registration late, by resource name (as a
 * slow create would); the registry records the request at once. Tests set and clear entries.
 */
export const registrationDelays = new Map<string, number>();

/**
 * Installs the mocks and returns the shared registry. `preview` runs the program as a preview
 * (`pulumi.runtime.isDryRun()`); a test that sets it installs the mocks again without it after.
 */
export function installMocks(preview = false): Registered[] {
  pulumi.runtime.setMocks(
    {
      newResource(
        args: pulumi.runtime.MockResourceArgs,
      ): pulumi.runtime.MockResourceResult | Promise<pulumi.runtime.MockResourceResult> {
        const key = `${args.type}::${args.name}`;
        const m = meta.get(key) ?? {
          parent: "",
          dependencies: [],
          additionalSecretOutputs: [],
          deleteBeforeReplace: false,
          protect: false,
        };
        const urn = `urn:pulumi:test::iko-plus::${args.type}::${args.name}`;
        registered.push({
          type: args.type,
          name: args.name,
          urn,
          inputs: args.inputs,
          provider: args.provider ?? "",
          parent: m.parent,
          dependencies: m.dependencies,
          custom: args.custom ?? false,
          additionalSecretOutputs: m.additionalSecretOutputs,
          deleteBeforeReplace: m.deleteBeforeReplace,
          protect: m.protect,
        });
        const state: Record<string, unknown> = { ...args.inputs };
        const inputs = args.inputs as { type?: string; metadata?: { name?: string }; name?: string };
        if (args.type === "kubernetes:core/v1:Secret" && inputs.type === "kubernetes.io/service-account-token") {
          const md = (inputs as { metadata?: { name?: string; namespace?: string } }).metadata;
          state.data = {
            token: Buffer.from(fakeToken(md?.namespace, md?.name ?? args.name)).toString("base64"),
            "ca.crt": FAKE_CA,
          };
        }
        if (args.type.startsWith("pulumi-nodejs:dynamic") && typeof inputs.name === "string") {
          state.kubeconfig = fakeKubeconfig(`kind-${inputs.name}`, "https://127.0.0.1:41234");
          state.peerKubeconfig = fakeKubeconfig(`kind-${inputs.name}`, `https://${inputs.name}-control-plane:6443`);
          // What the provider's create records; a cluster named in legacyKindClusters has state
          // written before identities existed.
          if (!legacyKindClusters.has(inputs.name))
            state.identity = kindClusterIdentity(inputs.name, state.kubeconfig as string);
        }
        // Certificates a dynamic provider would issue: each output its own value, so a wrong wiring shows.
        if (args.type.endsWith(":MeshCertificates"))
          for (const kind of ["server", "admin", "local", "remote"])
            for (const k of [`${kind}CertPem`, `${kind}KeyPem`]) state[k] = `fake:${args.name}:${k}`;
        if (args.type === "pulumi:pulumi:StackReference") {
          const ref = stackOutputs.get(String(args.inputs.name));
          state.outputs = ref?.outputs ?? {};
          state.secretOutputNames = ref?.secretOutputNames ?? [];
        }
        if (args.type === "kubernetes:helm.sh/v3:Release") state.status = { status: "deployed", revision: 1 };
        if (args.type === "kubernetes:core/v1:Secret" && args.id === "karmada-host/karmada-kubeconfig") {
          state.data = {
            kubeconfig: Buffer.from(
              fakeKubeconfig("karmada-apiserver", "https://karmada-apiserver.karmada-host.svc.cluster.local:5443"),
            ).toString("base64"),
          };
        }
        if (args.type === "kubernetes:core/v1:Namespace" && args.id === "kube-system")
          state.metadata = { name: "kube-system", uid: `uid-of-${args.name}` };
        if (args.type === "gcp:container/cluster:Cluster") {
          state.endpoint = "34.1.2.3";
          state.masterAuth = { clusterCaCertificate: FAKE_CA };
          state.location = args.inputs.location;
          state.project = "proj-1";
        }
        const result = { id: args.id || inputs.metadata?.name || `${args.name}-id`, state };
        const delay = registrationDelays.get(args.name);
        return delay === undefined ? result : new Promise((resolve) => setTimeout(() => resolve(result), delay));
      },
      call(args: pulumi.runtime.MockCallArgs): Record<string, unknown> {
        if (args.token === "gcp:organizations/getClientConfig:getClientConfig")
          return { accessToken: FAKE_ACCESS_TOKEN, project: "proj-1" };
        return args.inputs;
      },
    },
    "iko-plus",
    "test",
    preview,
  );
  const monitor = pulumi.runtime.getMonitor() as unknown as MonitorLike;
  const original = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: RegisterRequest, cb: unknown) => {
    meta.set(`${req.getType()}::${req.getName()}`, {
      parent: req.getParent(),
      dependencies: req.getDependenciesList(),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      deleteBeforeReplace: req.getDeletebeforereplace?.() ?? false,
      protect: req.getProtect?.() ?? false,
    });
    return original(req, cb);
  };
  // Reads (`Resource.get`) go through readResource, with their own dependency list.
  const originalRead = monitor.readResource.bind(monitor);
  monitor.readResource = (req: RegisterRequest, cb: unknown) => {
    meta.set(`${req.getType()}::${req.getName()}`, {
      parent: req.getParent(),
      dependencies: req.getDependenciesList(),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      deleteBeforeReplace: req.getDeletebeforereplace?.() ?? false,
      protect: req.getProtect?.() ?? false,
    });
    return originalRead(req, cb);
  };
  return registered;
}

/**
 * The Pulumi runtime reports a resource it could not register (an input whose `apply` threw, say)
 * only as an unhandled rejection: the resource's `urn` never resolves, and a test waiting on it
 * would hang until its timeout. `failFast` rejects with that error instead, once nothing settled
 * for `graceMs` after it (a test that expects such an error and still settles is not affected).
 */
const failureListeners = new Set<(err: unknown) => void>();
process.on("unhandledRejection", (err) => {
  for (const l of failureListeners) l(err);
});

function failFast<T>(wait: Promise<T>, graceMs = 500): Promise<T> {
  return new Promise<T>((resolvePromise, rejectPromise) => {
    let timer: NodeJS.Timeout | undefined;
    const onFailure = (err: unknown) => {
      timer ??= setTimeout(() => rejectPromise(new Error(`a resource failed to register: ${String(err)}`)), graceMs);
    };
    const done = () => {
      failureListeners.delete(onFailure);
      if (timer) clearTimeout(timer);
    };
    failureListeners.add(onFailure);
    wait.then(
      (v) => {
        done();
        resolvePromise(v);
      },
      (err: unknown) => {
        done();
        rejectPromise(err);
      },
    );
  });
}

/**
 * An output's value as a promise that rejects when the output failed (an `apply` callback that
 * threw) or a registration failed meanwhile (`failFast`); a callback given to `apply` would never
 * run then. `promise()` is the Output's own, kept off @pulumi/pulumi's public type (output.js:
 * `this.promise = (withUnknowns) => ...`).
 */
export function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  return failFast((o as unknown as { promise(): Promise<T> }).promise());
}

/** Resolves an output's value (and whether it is secret) under mocks; rejects if it failed. */
export async function resolve<T>(o: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await valueOf(o);
  const secret = await pulumi.isSecret(o);
  return { value, secret };
}

/** Waits until every resource of a component tree is registered; rejects if a registration failed. */
export async function settle(...resources: pulumi.Resource[]): Promise<void> {
  await Promise.all(resources.map((r) => valueOf(r.urn)));
  await new Promise((r) => setTimeout(r, 50));
}

/** The one registered resource of `type` named `name`; throws when there is not exactly one. */
export function one(reg: Registered[], type: string, name: string): Registered {
  const found = reg.filter((r) => r.type === type && r.name === name);
  if (found.length !== 1)
    throw new Error(
      `expected one ${type} named ${name}, found ${found.length}: ${reg.map((r) => `${r.type}/${r.name}`).join(", ")}`,
    );
  return found[0];
}

/** Unwraps a secret-marked input value as the mocks receive it. */
export function unwrapSecret(v: unknown): { value: unknown; secret: boolean } {
  if (
    v &&
    typeof v === "object" &&
    (v as Record<string, unknown>)["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270"
  ) {
    return { value: (v as { value: unknown }).value, secret: true };
  }
  return { value: v, secret: false };
}
