export * from "./handle";
export * from "./existing";
