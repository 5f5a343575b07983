// The shape of the agent catalog's entries, apart from the data (lib/catalog/agent-data/) and the functions
// that read it (lib/catalog/agents.ts).

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
  /** Relative to the home folder; absent when the root exists only where `env` names it (CODEX_SQLITE_HOME). */
  path?: string;
  /** Environment variable that moves the folder (absolute path, or relative to home). */
  env?: string;
  /**
   * Where the data sits inside the folder `env` names, when that is a base folder rather than the agent's own:
   * "opencode" under XDG_DATA_HOME, ".gemini" under GEMINI_CLI_HOME (Gemini CLI takes it as its home).
   */
  envSubpath?: string;
  /** This root's own category rules, instead of the agent's (a cache or install folder beside its data). */
  categories?: CategoryRule[];
  /** This root's own session rules, instead of the agent's. */
  sessions?: SessionRule[];
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
