// The agents' own retention settings, read from their settings files: only the retention keys go into the
// report, never anything else a file holds. A file that is missing, or has no such key, is "absent" (the agent's
// default applies); one that cannot be read or parsed, or holds a value the agent would refuse, is "unreadable"
// with the reason (a position in the file, never its text: parsers quote the text around an error).

import fs from "node:fs";
import path from "node:path";
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser";
import { parse as parseToml, TomlError } from "smol-toml";
import type { AgentRetention } from "@/lib/report-format/schema";
import type { Env } from "../env";

/** Where Claude Code's managed settings live on Linux: managed-settings.json, then managed-settings.d/*.json. */
export const CLAUDE_MANAGED_DIR = "/etc/claude-code";
/** Settings files are small; a larger one is not read (the reporter must stay light). */
const MAX_SETTINGS_BYTES = 1024 * 1024;

type Found =
  { state: "absent" } | { state: "unreadable"; reason: string } | { state: "read"; value: Record<string, unknown> };
type Format = "json" | "jsonc" | "toml";

/** "line L, column C" of a character offset. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

function parse(text: string, format: Format): { value: unknown } | { reason: string } {
  if (format === "toml") {
    try {
      return { value: parseToml(text) };
    } catch (err) {
      if (err instanceof TomlError) return { reason: `not valid TOML (line ${err.line}, column ${err.column})` };
      throw err;
    }
  }
  if (format === "jsonc") {
    // As OpenCode and Gemini CLI read theirs: comments and trailing commas allowed.
    const errors: ParseError[] = [];
    const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length)
      return {
        reason: `not valid JSON (${printParseErrorCode(errors[0].error)} at ${position(text, errors[0].offset)})`,
      };
    return { value };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    const at = /position (\d+)/.exec((err as Error).message);
    return { reason: `not valid JSON${at ? ` (at ${position(text, Number(at[1]))})` : ""}` };
  }
}

/** Reads and parses one settings file; its top level must be an object (a table, in TOML). */
export function readSettings(file: string, format: Format): Found {
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_SETTINGS_BYTES) return { state: "unreadable", reason: `larger than ${MAX_SETTINGS_BYTES} bytes` };
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { state: "absent" };
    if (code === "EISDIR") return { state: "unreadable", reason: "a folder, not a file" };
    if (code === "EACCES" || code === "EPERM") return { state: "unreadable", reason: "permission denied" };
    return { state: "unreadable", reason: `cannot be read (${code ?? "error"})` };
  }
  const parsed = parse(text, format);
  if ("reason" in parsed) return { state: "unreadable", reason: parsed.reason };
  const v = parsed.value;
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return { state: "unreadable", reason: `not a ${format === "toml" ? "TOML table" : "JSON object"}` };
  return { state: "read", value: v as Record<string, unknown> };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const wholeNumber = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const duration = (v: unknown): v is string => typeof v === "string" && /^[0-9]+[hdwm]$/.test(v);

/** A path for the report: relative to home when inside it, else absolute. */
const shown = (home: string, file: string) => {
  const rel = path.relative(home, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
};

type ClaudeRetention = NonNullable<AgentRetention["claude-code"]>;

/**
 * Claude Code's cleanupPeriodDays: the managed settings win (managed-settings.json, then the drop-ins of
 * managed-settings.d/ in name order, a later one overriding an earlier one), then ~/.claude/settings.json
 * ($CLAUDE_CONFIG_DIR/settings.json). A file that cannot be read is reported unless a file of higher precedence
 * sets the key anyway.
 */
function claudeRetention(home: string, env: Env, managedDir: string): ClaudeRetention {
  const configDir = env.CLAUDE_CONFIG_DIR ? path.resolve(home, env.CLAUDE_CONFIG_DIR) : path.join(home, ".claude");
  const dropIns = path.join(managedDir, "managed-settings.d");
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(dropIns)
      .filter((n) => n.endsWith(".json") && !n.startsWith("."))
      .sort();
  } catch {
    /* no drop-in folder */
  }
  // Highest precedence first.
  const files = [
    ...names.reverse().map((n) => path.join(dropIns, n)),
    path.join(managedDir, "managed-settings.json"),
    path.join(configDir, "settings.json"),
  ];
  let firstUnreadable: ClaudeRetention | null = null;
  for (const file of files) {
    const found = readSettings(file, "json");
    const source = shown(home, file);
    if (found.state === "absent") continue;
    if (found.state === "unreadable") {
      firstUnreadable ??= { state: "unreadable", source, reason: found.reason };
      continue;
    }
    if (!("cleanupPeriodDays" in found.value)) continue;
    const days = found.value.cleanupPeriodDays;
    if (!wholeNumber(days)) {
      firstUnreadable ??= { state: "unreadable", source, reason: "cleanupPeriodDays is not a whole number of days" };
      continue;
    }
    return firstUnreadable ?? { state: "set", source, cleanupPeriodDays: days };
  }
  return firstUnreadable ?? { state: "absent" };
}

type GeminiRetention = NonNullable<AgentRetention["gemini"]>;
type GeminiKeys = Pick<GeminiRetention, "enabled" | "maxAge" | "maxCount" | "minRetention">;
type GeminiFound = { state: "absent" } | { state: "unreadable"; reason: string } | { state: "keys"; keys: GeminiKeys };

/** general.sessionRetention of one Gemini CLI settings file: its keys, absent, or why it is unreadable. */
function geminiFile(file: string): GeminiFound {
  const found = readSettings(file, "jsonc");
  if (found.state !== "read") return found;
  const general = found.value.general;
  const r = isObject(general) ? general.sessionRetention : undefined;
  if (r === undefined) return { state: "absent" };
  if (!isObject(r)) return { state: "unreadable", reason: "general.sessionRetention is not an object" };
  const bad = (key: string, what: string) => ({
    state: "unreadable" as const,
    reason: `general.sessionRetention.${key} is not ${what}`,
  });
  if (r.enabled !== undefined && typeof r.enabled !== "boolean") return bad("enabled", "true or false");
  if (r.maxAge !== undefined && !duration(r.maxAge)) return bad("maxAge", 'a duration such as "30d"');
  if (r.maxCount !== undefined && !wholeNumber(r.maxCount)) return bad("maxCount", "a whole number");
  if (r.minRetention !== undefined && !duration(r.minRetention)) return bad("minRetention", 'a duration such as "1d"');
  const keys: GeminiKeys = {
    ...(r.enabled !== undefined ? { enabled: r.enabled } : {}),
    ...(r.maxAge !== undefined ? { maxAge: r.maxAge } : {}),
    ...(r.maxCount !== undefined ? { maxCount: r.maxCount } : {}),
    ...(r.minRetention !== undefined ? { minRetention: r.minRetention } : {}),
  };
  return { state: "keys", keys };
}

/**
 * Gemini CLI's general.sessionRetention: the system settings (/etc/gemini-cli/settings.json, or
 * $GEMINI_CLI_SYSTEM_SETTINGS_PATH) override the user's ($GEMINI_CLI_HOME/.gemini/settings.json) key by key,
 * as Gemini CLI merges them. The source named is the system file when it sets any key.
 */
function geminiRetention(home: string, env: Env, systemFile: string): GeminiRetention {
  const geminiHome = env.GEMINI_CLI_HOME ? path.resolve(home, env.GEMINI_CLI_HOME) : home;
  const userFile = path.join(geminiHome, ".gemini", "settings.json");
  const sysFile = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || systemFile;
  const sys = geminiFile(sysFile);
  if (sys.state === "unreadable") return { state: "unreadable", source: shown(home, sysFile), reason: sys.reason };
  const user = geminiFile(userFile);
  if (user.state === "unreadable") return { state: "unreadable", source: shown(home, userFile), reason: user.reason };
  if (sys.state === "absent" && user.state === "absent") return { state: "absent" };
  return {
    state: "set",
    source: shown(home, sys.state === "keys" ? sysFile : userFile),
    ...(user.state === "keys" ? user.keys : {}),
    ...(sys.state === "keys" ? sys.keys : {}),
  };
}

/**
 * Codex's [history] max_bytes: $CODEX_HOME/config.toml, layered over the system's /etc/codex/config.toml (the
 * user's key wins; the system's applies where the user's file does not set it).
 */
function codexRetention(home: string, env: Env, systemFile: string): NonNullable<AgentRetention["codex"]> {
  const codexHome = env.CODEX_HOME ? path.resolve(home, env.CODEX_HOME) : path.join(home, ".codex");
  for (const file of [path.join(codexHome, "config.toml"), systemFile]) {
    const source = shown(home, file);
    const found = readSettings(file, "toml");
    if (found.state === "absent") continue;
    if (found.state === "unreadable") return { state: "unreadable", source, reason: found.reason };
    const history = found.value.history;
    const max = isObject(history) ? history.max_bytes : undefined;
    if (max === undefined) continue;
    // smol-toml reads integers past 2^53 as BigInt: no history file is that large, so it is refused as one.
    if (!wholeNumber(max))
      return { state: "unreadable", source, reason: "history.max_bytes is not a whole number of bytes" };
    return { state: "set", source, historyMaxBytes: max };
  }
  return { state: "absent" };
}

function opencodeRetention(home: string, env: Env): NonNullable<AgentRetention["opencode"]> {
  const configHome = env.XDG_CONFIG_HOME ? path.resolve(home, env.XDG_CONFIG_HOME) : path.join(home, ".config");
  const dir = path.join(configHome, "opencode");
  // Highest precedence first: OpenCode merges config.json, opencode.json and opencode.jsonc in that order.
  for (const name of ["opencode.jsonc", "opencode.json", "config.json"]) {
    const file = path.join(dir, name);
    const source = shown(home, file);
    const found = readSettings(file, "jsonc");
    if (found.state === "absent") continue;
    if (found.state === "unreadable") return { state: "unreadable", source, reason: found.reason };
    if (!("snapshot" in found.value)) continue;
    if (typeof found.value.snapshot !== "boolean")
      return { state: "unreadable", source, reason: "snapshot is not true or false" };
    return { state: "set", source, snapshot: found.value.snapshot };
  }
  return { state: "absent" };
}

/** The agents' system-wide settings files on Linux (a test passes its own). */
export type SystemSettings = {
  /** Claude Code's managed settings: managed-settings.json, then managed-settings.d/*.json. */
  claudeManagedDir: string;
  /** Codex's system configuration, under the user's. */
  codexConfig: string;
  /** Gemini CLI's system settings, over the user's. */
  geminiSettings: string;
};

export const SYSTEM_SETTINGS: SystemSettings = {
  claudeManagedDir: CLAUDE_MANAGED_DIR,
  codexConfig: "/etc/codex/config.toml",
  geminiSettings: "/etc/gemini-cli/settings.json",
};

/** Every agent's retention setting as the report carries it. */
export function readAgentRetention(home: string, env: Env, system = SYSTEM_SETTINGS): AgentRetention {
  return {
    "claude-code": claudeRetention(home, env, system.claudeManagedDir),
    gemini: geminiRetention(home, env, system.geminiSettings),
    codex: codexRetention(home, env, system.codexConfig),
    opencode: opencodeRetention(home, env),
  };
}
