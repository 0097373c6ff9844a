export * from "./names";
export * from "./images";
export * from "./problems";
export * from "./numbers";
