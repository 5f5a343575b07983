export * from "./workspaces";
export * from "./reports";
export * from "./findings";
