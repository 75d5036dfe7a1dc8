export * from "./realms";
export * from "./users";
export * from "./user-groups";
export * from "./presence";
export * from "./linkifiers";
