// What a workspace's owner may do on their own workspaces without an admin (My storage): run the recipes an admin
// marked "owners may run", always to the trash and bound to their own preview, and Keep a unit or folder for a
// while. Plain data and rules, shared by the services, the validations and the pages.
import { RECIPES, deleteOnly, type RecipeId } from "@/lib/catalog/recipes";
import { TRASH_DAYS } from "./defaults";
import type { RunRequest } from "./protocol";
import { defaultDraft, runRequestOf } from "./run-draft";

/**
 * The recipes owners may run until an admin says otherwise: the agents' old sessions and their logs. Package
 * caches are not offered to owners at all (OWNERS_NEVER): an owner's run only ever trashes, and a cache in the
 * trash frees nothing for a week while the tool fills it again; the tool's own clean command is theirs to run.
 */
export const OWNER_DEFAULT_RECIPES: readonly RecipeId[] = [
  "claude-code-sessions",
  "claude-code-debug",
  "claude-code-file-history",
  "claude-code-mcp-logs",
  "codex-rollouts",
  "codex-archived-sessions",
  "gemini-chats",
  "copilot-sessions",
  "cursor-chats",
  "opencode-logs",
  "opencode-tool-output",
  "module-logs",
];

/** Why a recipe can never be marked for owners, or null when it can. */
export function ownersNever(recipe: RecipeId): string | null {
  return deleteOnly(recipe)
    ? "A package cache is only ever deleted, and an owner's run only ever moves units to the trash: it is not offered to owners."
    : null;
}

/** Whether owners may run each recipe: the admins' choices over the defaults. */
export function ownerRecipeFlags(stored: ReadonlyMap<string, boolean>): { recipe: RecipeId; ownersMayRun: boolean }[] {
  return RECIPES.map((r) => ({
    recipe: r.id,
    ownersMayRun: ownersNever(r.id) === null && (stored.get(r.id) ?? OWNER_DEFAULT_RECIPES.includes(r.id)),
  }));
}

/** Days an owner's run keeps its units in the trash, restorable by the owner. */
export const OWNER_TRASH_DAYS = TRASH_DAYS.default;

/** An owner's run of a recipe on one workspace: the recipe's defaults, always to the trash. */
export function ownerRunRequest(recipe: RecipeId, workspaceId: string): RunRequest {
  const built = runRequestOf(defaultDraft(recipe, workspaceId));
  if (!built.ok) throw new Error(`recipe ${recipe}: ${built.problem}`);
  return { ...built.request, dryRun: false, action: "trash", trashDays: OWNER_TRASH_DAYS };
}

/** The longest Keep an owner may set, in days. */
export const KEEP_MAX_DAYS = 14;

/**
 * Why a Keep's path cannot be kept, or null: a path relative to home with no `..`, no glob character (the reporter
 * reads a Keep as its protect file's globs) and inside one of the workspace's roots (their paths relative to home).
 */
export function keepPathProblem(path: string, rootPaths: readonly string[]): string | null {
  if (path.startsWith("/") || path.startsWith("~"))
    return "Give the path relative to the home folder, as the workspace page shows it.";
  const parts = path.split("/");
  if (parts.some((p) => p === ".." || p === "." || p === "")) return "The path may not hold '..', '.' or empty parts.";
  if (/[*?{}[\]\\]/.test(path))
    return "The path may not hold the characters * ? { } [ ] \\: a Keep names one unit or folder.";
  const inside = rootPaths.some((root) => path === root || path.startsWith(`${root}/`));
  return inside
    ? null
    : "The path is outside this workspace's storage roots: a Keep names a unit or folder inside one.";
}
