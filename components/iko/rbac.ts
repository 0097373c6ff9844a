/**
 * The rights of IKO's own ClusterRole (IKO 3.5/3.6 chart, see reference/iko.md), granted to the
 * remote operator's identity on the target cluster instead of the target's admin credentials.
 */

export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

const ALL = ["*"];

/** IKO's ClusterRole rules, in the chart's order. */
export function ikoOperatorRules(): PolicyRule[] {
  return [
    { apiGroups: ["apiextensions.k8s.io"], resources: ["customresourcedefinitions"], verbs: ALL },
    { apiGroups: ["intersystems.com"], resources: ["*"], verbs: ALL },
    { apiGroups: ["appcatalog.appscode.com"], resources: ["*"], verbs: ALL },
    { apiGroups: ["monitoring.coreos.com"], resources: ["servicemonitors"], verbs: ALL },
    { apiGroups: ["apps"], resources: ["statefulsets"], verbs: ["create", "get", "update", "patch"] },
    {
      apiGroups: [""],
      resources: ["configmaps", "secrets", "services", "serviceaccounts"],
      verbs: ["create", "get", "patch"],
    },
    { apiGroups: [""], resources: ["pods", "pods/exec"], verbs: ["get", "create", "list", "watch", "patch"] },
    {
      apiGroups: [""],
      resources: ["persistentvolumeclaims"],
      verbs: ["get", "create", "list", "watch", "patch", "delete"],
    },
    { apiGroups: [""], resources: ["events"], verbs: ["create"] },
    {
      apiGroups: ["rbac.authorization.k8s.io"],
      resources: ["roles", "rolebindings", "clusterroles", "clusterrolebindings"],
      verbs: ["get", "update", "create", "patch"],
    },
    { apiGroups: ["rbac.authorization.k8s.io"], resources: ["roles", "rolebindings"], verbs: ["delete"] },
    { apiGroups: [""], resources: ["serviceaccounts"], verbs: ["delete"] },
    { apiGroups: ["autoscaling"], resources: ["horizontalpodautoscalers"], verbs: ALL },
    { apiGroups: ["apiregistration.k8s.io"], resources: ["apiservices"], verbs: ["get", "patch"] },
    {
      apiGroups: ["admissionregistration.k8s.io"],
      resources: ["mutatingwebhookconfigurations", "validatingwebhookconfigurations"],
      verbs: ["delete", "list", "watch", "patch"],
    },
  ];
}

/** One (group, resource, verb) triple the operator may use: what a SubjectAccessReview asks. */
export interface Permission {
  group: string;
  resource: string;
  subresource?: string;
  verb: string;
}

/** Expands the rules into concrete permissions (wildcards kept as "*"), without duplicates. */
export function expandRules(rules: PolicyRule[]): Permission[] {
  const seen = new Set<string>();
  const out: Permission[] = [];
  for (const r of rules) {
    for (const group of r.apiGroups) {
      for (const full of r.resources) {
        const [resource, subresource] = full.split("/");
        for (const verb of r.verbs) {
          const key = `${group}|${full}|${verb}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(subresource ? { group, resource, subresource, verb } : { group, resource, verb });
        }
      }
    }
  }
  return out;
}
