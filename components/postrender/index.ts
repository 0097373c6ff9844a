export * from "./wrapper";
