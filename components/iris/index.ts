export * from "./manifest";
export * from "./types";
