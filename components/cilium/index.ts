export * from "./values";
export * from "./cilium";
export * from "./mesh-values";
export * from "./mesh-tls";
export * from "./mesh";
