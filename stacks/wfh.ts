/**
 * The `wfh` stack ("operator works from home"): IKO runs on home and reconciles IrisClusters on
 * work through a kubeconfig mounted from a Secret.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { IkoHomeOperator } from "../components/iko";
import { ClusterHandle, onCluster } from "../components/cluster";
import { ClusterEnv, ClusterMeshOutputs, declareClusters, meshOutputs } from "./clusters";
import * as fs from "fs";
import { IrisClusterReady, irisClusterManifest } from "../components/iris";
import { kubeconfigCredentials } from "../components/kubeconfig";
import { WfhConfig, ikoInstallArgs, ikoRemoteSettings } from "./config";

export interface WfhOutputs {
  homeKubeconfig: pulumi.Output<string>;
  workKubeconfig: pulumi.Output<string>;
  operatorTargetKubeconfig: pulumi.Output<string>;
  operatorNamespace: string;
  operatorDeployment: string;
  targetKubeconfigSecret: string;
  irisClusters: string[];
  /** The Cilium ClusterMesh (with `mesh`): its members and the CA certificate (public). */
  clusterMesh?: ClusterMeshOutputs;
}

export function wfhStack(cfg: WfhConfig, env: ClusterEnv): WfhOutputs {
  const { handles, mesh } = declareClusters([cfg.home, cfg.work], env, cfg.mesh);
  const home = handles.get(cfg.home.name) as ClusterHandle;
  const work = handles.get(cfg.work.name) as ClusterHandle;
  const iko = new IkoHomeOperator("iko", {
    home,
    ...ikoInstallArgs(cfg.iko),
    remote: {
      target: work,
      ...ikoRemoteSettings(cfg.iko),
      crdManifestPath: cfg.iko.crdFrom === "manifest" ? cfg.iko.crdManifestPath : undefined,
      crdFromCluster: cfg.iko.crdFrom === "home" ? home : undefined,
    },
  });
  const crd = iko.crdMirror?.crd;
  const namespaces = new Map<string, k8s.core.v1.Namespace>();
  for (const ic of cfg.irisClusters) {
    if (ic.namespace !== "default" && !namespaces.has(ic.namespace)) {
      namespaces.set(
        ic.namespace,
        new k8s.core.v1.Namespace(
          `work-ns-${ic.namespace}`,
          { metadata: { name: ic.namespace } },
          { ...onCluster(work), dependsOn: work.readyGate },
        ),
      );
    }
  }
  const workCredentials = work.kubeconfig.apply((t) =>
    kubeconfigCredentials(t, `${cfg.work.name}'s kubeconfig`, (f) => fs.readFileSync(f, "utf8")),
  );
  for (const ic of cfg.irisClusters) {
    const ns = namespaces.get(ic.namespace);
    const manifest = irisClusterManifest(ic);
    const resource = new k8s.apiextensions.CustomResource(
      `iriscluster-${ic.namespace}-${ic.name}`,
      {
        apiVersion: manifest.apiVersion,
        kind: manifest.kind,
        metadata: manifest.metadata,
        spec: manifest.spec,
      },
      { ...onCluster(work), dependsOn: [...work.readyGate, ...(crd ? [crd] : []), ...(ns ? [ns] : [])] },
    );
    // `up` succeeds only once the operator at home runs it (or fails naming why it cannot).
    if (ic.waitReady)
      new IrisClusterReady(
        `iriscluster-${ic.namespace}-${ic.name}-ready`,
        {
          clusterName: cfg.work.name,
          kubeconfig: workCredentials,
          namespace: ic.namespace,
          name: ic.name,
          timeoutSeconds: ic.readyTimeoutSeconds,
          mirror: cfg.work.source === "kind" ? cfg.registryMirror?.endpoint : undefined,
          triggers: [manifest.spec],
        },
        { dependsOn: [resource, iko] },
      );
  }
  return {
    homeKubeconfig: home.kubeconfig,
    workKubeconfig: work.kubeconfig,
    operatorTargetKubeconfig: iko.targetKubeconfig as pulumi.Output<string>,
    operatorNamespace: iko.namespace,
    operatorDeployment: iko.deploymentName,
    targetKubeconfigSecret: cfg.iko.secretName,
    irisClusters: cfg.irisClusters.map((c) => `${c.namespace}/${c.name}`),
    clusterMesh: meshOutputs(mesh),
  };
}
