export * from "./health";
export * from "./manifest";
export * from "./ready";
export * from "./types";
