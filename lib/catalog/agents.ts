// The built-in catalog of AI coding agents and where they keep their data. Plain data and small pure
// functions, no Node imports: the reporter bundles it and the dashboard imports it for display names. The
// agents themselves are in lib/catalog/agent-data/, one file per agent with several folders.
//
// Rules hold globs (lib/catalog/globs.ts says how they match); the first rule that matches a path decides its
// category.

import { CLAUDE_CODE } from "./agent-data/claude-code";
import { CLI_AGENTS } from "./agent-data/cli-agents";
import { CODEX } from "./agent-data/codex";
import { GEMINI } from "./agent-data/gemini";
import { NEWER_AGENTS } from "./agent-data/newer-agents";
import { OPENCODE } from "./agent-data/opencode";
import type { Agent, AgentDataPath, CategoryRule, SessionRule } from "./agent-types";

export type { Agent, AgentDataPath, CategoryRule, SessionRule } from "./agent-types";

export const OTHER_AGENT = "other";

export const AGENTS: readonly Agent[] = [CLAUDE_CODE, CODEX, GEMINI, OPENCODE, ...CLI_AGENTS, ...NEWER_AGENTS];

/** Rules applied to every root after the agent's own: file types and conventional folder names. */
export const GENERIC_CATEGORY_RULES: readonly CategoryRule[] = [
  { glob: "**/*.{db,sqlite,sqlite3,db3}", category: "databases" },
  { glob: "**/*{-wal,-shm,-journal}", category: "databases" },
  { glob: "**/logs/**", category: "logs" },
  { glob: "**/log/**", category: "logs" },
  { glob: "**/*.log", category: "logs" },
  { glob: "**/{cache,caches,.cache,node_modules,bin,tmp}/**", category: "caches" },
];

/** Rules for `~/.coder-modules/<namespace>/<module>/` folders (registry's module data layout). */
export const MODULE_CATEGORY_RULES: readonly CategoryRule[] = [{ glob: "logs/**", category: "logs" }];

/** A package cache's root (kind "package-cache") is a cache throughout. */
const PACKAGE_CACHE_RULES: readonly CategoryRule[] = [{ glob: "**", category: "caches" }];

export function agentById(id: string): Agent | undefined {
  return AGENTS.find((a) => a.id === id);
}

export function agentDisplayName(id: string): string {
  return agentById(id)?.displayName ?? (id === OTHER_AGENT ? "Other" : id);
}

/** The agent a `~/.coder-modules/<namespace>/<module>/` folder belongs to, or "other". */
export function agentForModule(module: string): string {
  const m = module.toLowerCase();
  return AGENTS.find((a) => a.id === m || a.modules.includes(m) || a.aliases.includes(m))?.id ?? OTHER_AGENT;
}

/** The agent a legacy `~/.<name>-module/` folder belongs to ("claude-module" → claude-code), or "other". */
export function agentForLegacyFolder(folder: string): string {
  return agentForModule(folder.replace(/^\./, "").replace(/-module$/, ""));
}

/** Agent slug rules: what the report schema accepts. */
export function isAgentSlug(s: string): boolean {
  return /^[a-z0-9][a-z0-9._-]*$/.test(s) && s.length <= 100;
}

/** The catalog's entry for a tool root's key ("claude-code:mcp-logs"), if any. */
export function dataPathByKey(agentId: string, key: string | undefined): AgentDataPath | undefined {
  return key === undefined ? undefined : agentById(agentId)?.dataPaths.find((p) => p.key === key);
}

/**
 * Category rules for a root: databases first, then its own (a tool root's data path's, else its agent's; the
 * module layout's for a module), then generic.
 */
export function categoryRulesFor(kind: string, agentId: string, key?: string): CategoryRule[] {
  const tool = () => dataPathByKey(agentId, key)?.categories ?? agentById(agentId)?.categories ?? [];
  const own =
    kind === "tool"
      ? tool()
      : kind === "module"
        ? MODULE_CATEGORY_RULES
        : kind === "package-cache"
          ? PACKAGE_CACHE_RULES
          : [];
  // a database is a database wherever it sits (Goose's sessions.db is not a "session" file)
  const dbs = GENERIC_CATEGORY_RULES.filter((r) => r.category === "databases");
  return [...dbs, ...own, ...GENERIC_CATEGORY_RULES.filter((r) => r.category !== "databases")];
}

export function sessionRulesFor(kind: string, agentId: string, key?: string): SessionRule[] {
  if (kind !== "tool") return [];
  return dataPathByKey(agentId, key)?.sessions ?? agentById(agentId)?.sessions ?? [];
}
