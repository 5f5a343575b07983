// The cleanup recipes' ids and the age steps at which a report counts each recipe's units: the report names
// them, so they belong to its format; the recipes themselves (lib/catalog/recipes.ts) are the catalog's. No
// imports: the reporter bundles this file.

/** The package caches' recipes, one per cache (lib/catalog/recipe-data/caches.ts). */
export const CACHE_RECIPE_IDS = [
  "npm-cache",
  "pip-cache",
  "go-build-cache",
  "go-module-cache",
  "cargo-registry",
  "maven-repository",
  "gradle-caches",
  "yarn-cache",
  "pnpm-store",
] as const;

export const RECIPE_IDS = [
  "claude-code-sessions",
  "claude-code-debug",
  "claude-code-file-history",
  "claude-code-mcp-logs",
  "claude-code-versions",
  "codex-rollouts",
  "codex-archived-sessions",
  "codex-releases",
  "gemini-chats",
  "copilot-sessions",
  "cursor-chats",
  "opencode-logs",
  "opencode-tool-output",
  "opencode-snapshots",
  "copilot-versions",
  "module-logs",
  "orphaned-script-data",
  "agentapi-leftovers",
  ...CACHE_RECIPE_IDS,
] as const;
export type RecipeId = (typeof RECIPE_IDS)[number];

/**
 * Age steps (days) at which reports count each recipe's units and bytes, so a preview of "older than N days",
 * "keep the newest N" or "cap at N bytes" is read from the report within a step's error. The last step is open.
 */
export const RECIPE_AGE_STEPS_DAYS = [1, 2, 3, 5, 7, 10, 14, 21, 30, 45, 60, 90, 120, 180, 270, 365] as const;
