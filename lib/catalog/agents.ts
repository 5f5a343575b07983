// The built-in catalog of AI coding agents and where they keep their data. Plain data and small pure
// functions, no Node imports: the reporter bundles it and the dashboard imports it for display names.
//
// Rules hold globs (lib/catalog/globs.ts says how they match); the first rule that matches a path decides its
// category.

import type { Category } from "@/lib/report-format/constants";

export type CategoryRule = { glob: string; category: Category };

/**
 * What makes a "session" in the largest-entries list:
 * - "file": a file matching `glob` is one session;
 * - "file+dir": a file matching `glob` plus the folder beside it named like the file without its extension
 *   (Claude Code: `<uuid>.jsonl` + `<uuid>/`), counted together;
 * - "dir": a folder matching `glob` with everything inside it.
 * "file+dir" and "dir" globs must not contain `**` (the unit sits at a fixed depth).
 */
export type SessionRule = { glob: string; unit: "file" | "file+dir" | "dir" };

export type AgentDataPath = {
  /** Root key in reports, e.g. "claude-code:data". */
  key: string;
  /** Relative to the home folder. */
  path: string;
  /** Environment variable that moves the folder (absolute path, or relative to home). */
  env?: string;
};

export type Agent = {
  /** Lowercase slug used in reports. */
  id: string;
  displayName: string;
  /** The agent's own data folders (tool data roots). May be empty (Aider writes into the working folder). */
  dataPaths: AgentDataPath[];
  /** Module names in `~/.coder-modules/<namespace>/<module>/` that belong to this agent. */
  modules: string[];
  /** Other names the agent goes by in legacy `~/.<name>-module/` folders. */
  aliases: string[];
  /** Category rules for the agent's data folders (tried before the generic rules). */
  categories: CategoryRule[];
  sessions: SessionRule[];
  /** Minimum storage it needs (MB), for "bloated" thresholds. */
  typicalMb: number;
  note?: string;
};

export const OTHER_AGENT = "other";

export const AGENTS: readonly Agent[] = [
  {
    id: "claude-code",
    displayName: "Claude Code",
    dataPaths: [
      { key: "claude-code:data", path: ".claude", env: "CLAUDE_CONFIG_DIR" },
      { key: "claude-code:config", path: ".claude.json" },
    ],
    modules: ["claude-code"],
    aliases: ["claude"],
    categories: [
      { glob: "projects/**", category: "sessions" },
      { glob: "history.jsonl", category: "sessions" },
      { glob: "file-history/**", category: "sessions" },
      { glob: "todos/**", category: "sessions" },
      { glob: "debug/**", category: "logs" },
      { glob: "shell-snapshots/**", category: "caches" },
      { glob: "statsig/**", category: "caches" },
      { glob: "plugins/**", category: "caches" },
    ],
    sessions: [{ glob: "projects/*/*.jsonl", unit: "file+dir" }],
    typicalMb: 100,
  },
  {
    id: "codex",
    displayName: "Codex",
    dataPaths: [{ key: "codex:data", path: ".codex", env: "CODEX_HOME" }],
    modules: ["codex"],
    aliases: [],
    categories: [
      { glob: "sessions/**", category: "sessions" },
      { glob: "archived_sessions/**", category: "sessions" },
      { glob: "history.jsonl", category: "sessions" },
      { glob: "log/**", category: "logs" },
    ],
    sessions: [
      { glob: "sessions/**/rollout-*", unit: "file" },
      { glob: "archived_sessions/**/rollout-*", unit: "file" },
    ],
    typicalMb: 50,
  },
  {
    id: "gemini",
    displayName: "Gemini CLI",
    dataPaths: [{ key: "gemini:data", path: ".gemini" }],
    modules: ["gemini", "gemini-cli"],
    aliases: [],
    categories: [
      { glob: "tmp/*/chats/**", category: "sessions" },
      { glob: "tmp/*/logs.json", category: "logs" },
      { glob: "data/**", category: "sessions" },
      { glob: "tmp/**", category: "caches" },
    ],
    sessions: [{ glob: "tmp/*/chats/session-*", unit: "file" }],
    typicalMb: 200,
  },
  {
    id: "goose",
    displayName: "Goose",
    dataPaths: [
      { key: "goose:data", path: ".local/share/goose" },
      { key: "goose:state", path: ".local/state/goose" },
    ],
    modules: ["goose"],
    aliases: [],
    categories: [
      { glob: "sessions/**", category: "sessions" },
      { glob: "logs/**", category: "logs" },
    ],
    sessions: [],
    typicalMb: 50,
  },
  {
    id: "opencode",
    displayName: "OpenCode",
    dataPaths: [{ key: "opencode:data", path: ".local/share/opencode" }],
    modules: ["opencode"],
    aliases: [],
    categories: [
      { glob: "storage/**", category: "sessions" },
      { glob: "log/**", category: "logs" },
      { glob: "snapshot/**", category: "caches" },
      { glob: "tool-output/**", category: "caches" },
      { glob: "bin/**", category: "caches" },
    ],
    sessions: [],
    typicalMb: 50,
  },
  {
    id: "copilot",
    displayName: "Copilot CLI",
    dataPaths: [{ key: "copilot:data", path: ".copilot" }],
    modules: ["copilot", "copilot-cli", "github-copilot"],
    aliases: [],
    categories: [
      { glob: "session-state/**", category: "sessions" },
      { glob: "logs/**", category: "logs" },
    ],
    sessions: [{ glob: "session-state/*", unit: "dir" }],
    typicalMb: 50,
  },
  {
    id: "kiro",
    displayName: "Kiro",
    dataPaths: [
      { key: "kiro:data", path: ".kiro" },
      { key: "kiro:cli", path: ".local/share/kiro-cli" },
    ],
    modules: ["kiro", "kiro-cli"],
    aliases: [],
    categories: [
      { glob: "sessions/**", category: "sessions" },
      { glob: "logs/**", category: "logs" },
    ],
    sessions: [],
    typicalMb: 50,
  },
  {
    id: "amazon-q",
    displayName: "Amazon Q",
    dataPaths: [{ key: "amazon-q:data", path: ".local/share/amazon-q" }],
    modules: ["amazon-q"],
    aliases: ["amazonq", "q"],
    categories: [{ glob: "logs/**", category: "logs" }],
    sessions: [],
    typicalMb: 50,
  },
  {
    id: "cursor",
    displayName: "Cursor CLI",
    dataPaths: [{ key: "cursor:data", path: ".cursor" }],
    modules: ["cursor-cli"],
    aliases: ["cursor"],
    categories: [{ glob: "chats/**", category: "sessions" }],
    sessions: [{ glob: "chats/*/*", unit: "dir" }],
    typicalMb: 50,
  },
  {
    id: "aider",
    displayName: "Aider",
    dataPaths: [],
    modules: ["aider"],
    aliases: [],
    categories: [],
    sessions: [],
    typicalMb: 50,
    note: "Aider writes .aider.chat.history.md into each working folder: no fixed folder to scan (report only its module folder).",
  },
  {
    id: "auggie",
    displayName: "Auggie",
    dataPaths: [{ key: "auggie:data", path: ".augment" }],
    modules: ["auggie"],
    aliases: ["augment"],
    categories: [],
    sessions: [],
    typicalMb: 50,
  },
  {
    id: "amp",
    displayName: "Amp",
    dataPaths: [{ key: "amp:data", path: ".config/amp" }],
    modules: ["amp", "sourcegraph-amp"],
    aliases: [],
    categories: [],
    sessions: [],
    typicalMb: 50,
  },
];

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

/** Category rules for a root: databases first, then the agent's own (tool data) or the module layout's, then generic. */
export function categoryRulesFor(kind: string, agentId: string): CategoryRule[] {
  const own = kind === "tool" ? (agentById(agentId)?.categories ?? []) : kind === "module" ? MODULE_CATEGORY_RULES : [];
  // a database is a database wherever it sits (Goose's sessions.db is not a "session" file)
  const dbs = GENERIC_CATEGORY_RULES.filter((r) => r.category === "databases");
  return [...dbs, ...own, ...GENERIC_CATEGORY_RULES.filter((r) => r.category !== "databases")];
}

export function sessionRulesFor(kind: string, agentId: string): SessionRule[] {
  return kind === "tool" ? (agentById(agentId)?.sessions ?? []) : [];
}
