export * from "./config";
export * from "./provider";
export * from "./cluster";
