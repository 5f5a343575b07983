export * from "./workspaces";
export * from "./reports";
export * from "./findings";
export * from "./auth";
export * from "./audit";
export * from "./cleanup";
export * from "./kept-pending";
export * from "./notifications";
