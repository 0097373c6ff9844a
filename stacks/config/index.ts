export * from "./read";
export * from "./cluster";
export * from "./iko";
export * from "./iris";
export * from "./wfh";
export * from "./placement";
export * from "./fleet";
