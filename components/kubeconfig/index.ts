export * from "./kubeconfig";
