export * from "./join";
export * from "./policies";
