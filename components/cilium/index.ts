export * from "./values";
export * from "./cilium";
