export * from "./handle";
export * from "./existing";
export * from "./manifest";
export * from "./identity";
export * from "./reach";
