export * from "./problems";
export * from "./config";
export * from "./clusters";
export * from "./wfh";
export * from "./program";
export * from "./fleet";
export * from "./region";
