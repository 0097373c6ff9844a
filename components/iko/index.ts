export * from "./rbac";
export * from "./values";
export * from "./postrender";
export * from "./crd";
export * from "./crd-mirror";
export * from "./identity";
export * from "./operator";
export * from "./check";
export { IKO_DEFAULTS } from "./types";
