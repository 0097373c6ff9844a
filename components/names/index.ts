export * from "./names";
export * from "./images";
