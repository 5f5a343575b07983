// The agents with one or two folders of their own and few rules: Goose, Copilot CLI, Kiro, Amazon Q, Cursor CLI,
// Aider, Auggie and Amp.
import type { Agent } from "../agent-types";

export const CLI_AGENTS: Agent[] = [
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
    // pkg/universal/<version>/ keeps about 124 MB per release, never removed (github/copilot-cli #1624).
    id: "copilot",
    displayName: "Copilot CLI",
    dataPaths: [{ key: "copilot:data", path: ".copilot", env: "COPILOT_HOME" }],
    modules: ["copilot", "copilot-cli", "github-copilot"],
    aliases: [],
    categories: [
      { glob: "session-state/**", category: "sessions" },
      { glob: "logs/**", category: "logs" },
      { glob: "pkg/**", category: "caches" },
    ],
    sessions: [{ glob: "session-state/*", unit: "dir" }],
    typicalMb: 50,
  },
  {
    // Kiro CLI 2.x writes sessions/cli/<id>.jsonl (with <id>.json and <id>.lock beside it); v3 writes
    // sessions/<key>/sess_<id>/. SQLite (data.sqlite3) only in classic mode.
    id: "kiro",
    displayName: "Kiro",
    dataPaths: [
      { key: "kiro:data", path: ".kiro", env: "KIRO_HOME" },
      { key: "kiro:cli", path: ".local/share/kiro-cli" },
    ],
    modules: ["kiro", "kiro-cli"],
    aliases: [],
    categories: [
      { glob: "sessions/**", category: "sessions" },
      { glob: "logs/**", category: "logs" },
    ],
    sessions: [
      { glob: "sessions/cli/*.jsonl", unit: "file" },
      { glob: "sessions/*/sess_*", unit: "dir" },
    ],
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
    // Chats in chats/<hash>/<chat-id>/store.db; agent transcripts (JSONL) in projects/<cwd>/agent-transcripts/<id>/.
    id: "cursor",
    displayName: "Cursor CLI",
    dataPaths: [{ key: "cursor:data", path: ".cursor", env: "CURSOR_CONFIG_DIR" }],
    modules: ["cursor-cli", "agent-relay-cursor"],
    aliases: ["cursor"],
    categories: [
      { glob: "chats/**", category: "sessions" },
      { glob: "projects/*/agent-transcripts/**", category: "sessions" },
    ],
    sessions: [
      { glob: "chats/*/*", unit: "dir" },
      { glob: "projects/*/agent-transcripts/*", unit: "dir" },
    ],
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
    // Threads in $XDG_DATA_HOME/amp/threads/*.json, logs in $XDG_CACHE_HOME/amp/logs/; ~/.config/amp holds
    // settings only.
    id: "amp",
    displayName: "Amp",
    dataPaths: [
      { key: "amp:data", path: ".local/share/amp", env: "XDG_DATA_HOME", envSubpath: "amp" },
      {
        key: "amp:logs",
        path: ".cache/amp",
        env: "XDG_CACHE_HOME",
        envSubpath: "amp",
        categories: [{ glob: "logs/**", category: "logs" }],
        sessions: [],
      },
    ],
    modules: ["amp", "sourcegraph-amp"],
    aliases: [],
    categories: [{ glob: "threads/**", category: "sessions" }],
    sessions: [{ glob: "threads/*.json", unit: "file" }],
    typicalMb: 50,
  },
];
