// The wording of each finding: what was measured, and a concrete next step from each agent's own retention facts.
import { formatBytes } from "@/lib/format/bytes";
import type { Finding, RuleId } from "./rules";

/** How to act on a root that is too large, per agent: its own retention setting, or the cleanup that is safe for it. */
export const AGENT_ACTIONS: Record<string, string> = {
  "claude-code":
    "Set cleanupPeriodDays in ~/.claude/settings.json (default 30) or run the Claude Code retention cleanup; old debug/ and file-history/ can go by age.",
  codex: "Codex has no retention setting: run the Codex rollout cleanup to delete sessions/YYYY/MM/DD rollouts older than 30 days.",
  gemini:
    'Enable general.sessionRetention in ~/.gemini/settings.json ({"enabled": true, "maxAge": "30d"}) or run the Gemini chat cleanup.',
  goose: "Goose has no retention: delete old sessions from inside Goose; never delete parts of sessions.db (-wal/-shm go with it).",
  opencode: "Run the OpenCode cleanup for log/ and tool-output/ by age; snapshot/ can be pruned from OpenCode itself.",
  copilot: "Run the Copilot CLI cleanup to delete whole ~/.copilot/session-state/<id>/ folders older than 30 days.",
  kiro: "Run the Kiro cleanup to delete old session files under ~/.kiro/sessions/cli/ (never data.sqlite3).",
  "amazon-q": "Run the Amazon Q cleanup to delete old session files (never the SQLite database).",
  cursor: "Run the Cursor CLI cleanup to delete whole ~/.cursor/chats/<hash>/<chat-id>/ folders by age.",
};
const GENERIC_ACTION = "Look at the root's largest entries and add a retention policy for it, or delete what is no longer needed.";

const FREE_SPACE_NOW =
  "Free space now (run the largest roots' cleanups) or grow the workspace's volume in its template: a full disk corrupts agent settings and auth.";

/** Fills in the message and action of a finding from its measurements. */
export function describeFinding(f: Omit<Finding, "message" | "action">): Finding {
  const where = f.rootKey ? `${f.rootKey}${f.path ? ` (${f.path})` : ""}` : "the workspace";
  const text: Record<RuleId, () => [string, string]> = {
    "root-oversize": () => [
      `${where} holds ${formatBytes(f.value)}, over the ${formatBytes(f.threshold)} expected for ${f.agent ?? "this agent"}.`,
      AGENT_ACTIONS[f.agent ?? ""] ?? GENERIC_ACTION,
    ],
    "large-session": () => [
      `A single session in ${f.rootKey} is ${formatBytes(f.value)} (limit ${formatBytes(f.threshold)}): ${f.path}.`,
      f.agent === "claude-code"
        ? "Finish or archive that conversation; Claude Code's cleanupPeriodDays removes it once it is old enough, or delete the session (.jsonl and its folder) with the Claude cleanup."
        : (AGENT_ACTIONS[f.agent ?? ""] ?? GENERIC_ACTION),
    ],
    "fast-growth": () => [
      `Used space grows by ${formatBytes(f.value)} per day (limit ${formatBytes(f.threshold)} per day).`,
      "Open the workspace's usage by root to see which root grows, then apply that agent's retention policy.",
    ],
    "volume-full": () => [
      `The home volume is ${f.value}% used as df shows it (alert at ${f.threshold}%).`,
      FREE_SPACE_NOW,
    ],
    "inodes-full": () => [
      `The home volume has used ${f.value}% of its inodes (df -i; alert at ${f.threshold}%): new files fail even with space left.`,
      "Delete folders of many small files first (agent session folders, caches, node_modules in old checkouts); `find ~ -xdev -type f | cut -d/ -f1-5 | sort | uniq -c | sort -n` shows where they are.",
    ],
    "volume-filling": () => [
      f.value < 0.05
        ? `The home volume is full (alert when under ${f.threshold} days from full).`
        : f.value < 1
          ? `The home volume is forecast to fill in ${Math.max(1, Math.round(f.value * 24))} hours (alert under ${f.threshold} days).`
          : `The home volume is forecast to fill in ${f.value.toFixed(1)} days (alert under ${f.threshold} days).`,
      FREE_SPACE_NOW,
    ],
    "orphaned-script-data": () => [
      `Orphaned script data ${f.path ?? where} holds ${formatBytes(f.value)}.`,
      "Delete the orphaned coder-script-data/<uuid>/ folder: each workspace start creates a new one and nothing reads the old ones.",
    ],
    "agentapi-leftover": () => [
      `AgentAPI leftovers in ${where} (${formatBytes(f.value)}).`,
      "Delete agentapi-state.json and agentapi.pid from the module folder: current modules no longer use AgentAPI.",
    ],
    "silent-workspace": () => [
      `No report for ${f.value.toFixed(0)} hours (over ${f.threshold} hours).`,
      "Check whether the workspace is stopped or deleted; if it runs, check the reporter's coder_script logs and its token.",
    ],
    "claude-debug-history": () => [
      `Claude Code's debug/ and file-history/ hold ${formatBytes(f.value)}, more than its sessions (${formatBytes(f.threshold)}).`,
      "Delete debug/ and file-history/ entries older than 7 days with the Claude cleanup; lower cleanupPeriodDays in ~/.claude/settings.json.",
    ],
  };
  const [message, action] = text[f.ruleId]();
  return { ...f, message, action };
}
