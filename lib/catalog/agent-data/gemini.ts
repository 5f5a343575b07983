// Gemini CLI's folder. GEMINI_CLI_HOME replaces the home folder for it (packages/core/src/utils/paths.ts), so
// its data is then $GEMINI_CLI_HOME/.gemini. Per project, tmp/<project_hash>/ holds chats/session-*.json(l),
// logs/session-<id>.jsonl (logs, not caches: they are matched before the tmp/** rule), tool-outputs/ and
// subagent folders; Gemini's own cleanup deletes a session with its log, tool outputs and subagent folder
// (packages/core/src/utils/sessionOperations.ts).
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
