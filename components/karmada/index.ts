export * from "./join";
export * from "./policies";
export * from "./interpreter";
