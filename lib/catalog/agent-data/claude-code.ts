// Claude Code's folders. Besides ~/.claude it writes the MCP servers' logs to its cache folder
// (env-paths "claude-cli" on Linux: $XDG_CACHE_HOME/claude-cli-nodejs/<project>/mcp-logs-<server>/*.jsonl),
// append-only and never pruned by cleanupPeriodDays (anthropics/claude-code #69427: 242 GB at about 10 GB a
// day), and its native installer keeps every release it installed as one executable file each in
// ~/.local/share/claude/versions/<version> (anthropics/claude-code #14980, 200–260 MB each).
import type { Agent } from "../agent-types";

export const CLAUDE_CODE: Agent = {
  id: "claude-code",
  displayName: "Claude Code",
  dataPaths: [
    { key: "claude-code:data", path: ".claude", env: "CLAUDE_CONFIG_DIR" },
    { key: "claude-code:config", path: ".claude.json" },
    {
      key: "claude-code:mcp-logs",
      path: ".cache/claude-cli-nodejs",
      env: "XDG_CACHE_HOME",
      envSubpath: "claude-cli-nodejs",
      categories: [{ glob: "*/mcp-logs-*/**", category: "logs" }],
      sessions: [],
    },
    {
      key: "claude-code:versions",
      path: ".local/share/claude/versions",
      categories: [{ glob: "**", category: "caches" }],
      sessions: [],
    },
  ],
  modules: ["claude-code", "agent-relay-claude-code"],
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
};
