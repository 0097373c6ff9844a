/**
 * A Pulumi program of your own, built from the iko-plus package: the IRIS operator (IKO) runs on
 * a home cluster and reconciles an IrisCluster on a work cluster, through a kubeconfig Secret.
 *
 * Clusters are kind clusters with Cilium, made by the program (the default), or clusters you
 * already run, given by kubeconfig files (`homeKubeconfigPath`, `workKubeconfigPath`).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import {
  CiliumCni,
  ClusterHandle,
  ExistingCluster,
  IkoHomeOperator,
  KindCluster,
  irisClusterManifest,
  onCluster,
} from "iko-plus";

const config = new pulumi.Config();

/** One cluster of the topology, by its role ("home" or "work"), with its Cilium cluster id. */
function cluster(role: string, ciliumClusterId: number): ClusterHandle {
  const name = config.get(`${role}Name`) ?? `lib-${role}`;
  const kubeconfigPath = config.get(`${role}KubeconfigPath`);
  if (kubeconfigPath !== undefined) return new ExistingCluster(name, { kubeconfigPath, role });
  const kind = new KindCluster(name, { role, disableDefaultCNI: true, nodeImage: config.get("nodeImage") });
  return new CiliumCni(`${name}-cni`, {
    cluster: kind,
    clusterId: ciliumClusterId,
    chartPath: config.get("ciliumChartPath"),
  }).handle;
}

const home = cluster("home", 1);
const work = cluster("work", 2);

// IKO on home, reconciling on work: the work kubeconfig (a dedicated ServiceAccount's) is a Secret
// on home mounted into the operator, and the IrisCluster CRD is made to exist on work.
const iko = new IkoHomeOperator("iko", {
  home,
  chart: { path: config.require("ikoChartPath") },
  namespace: config.get("ikoNamespace") ?? "iko",
  remote: { target: work, crdManifestPath: config.require("crdManifestPath") },
});

// An IrisCluster at work, after its CRD.
const iris = irisClusterManifest({
  name: "iris-at-work",
  namespace: "default",
  image: config.get("irisImage") ?? "containers.intersystems.com/intersystems/iris-community:2025.1",
});
new k8s.apiextensions.CustomResource(
  "iris-at-work",
  { apiVersion: iris.apiVersion, kind: iris.kind, metadata: iris.metadata, spec: iris.spec },
  { ...onCluster(work), dependsOn: [...work.readyGate, ...(iko.crdMirror ? [iko.crdMirror.crd] : [])] },
);

export const operatorNamespace = iko.namespace;
export const operatorDeployment = iko.deploymentName;
/** Secret outputs: the clusters' kubeconfigs. */
export const homeKubeconfig = home.kubeconfig;
export const workKubeconfig = work.kubeconfig;
