export * from "./realms";
export * from "./users";
export * from "./user-groups";
export * from "./user-settings";
export * from "./realm-domains";
export * from "./drafts";
export * from "./presence";
export * from "./linkifiers";
