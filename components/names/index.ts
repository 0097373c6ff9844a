export * from "./names";
export * from "./images";
export * from "./problems";
export * from "./numbers";
export * from "./merge";
export * from "./secrets";
