export * from "./names";
export * from "./images";
export * from "./problems";
