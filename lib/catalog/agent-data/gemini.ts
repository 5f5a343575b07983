// Gemini CLI's folder. GEMINI_CLI_HOME replaces the home folder for it, so its data is then
// $GEMINI_CLI_HOME/.gemini. Per project, tmp/<project_hash>/ holds chats/session-*.json(l) (and chats/<session
// id>/ with its subagents' chats), logs/session-<id>.jsonl (logs, not caches: they are matched before the tmp/**
// rule), tool-outputs/session-<id>/ and the session's own temporary folder <id>/; Gemini CLI's own cleanup
// deletes a session with all of them (the layout, and the recipe that takes them together:
// recipe-data/session-parts.ts).
import type { Agent } from "../agent-types";

export const GEMINI: Agent = {
  id: "gemini",
  displayName: "Gemini CLI",
  dataPaths: [{ key: "gemini:data", path: ".gemini", env: "GEMINI_CLI_HOME", envSubpath: ".gemini" }],
  modules: ["gemini", "gemini-cli"],
  aliases: [],
  categories: [
    { glob: "tmp/*/chats/**", category: "sessions" },
    { glob: "tmp/*/logs/**", category: "logs" },
    { glob: "tmp/*/logs.json", category: "logs" },
    { glob: "tmp/*/tool-outputs/**", category: "sessions" },
    { glob: "data/**", category: "sessions" },
    { glob: "tmp/**", category: "caches" },
  ],
  sessions: [{ glob: "tmp/*/chats/session-*", unit: "file" }],
  typicalMb: 200,
};
