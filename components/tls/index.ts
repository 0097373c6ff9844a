export * from "./ca";
export * from "./ca-provider";
export * from "./manifests";
export * from "./fleet-tls";
