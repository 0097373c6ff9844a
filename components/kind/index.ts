export * from "./config";
export * from "./provider";
export * from "./cluster";
export * from "./mirror";
export * from "./diagnose";
