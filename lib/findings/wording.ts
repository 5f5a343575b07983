// Wording that several rules share: where a finding is, each agent's own retention facts, what to do about a full disk.
import type { MeasuredFinding } from "./finding";

/** The root (and the path in it) a finding is about, or "the workspace". */
export const where = (f: MeasuredFinding) =>
  f.rootKey ? `${f.rootKey}${f.path ? ` (${f.path})` : ""}` : "the workspace";

/** How to act on a root that is too large, per agent: its own retention setting, or the cleanup that is safe for it. */
const AGENT_ACTIONS: Record<string, string> = {
  "claude-code":
    "Set cleanupPeriodDays in ~/.claude/settings.json (default 30) or run the Claude Code retention cleanup; old debug/ and file-history/ can go by age.",
  codex:
    "Codex has no retention setting: run the Codex rollout cleanup to delete sessions/YYYY/MM/DD rollouts older than 30 days.",
  gemini:
    'Enable general.sessionRetention in ~/.gemini/settings.json ({"enabled": true, "maxAge": "30d"}) or run the Gemini chat cleanup.',
  goose:
    "Goose has no retention: delete old sessions from inside Goose; never delete parts of sessions.db (-wal/-shm go with it).",
  opencode: "Run the OpenCode cleanup for log/ and tool-output/ by age; snapshot/ can be pruned from OpenCode itself.",
  copilot: "Run the Copilot CLI cleanup to delete whole ~/.copilot/session-state/<id>/ folders older than 30 days.",
  kiro: "Run the Kiro cleanup to delete old session files under ~/.kiro/sessions/cli/ (never data.sqlite3).",
  "amazon-q": "Run the Amazon Q cleanup to delete old session files (never the SQLite database).",
  cursor: "Run the Cursor CLI cleanup to delete whole ~/.cursor/chats/<hash>/<chat-id>/ folders by age.",
};
const GENERIC_ACTION =
  "Look at the root's largest entries and add a retention policy for it, or delete what is no longer needed.";

export const FREE_SPACE_NOW =
  "Free space now (run the largest roots' cleanups) or grow the workspace's volume in its template: a full disk corrupts agent settings and auth.";

/** What to do about a root that is too large for `agent`. */
export const agentAction = (agent: string | null) => AGENT_ACTIONS[agent ?? ""] ?? GENERIC_ACTION;
