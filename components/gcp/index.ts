export * from "./gke";
