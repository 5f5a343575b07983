// The largest bloat the agents' users reported in 2026, each with a unit that can go on its own.
import type { Recipe } from "../recipe-types";

export const BLOAT_RECIPES: Recipe[] = [
  {
    // Append-only, never pruned by cleanupPeriodDays (anthropics/claude-code #69427); the file of a running
    // server is open, and the executor skips open files.
    id: "claude-code-mcp-logs",
    agent: "claude-code",
    title: "Claude Code MCP server logs",
    description: "Log files in ~/.cache/claude-cli-nodejs/<project>/mcp-logs-<server>/.",
    roots: ["claude-code:mcp-logs"],
    unit: "file",
    glob: "*/mcp-logs-*/*.jsonl",
    defaultAction: "delete",
    defaultOlderThanDays: 7,
  },
  {
    // Deleting a snapshot folder while OpenCode is not running is the maintainers' own workaround
    // (anomalyco/opencode #6845); it costs only /undo history.
    id: "opencode-snapshots",
    agent: "opencode",
    title: "OpenCode snapshots",
    description: "Whole snapshot/<project>/ git repositories (only /undo history), never while OpenCode runs.",
    roots: ["opencode:data"],
    unit: "dir",
    glob: "snapshot/*",
    defaultAction: "delete",
    defaultOlderThanDays: 7,
    notWhileRunning: ["opencode"],
  },
  {
    id: "codex-archived-sessions",
    agent: "codex",
    title: "Codex archived sessions",
    description: "Archived rollouts in archived_sessions/ (rollout-*.jsonl, flat); Codex never removes them.",
    roots: ["codex:data"],
    unit: "file",
    glob: "archived_sessions/rollout-*",
    defaultAction: "trash",
    defaultOlderThanDays: 30,
  },
];
