export * from "./join";
export * from "./policies";
export * from "./interpreter";
export * from "./values";
export * from "./control-plane";
export * from "./member";
export * from "./federated";
export * from "./failover";
