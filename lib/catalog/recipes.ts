// The built-in cleanup recipes: which root each acts on and what one unit is. Plain data, no imports with
// runtime code: the reporter bundles this file (it finds and acts on the units) and the dashboard shows it
// (catalog, previews, policies). Globs follow lib/catalog/agents.ts (relative to the recipe's root). The
// recipes for old releases, for the 2026 bloat and for package caches are in lib/catalog/recipe-data/.

import { BLOAT_RECIPES } from "./recipe-data/bloat";
import { CACHE_RECIPES, PACKAGE_CACHES } from "./recipe-data/caches";
import { INSTALL_RECIPES } from "./recipe-data/installs";
import { GEMINI_SESSION_PARTS } from "./recipe-data/session-parts";
import type { Recipe } from "./recipe-types";
import type { RecipeId } from "@/lib/report-format/recipe-ids";

// The ids and age steps are the report format's; the catalog's users read them here with the recipes.
export { RECIPE_AGE_STEPS_DAYS, RECIPE_IDS, type RecipeId } from "@/lib/report-format/recipe-ids";
export type { Recipe, UnitShape } from "./recipe-types";

export const RECIPES: readonly Recipe[] = [
  {
    id: "claude-code-sessions",
    agent: "claude-code",
    title: "Claude Code sessions",
    description: "A session's .jsonl and its <uuid>/ folder (subagents, tool results), together.",
    roots: ["claude-code:data"],
    unit: "file+dir",
    glob: "projects/*/*.jsonl",
    defaultAction: "trash",
    defaultOlderThanDays: 30,
  },
  {
    id: "claude-code-debug",
    agent: "claude-code",
    title: "Claude Code debug logs",
    description: "Files in ~/.claude/debug/.",
    roots: ["claude-code:data"],
    unit: "file",
    glob: "debug/**",
    defaultAction: "delete",
    defaultOlderThanDays: 7,
  },
  {
    id: "claude-code-file-history",
    agent: "claude-code",
    title: "Claude Code file history",
    description: "Per-session folders in ~/.claude/file-history/.",
    roots: ["claude-code:data"],
    unit: "dir",
    glob: "file-history/*",
    defaultAction: "delete",
    defaultOlderThanDays: 14,
  },
  {
    id: "codex-rollouts",
    agent: "codex",
    title: "Codex rollouts",
    description: "Session rollouts in sessions/YYYY/MM/DD/ (rollout-*.jsonl, .zst too); never the SQLite state.",
    roots: ["codex:data"],
    unit: "file",
    glob: "sessions/*/*/*/rollout-*",
    defaultAction: "trash",
    defaultOlderThanDays: 30,
  },
  {
    id: "gemini-chats",
    agent: "gemini",
    title: "Gemini CLI sessions",
    description:
      "A chat in tmp/<project>/chats/ with its log, tool outputs, temporary folder and subagents' chats, together, as Gemini CLI's own cleanup removes them.",
    roots: ["gemini:data"],
    unit: "file+parts",
    glob: "tmp/*/chats/session-*",
    parts: GEMINI_SESSION_PARTS,
    unitsSince: { version: "0.5.0", earlier: "counts Gemini sessions as chat files only" },
    defaultAction: "trash",
    defaultOlderThanDays: 30,
  },
  {
    id: "copilot-sessions",
    agent: "copilot",
    title: "Copilot CLI sessions",
    description: "Whole session folders in session-state/<id>/ (events.jsonl, session.db and checkpoints together).",
    roots: ["copilot:data"],
    unit: "dir",
    glob: "session-state/*",
    defaultAction: "trash",
    defaultOlderThanDays: 30,
  },
  {
    id: "cursor-chats",
    agent: "cursor",
    title: "Cursor CLI chats",
    description: "Whole chat folders in chats/<hash>/<chat-id>/ (the store.db goes with its folder).",
    roots: ["cursor:data"],
    unit: "dir",
    glob: "chats/*/*",
    defaultAction: "trash",
    defaultOlderThanDays: 30,
  },
  {
    id: "opencode-logs",
    agent: "opencode",
    title: "OpenCode logs",
    description: "Files in log/.",
    roots: ["opencode:data"],
    unit: "file",
    glob: "log/**",
    defaultAction: "delete",
    defaultOlderThanDays: 7,
  },
  {
    id: "opencode-tool-output",
    agent: "opencode",
    title: "OpenCode tool output",
    description: "Files in tool-output/.",
    roots: ["opencode:data"],
    unit: "file",
    glob: "tool-output/**",
    defaultAction: "delete",
    defaultOlderThanDays: 7,
  },
  {
    id: "module-logs",
    agent: "other",
    title: "Module logs",
    description: "Files in the logs/ folder of each module under ~/.coder-modules/.",
    roots: ["*/*"],
    unit: "file",
    glob: "logs/**",
    defaultAction: "delete",
    defaultOlderThanDays: 14,
  },
  {
    id: "orphaned-script-data",
    agent: "other",
    title: "Orphaned script data",
    description: "Whole coder-script-data/<uuid>/ folders from earlier starts; never the current one.",
    roots: ["script-data:*"],
    unit: "dir",
    glob: ".",
    defaultAction: "delete",
    defaultOlderThanDays: 1,
    orphanedOnly: true,
  },
  {
    id: "agentapi-leftovers",
    agent: "other",
    title: "AgentAPI leftovers",
    description:
      "agentapi-state.json and agentapi.pid left in module folders (and legacy ~/.<name>-module/ folders) after the modules dropped AgentAPI; never while AgentAPI runs or a module started it since the workspace started.",
    roots: ["*/*", "legacy:*"],
    unit: "file",
    glob: "agentapi{-state.json,.pid}",
    defaultAction: "delete",
    defaultOlderThanDays: 1,
    notWhileRunning: ["agentapi"],
  },
  ...BLOAT_RECIPES,
  ...INSTALL_RECIPES,
  ...CACHE_RECIPES,
];

/** Whether a recipe's units are only ever deleted (see Recipe.deleteOnly). */
export const deleteOnly = (recipe: RecipeId | null | undefined) =>
  RECIPES.find((r) => r.id === recipe)?.deleteOnly === true;

const CACHE_ROOT_KEYS: ReadonlySet<string> = new Set(PACKAGE_CACHES.map((c) => c.key));

/**
 * Whether what a run, policy or job selects is only ever deleted: a delete-only recipe's units, or a custom
 * rule's inside a package cache's root (in the trash they would free nothing until it expires, while the tool
 * fills the cache again).
 */
export const onlyDeleted = (t: { recipe?: string | null; custom?: { rootKey: string } | null }) =>
  deleteOnly(t.recipe as RecipeId | null | undefined) || (t.custom != null && CACHE_ROOT_KEYS.has(t.custom.rootKey));

/**
 * The action of a run that names none: its recipe's default; a custom rule's, delete inside a package cache and
 * trash (restorable) elsewhere.
 */
export const defaultActionOf = (t: { recipe?: string | null; custom?: { rootKey: string } | null }) =>
  RECIPES.find((r) => r.id === t.recipe)?.defaultAction ?? (onlyDeleted(t) ? "delete" : "trash");

/** Agents whose data has no unit that can be deleted safely on its own: the catalog offers nothing for them. */
export const NO_SAFE_UNIT: readonly { agent: string; reason: string }[] = [
  {
    agent: "goose",
    reason:
      "sessions.db is one SQLite database in WAL mode (-wal, -shm): it is never deleted in part; delete old sessions from inside Goose.",
  },
  { agent: "kiro", reason: "data.sqlite3 is a SQLite database: never deleted in part." },
  { agent: "amazon-q", reason: "Its SQLite database is never deleted in part." },
  {
    agent: "opencode",
    reason: "opencode.db (and -wal/-shm) is never deleted; only log/, tool-output/ and snapshot/ have recipes.",
  },
  {
    agent: "codex",
    reason:
      "Codex's *.sqlite state and logs are never deleted; rollouts, archived sessions and old releases have recipes.",
  },
  { agent: "aider", reason: "Aider writes into the working folder: report only." },
];

/** A job's parameters with the recipe's floor applied: a recipe that always keeps its newest units keeps them. */
export function withRecipeFloor<P extends { keepNewest?: number }>(recipe: RecipeId | null | undefined, params: P): P {
  const floor = RECIPES.find((r) => r.id === recipe)?.keepNewestAtLeast;
  return floor === undefined ? params : { ...params, keepNewest: Math.max(params.keepNewest ?? 0, floor) };
}

/** Minimum age of the newest file of a unit before it may be acted on (hours): never below 1. */
export const MIN_AGE_HOURS_DEFAULT = 24;
export const MIN_AGE_HOURS_FLOOR = 1;

/** The reporter's own files, relative to home: trash, protect list, local log. */
export const REPORTER_DIR = ".coder-modules/coder/storage-reporter";
export const TRASH_DIR = `${REPORTER_DIR}/trash`;
export const PROTECT_FILE = `${REPORTER_DIR}/protect`;
export const CLEANUP_LOG = `${REPORTER_DIR}/cleanup.log`;
