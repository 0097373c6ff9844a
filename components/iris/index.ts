export * from "./manifest";
