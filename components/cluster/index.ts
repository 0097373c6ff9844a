export * from "./handle";
export * from "./existing";
export * from "./manifest";
