export * from "./workspaces";
export * from "./reports";
