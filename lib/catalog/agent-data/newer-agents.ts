// Agents added in 2026: Pi, Cline, Qwen Code and Mux (Coder's multi-agent app).
import type { Agent } from "../agent-types";

export const NEWER_AGENTS: Agent[] = [
  {
    // Sessions in sessions/--<cwd>--/<timestamp>_<uuid>.jsonl, subagent files in sessions/--<cwd>--/subagent-artifacts/.
    id: "pi",
    displayName: "Pi",
    dataPaths: [{ key: "pi:data", path: ".pi/agent", env: "PI_CODING_AGENT_DIR" }],
    modules: ["pi", "pi-coding-agent"],
    aliases: [],
    categories: [{ glob: "sessions/**", category: "sessions" }],
    sessions: [{ glob: "sessions/*/*.jsonl", unit: "file" }],
    typicalMb: 50,
  },
  {
    id: "cline",
    displayName: "Cline",
    dataPaths: [{ key: "cline:data", path: ".cline", env: "CLINE_DIR" }],
    modules: ["cline"],
    aliases: [],
    categories: [
      { glob: "data/sessions/**", category: "sessions" },
      { glob: "data/tasks/**", category: "sessions" },
      { glob: "logs/**", category: "logs" },
    ],
    sessions: [{ glob: "data/sessions/*", unit: "dir" }],
    typicalMb: 50,
  },
  {
    // Chats in projects/<cwd>/chats/*.jsonl (Qwen Code is a fork of Gemini CLI with its own folder).
    id: "qwen",
    displayName: "Qwen Code",
    dataPaths: [{ key: "qwen:data", path: ".qwen", env: "QWEN_HOME" }],
    modules: ["qwen", "qwen-code"],
    aliases: [],
    categories: [
      { glob: "projects/*/chats/**", category: "sessions" },
      { glob: "tmp/**", category: "caches" },
    ],
    sessions: [{ glob: "projects/*/chats/*.jsonl", unit: "file" }],
    typicalMb: 50,
  },
  {
    // sessions/<workspace>/chat.jsonl per workspace; src/<project>/<branch>/ holds its git worktrees (project
    // files, not the agent's data: left as "other").
    id: "mux",
    displayName: "Mux",
    dataPaths: [{ key: "mux:data", path: ".mux", env: "MUX_ROOT" }],
    modules: ["mux"],
    aliases: [],
    categories: [{ glob: "sessions/**", category: "sessions" }],
    sessions: [{ glob: "sessions/*", unit: "dir" }],
    typicalMb: 50,
  },
];
