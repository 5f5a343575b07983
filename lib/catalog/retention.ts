// The agents' own retention: what each agent keeps given the settings a report carries (or their defaults),
// worded for the pages and the findings. Plain data and pure functions: the browser imports it.
import type { AgentRetention } from "@/lib/report-format/schema";

/** Claude Code's cleanupPeriodDays when it is not set. */
export const CLAUDE_DEFAULT_DAYS = 30;
/** Gemini CLI's general.sessionRetention.maxAge when it is not set (retention is on by default since March 2026). */
export const GEMINI_DEFAULT_MAX_AGE = "30d";
/** How long OpenCode keeps its snapshots unless `"snapshot": false` turns them off. */
export const OPENCODE_SNAPSHOT_DAYS = 7;
/** The age the retention finding compares data with: the age buckets' 30-day edge, the agents' usual default. */
export const RETENTION_COMPARE_DAYS = 30;

/** Agents whose retention the dashboard knows: the four the reporter reads, and Goose, which has none. */
export const RETENTION_AGENTS = ["claude-code", "gemini", "codex", "opencode", "goose"] as const;

const DURATION_DAYS: Record<string, number> = { h: 1 / 24, d: 1, w: 7, m: 30 };

/** A Gemini CLI duration ("30d", "12h", "2w", "1m") in days; null when it is not one. */
export function durationDays(text: string): number | null {
  const m = /^([0-9]+)([hdwm])$/.exec(text);
  return m ? Number(m[1]) * DURATION_DAYS[m[2]] : null;
}

export type EffectiveRetention = {
  /** Days the agent keeps its sessions; null: no limit. */
  days: number | null;
  /** False when the setting could not be read (or was not reported): `days` is then the agent's default, or null. */
  known: boolean;
  /** "keeps 90 days", "no retention", "unknown". */
  summary: string;
  /** The setting behind it, as an admin would look for it: "cleanupPeriodDays 90", "not set: default 30". */
  setting: string;
  /** Where it was read, when it was: a file relative to home, or an absolute path. */
  source?: string;
};

/** A setting read from a file outside the home: the system's (/etc), which applies to every user. */
const system = (source: string | undefined) => (source?.startsWith("/") ? ", system settings" : "");
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
const keeps = (days: number) => (days === 0 ? "keeps nothing" : `keeps ${plural(days, "day")}`);

/**
 * What `agent` keeps in a workspace whose report carried `settings` (undefined: its reporter does not read them).
 * Null for agents whose retention is not known.
 */
export function effectiveRetention(
  agent: string,
  settings: AgentRetention | null | undefined,
): EffectiveRetention | null {
  const notReported = { known: false, summary: "unknown", setting: "not reported by this workspace's reporter" };
  switch (agent) {
    case "claude-code": {
      if (!settings) return { days: CLAUDE_DEFAULT_DAYS, ...notReported };
      const s = settings["claude-code"];
      if (s?.state === "unreadable")
        return {
          days: CLAUDE_DEFAULT_DAYS,
          known: false,
          summary: "unknown",
          setting: `unreadable: ${s.reason ?? ""}`,
          source: s.source,
        };
      if (s?.state === "set" && s.cleanupPeriodDays !== undefined)
        return {
          days: s.cleanupPeriodDays,
          known: true,
          summary: keeps(s.cleanupPeriodDays),
          setting: `cleanupPeriodDays ${s.cleanupPeriodDays}${s.source?.startsWith("/") ? ", managed" : ""}`,
          source: s.source,
        };
      return {
        days: CLAUDE_DEFAULT_DAYS,
        known: true,
        summary: keeps(CLAUDE_DEFAULT_DAYS),
        setting: `cleanupPeriodDays not set: default ${CLAUDE_DEFAULT_DAYS}`,
      };
    }
    case "gemini": {
      if (!settings) return { days: null, ...notReported };
      const s = settings.gemini;
      if (s?.state === "unreadable")
        return {
          days: null,
          known: false,
          summary: "unknown",
          setting: `unreadable: ${s.reason ?? ""}`,
          source: s.source,
        };
      const source = s?.source;
      if (s?.enabled === false)
        return { days: null, known: true, summary: "no retention", setting: "sessionRetention.enabled false", source };
      const maxAge = s?.maxAge ?? GEMINI_DEFAULT_MAX_AGE;
      const days = durationDays(maxAge) ?? null;
      const count = s?.maxCount !== undefined ? `, at most ${plural(s.maxCount, "session")}` : "";
      return {
        days,
        known: true,
        summary: days === null ? "no retention" : keeps(days),
        setting: `${s?.maxAge ? `sessionRetention.maxAge ${maxAge}` : `sessionRetention.maxAge not set: default ${maxAge}`}${count}${system(source)}, active project only`,
        source,
      };
    }
    case "codex": {
      const s = settings?.codex;
      const cap =
        s?.state === "set" && s.historyMaxBytes !== undefined
          ? `history.max_bytes ${s.historyMaxBytes} caps history.jsonl only${system(s.source)}`
          : s?.state === "unreadable"
            ? `config.toml unreadable: ${s.reason ?? ""}`
            : "no setting limits session rollouts";
      return { days: null, known: true, summary: "no retention", setting: cap, source: s?.source };
    }
    case "opencode": {
      const s = settings?.opencode;
      const snapshots =
        s?.state === "unreadable"
          ? `config unreadable: ${s.reason ?? ""}`
          : s?.snapshot === false
            ? "snapshots off"
            : `snapshots kept ${OPENCODE_SNAPSHOT_DAYS} days`;
      return {
        days: null,
        known: true,
        summary: "no retention",
        setting: `sessions never cleaned; ${snapshots}`,
        source: s?.source,
      };
    }
    case "goose":
      return { days: null, known: true, summary: "no retention", setting: "Goose has no retention setting" };
    default:
      return null;
  }
}

/** "keeps 90 days (cleanupPeriodDays 90)", "no retention (Goose has no retention setting)". */
export const retentionText = (r: EffectiveRetention) => `${r.summary} (${r.setting})`;

/** The registry module whose managed_settings input writes Claude Code's managed settings (read at 5.4.1). */
export const CLAUDE_MODULE = "registry.coder.com/coder/claude-code/coder";

const ADVICE: Record<string, string> = {
  "claude-code": `Set cleanupPeriodDays for every workspace of the template with the claude-code module's managed_settings input (${CLAUDE_MODULE}, e.g. managed_settings = { cleanupPeriodDays = ${RETENTION_COMPARE_DAYS} }): it writes /etc/claude-code/managed-settings.d/10-coder.json, which users cannot override, and Claude Code applies it at its next start. Until then, a cleanup policy with the Claude Code sessions recipe removes the old sessions.`,
  gemini: `Turn session retention on for the whole template: general.sessionRetention = {"enabled": true, "maxAge": "${GEMINI_DEFAULT_MAX_AGE}"} in /etc/gemini-cli/settings.json, which overrides each user's ~/.gemini/settings.json (Gemini CLI cleans the active project only), or add a cleanup policy with the Gemini CLI sessions recipe.`,
  codex: `Codex cannot limit its session rollouts itself (/etc/codex/config.toml and ~/.codex/config.toml cap history.jsonl only): add a cleanup policy with the Codex rollouts recipe (rollouts older than ${RETENTION_COMPARE_DAYS} days), and the Codex archived sessions recipe for archived_sessions/.`,
  opencode:
    "OpenCode cannot limit its sessions itself, and they live in its database, which no cleanup splits: delete old sessions from OpenCode; a cleanup policy with the OpenCode logs recipe keeps log/ in check.",
  goose:
    "Goose has no retention, and its sessions live in sessions.db (with its -wal and -shm), which no cleanup splits: delete old sessions from inside Goose.",
};

/** The durable fix for an agent that keeps too much: its own setting set for the whole template, or a cleanup policy. */
export const retentionAdvice = (agent: string) => ADVICE[agent] ?? "";
