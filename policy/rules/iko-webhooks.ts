/**
 * Rule `remote-iko-webhooks-off`: an IKO Helm release in remote ("works from home") mode must
 * have both admission webhooks off. A remote operator reconciles IrisClusters on another cluster;
 * its webhooks would be registered at home, where no IrisCluster is admitted, and would check
 * nothing on the target. IkoHomeOperator forces them off; this rule catches a release declared
 * any other way.
 *
 * A release is IKO when its `chart` names the `iris-operator` chart (a path or a chart name);
 * it is remote when it has a `postrender` (remote mode is the only reason iko-plus post-renders
 * the IKO chart: it mounts the target kubeconfig and adds `--kubeconfig`). Webhooks are on unless
 * `values.apiserver.enableMutatingWebhook` / `enableValidatingWebhook` are `false` (the chart
 * turns both on by default).
 */
import { IKO_WEBHOOK_VALUES } from "../../components/iko/values";
import { describe, isObject, PolicyResource, reveal, stringAt, UNKNOWN } from "./values";

export const REMOTE_IKO_WEBHOOKS_OFF = "remote-iko-webhooks-off";

/** The webhook switches: IKO's own list (components/iko/values.ts). */
export const WEBHOOK_VALUES = IKO_WEBHOOK_VALUES;

/** Whether a Helm chart reference is the IKO chart. */
export function isIkoChart(chart: string): boolean {
  return /(^|\/)iris-operator(-amd)?(\.tgz|-[0-9][^/]*\.tgz)?\/?$/.test(chart);
}

/** Findings of the rule for one resource's inputs. */
export function remoteIkoWebhooks(r: PolicyResource): string[] {
  if (r.type !== "kubernetes:helm.sh/v3:Release") return [];
  const chart = stringAt(r.props, "chart");
  if (chart === undefined || !isIkoChart(chart)) return [];
  const postrender = reveal(r.props.postrender);
  if (postrender !== UNKNOWN && (typeof postrender !== "string" || postrender === "")) return [];
  const values = reveal(r.props.values);
  const apiserver = isObject(values) ? reveal(values.apiserver) : values;
  if (apiserver === UNKNOWN) return [];
  const on: string[] = [];
  for (const key of WEBHOOK_VALUES) {
    const v = isObject(apiserver) ? reveal(apiserver[key]) : undefined;
    if (v === UNKNOWN || v === false) continue;
    on.push(`values.apiserver.${key} is ${v === undefined ? "unset (the chart's default: true)" : JSON.stringify(v)}`);
  }
  if (on.length === 0) return [];
  const release = stringAt(r.props, "name") ?? r.name;
  return [
    `${describe(r)} (Helm release ${JSON.stringify(release)}, chart ${JSON.stringify(chart)}) runs IKO in remote mode (it has a postrender) ` +
      `with admission webhooks on: ${on.join("; ")}; set values.apiserver.enableMutatingWebhook and ` +
      "values.apiserver.enableValidatingWebhook to false (IkoHomeOperator does so in remote mode; do not turn them on through iko.values)",
  ];
}
