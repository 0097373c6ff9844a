/**
 * What the lab's clusters hold, as a set of "<cluster> <kind> <namespace>/<name>" strings: enough to
 * prove that a run created nothing (compare the sets before and after).
 */
import { Clients, labClients, maybe } from "./kube";

/** The lab's clusters (the default lab members and Karmada). */
export const LAB_CLUSTERS = ["ikohome", "ikowork", "ikofett", "ikoclone", "ikogke", "karmada"];

type Named = { metadata?: { name?: string; namespace?: string } };
const names = (kind: string, items: Named[] | undefined) =>
  (items ?? []).map((o) => `${kind} ${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`);

const KARMADA_KINDS = [
  { group: "cluster.karmada.io", version: "v1alpha1", plural: "clusters" },
  { group: "policy.karmada.io", version: "v1alpha1", plural: "propagationpolicies" },
  { group: "policy.karmada.io", version: "v1alpha1", plural: "clusterpropagationpolicies" },
  { group: "policy.karmada.io", version: "v1alpha1", plural: "overridepolicies" },
  { group: "config.karmada.io", version: "v1alpha1", plural: "resourceinterpretercustomizations" },
];

async function clusterInventory(name: string, c: Clients): Promise<string[]> {
  const out: string[] = [];
  const add = async (kind: string, list: () => Promise<{ items: Named[] }>) => {
    const res = await maybe(list);
    out.push(...names(kind, res?.items).map((n) => `${name} ${n}`));
  };
  await Promise.all([
    add("Namespace", () => c.core.listNamespace()),
    add("Secret", () => c.core.listSecretForAllNamespaces()),
    add("ConfigMap", () => c.core.listConfigMapForAllNamespaces()),
    add("ServiceAccount", () => c.core.listServiceAccountForAllNamespaces()),
    add("ClusterRole", () => c.rbac.listClusterRole()),
    add("ClusterRoleBinding", () => c.rbac.listClusterRoleBinding()),
    add("Role", () => c.rbac.listRoleForAllNamespaces()),
    add("CustomResourceDefinition", () => c.crds.listCustomResourceDefinition()),
    add("Deployment", () => c.apps.listDeploymentForAllNamespaces()),
    add(
      "IrisCluster",
      () =>
        c.custom.listClusterCustomObject({
          group: "intersystems.com",
          version: "v1alpha1",
          plural: "irisclusters",
        }) as Promise<{ items: Named[] }>,
    ),
    ...(name === "karmada"
      ? KARMADA_KINDS.map((k) =>
          add(k.plural, () => c.custom.listClusterCustomObject(k) as Promise<{ items: Named[] }>),
        )
      : []),
  ]);
  return out;
}

/** Every object of the kinds above on every lab cluster. */
export async function labInventory(clusters = LAB_CLUSTERS): Promise<Set<string>> {
  const all = await Promise.all(clusters.map((name) => clusterInventory(name, labClients(name))));
  return new Set(all.flat());
}
