/**
 * Source `kind`: a kind cluster the stack creates (KindCluster), the default when an entry gives
 * no kubeconfig. It has no keys of its own: `workers`, `nodeImage`, `kubeProxyMode` and the
 * subnets are read for every cluster (readCluster).
 */
import { KIND_DEFAULT_POD_SUBNET } from "../../../components/cilium";
import { KindCluster } from "../../../components/kind";
import { kindControlPlaneHost } from "../../../components/names";
import type { ClusterSource } from "../source";

export const kindSource: ClusterSource = {
  name: "kind",
  traits: {
    ciliumByDefault: true,
    defaultPodSubnet: KIND_DEFAULT_POD_SUBNET,
    // The control-plane container, on the docker network every kind cluster shares.
    controlPlaneAddress: kindControlPlaneHost,
    createsWithKubeProxyMode: true,
  },
  declare: (c, env) =>
    new KindCluster(c.name, {
      workers: c.kind.workers,
      nodeImage: c.kind.nodeImage,
      kubeProxyMode: c.kind.kubeProxyMode,
      podSubnet: c.kind.podSubnet,
      serviceSubnet: c.kind.serviceSubnet,
      disableDefaultCNI: c.cilium.enabled,
      extraPortMappings: c.extraPortMappings,
      registryMirror: env.registryMirror,
      protect: c.protect,
      role: c.key,
    }),
};
