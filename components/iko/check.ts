/**
 * The rules of IkoHomeOperator's args: the constructor throws them, the stack config reports
 * them under its `iko.*` keys (stacks/config/iko.ts), one rule in one place.
 */
import * as fs from "fs";
import { ArgProblem, checkDns1123Label, checkDns1123Subdomain, checkField } from "../names";
import { checkCrdManifestPath } from "./crd";
import type { IkoChartSource, IkoHomeOperatorArgs, IkoRemoteArgs } from "./types";
import { IKO_WEBHOOK_VALUES } from "./values";

/** The fields `checkIkoHomeOperatorArgs` judges (no cluster handle is needed to check them). */
export interface IkoHomeOperatorCheckedArgs
  extends Partial<Pick<IkoHomeOperatorArgs, "releaseName" | "namespace" | "imagePullSecrets" | "values">> {
  chart: IkoChartSource;
  /** Remote mode's fields; `crdFromCluster` only says whether one is given. */
  remote?: Partial<Pick<IkoRemoteArgs, "secretName" | "secretKey" | "kubeconfigPath" | "crdManifestPath">> & {
    crdFromCluster?: unknown;
  };
}

/** A Secret data key: letters, digits, '-', '_' and '.', at most 253 characters. */
export function checkSecretKey(key: string): string | undefined {
  return /^[-._a-zA-Z0-9]+$/.test(key) && key.length <= 253
    ? undefined
    : "is not a valid Secret key; use letters, digits, '-', '_' and '.', e.g. \"config\"";
}

/** The kubeconfig's path in the operator container: absolute, below a folder, nothing to quote. */
export function checkKubeconfigMountPath(p: string): string | undefined {
  const ok = /^\/[^'"\s\\]+$/.test(p) && !p.endsWith("/") && p.split("/").filter(Boolean).length >= 2;
  return ok
    ? undefined
    : "must be an absolute file path below a folder, without quotes or spaces, e.g. /airgap/.kube/config";
}

/**
 * Problems of IkoHomeOperator args, as `[field, value, problem]` with fields named as in the args
 * (`chart.path`, `remote.secretKey`, `values.apiserver.enableMutatingWebhook`). Fields left out
 * take their defaults and are not checked.
 */
export function checkIkoHomeOperatorArgs(args: IkoHomeOperatorCheckedArgs): ArgProblem[] {
  const problems: ArgProblem[] = [];
  const { chart } = args;
  if (chart.path === "") {
    problems.push([
      "chart.path",
      "",
      "is empty; set it to the IKO chart folder of the InterSystems download (chart/iris-operator), or give a chart repository and version instead",
    ]);
  } else if (chart.path !== undefined && chart.repo !== undefined) {
    problems.push(["chart.repo", chart.repo, "is set together with a chart path; keep one chart source"]);
  } else if (chart.path !== undefined && !fs.existsSync(chart.path)) {
    problems.push([
      "chart.path",
      chart.path,
      "does not exist; point it at the IKO chart folder (chart/iris-operator of the InterSystems download)",
    ]);
  } else if (chart.repo !== undefined && chart.version === undefined) {
    problems.push([
      "chart.version",
      undefined,
      "is required with a chart repository; pin the chart version, e.g. 3.8.42",
    ]);
  } else if (chart.path === undefined && chart.repo === undefined) {
    problems.push([
      "chart.path",
      undefined,
      "is required; set it to the IKO chart folder of the InterSystems download (chart/iris-operator), or give a chart repository and version",
    ]);
  }
  for (const field of ["releaseName", "namespace"] as const) {
    const v = args[field];
    const p = v === undefined ? undefined : checkDns1123Label(v);
    if (p) problems.push([field, v, p]);
  }
  const pullSecrets = args.imagePullSecrets ?? [];
  if (pullSecrets.some((s) => checkDns1123Subdomain(s))) {
    problems.push([
      "imagePullSecrets",
      pullSecrets,
      'must be a list of Secret names, e.g. ["intersystems-pull-secret"]',
    ]);
  }
  const remote = args.remote;
  if (remote === undefined) return problems;
  const apiserver = args.values?.apiserver;
  for (const hook of IKO_WEBHOOK_VALUES) {
    const on = isRecord(apiserver) ? apiserver[hook] : undefined;
    if (on === true || on === "true") {
      problems.push([
        `values.apiserver.${hook}`,
        on,
        "turns a webhook on, but a remote operator must run with both webhooks off (they would sit on the home cluster); remove it",
      ]);
    }
  }
  const secretNameProblem = remote.secretName === undefined ? undefined : checkDns1123Subdomain(remote.secretName);
  if (secretNameProblem) problems.push(["remote.secretName", remote.secretName, secretNameProblem]);
  const keyProblem = remote.secretKey === undefined ? undefined : checkSecretKey(remote.secretKey);
  if (keyProblem) problems.push(["remote.secretKey", remote.secretKey, keyProblem]);
  const pathProblem = remote.kubeconfigPath === undefined ? undefined : checkKubeconfigMountPath(remote.kubeconfigPath);
  if (pathProblem) problems.push(["remote.kubeconfigPath", remote.kubeconfigPath, pathProblem]);
  if (remote.crdManifestPath === undefined && remote.crdFromCluster === undefined) {
    problems.push([
      "remote.crdManifestPath",
      undefined,
      "is required for a remote operator; export the CRD with `kubectl get crd irisclusters.intersystems.com -o yaml > ikocrds.yaml`, or copy it from a cluster that has it",
    ]);
  } else {
    checkField(problems, "remote.crdManifestPath", remote.crdManifestPath, checkCrdManifestPath);
  }
  return problems;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
