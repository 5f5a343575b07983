// Codex's folder, $CODEX_HOME (~/.codex): rollouts in sessions/YYYY/MM/DD/ and flat in archived_sessions/, one
// ever-growing log/codex-tui.log (openai/codex #13463), SQLite state and logs whose names carry a generation
// (state_5.sqlite, logs_2.sqlite, with -wal and -shm), and the standalone installer's releases in
// packages/standalone/releases/<version>-<target>/, none ever pruned (openai/codex #33256). CODEX_SQLITE_HOME
// moves the SQLite files elsewhere (config.rs: "defaults to $CODEX_SQLITE_HOME when set, otherwise $CODEX_HOME").
import type { Agent } from "../agent-types";

export const CODEX: Agent = {
  id: "codex",
  displayName: "Codex",
  dataPaths: [
    { key: "codex:data", path: ".codex", env: "CODEX_HOME" },
    { key: "codex:sqlite", env: "CODEX_SQLITE_HOME" },
  ],
  modules: ["codex"],
  aliases: [],
  categories: [
    { glob: "sessions/**", category: "sessions" },
    { glob: "archived_sessions/**", category: "sessions" },
    { glob: "history.jsonl", category: "sessions" },
    { glob: "log/**", category: "logs" },
    { glob: "packages/**", category: "caches" },
  ],
  sessions: [
    { glob: "sessions/**/rollout-*", unit: "file" },
    { glob: "archived_sessions/**/rollout-*", unit: "file" },
  ],
  typicalMb: 50,
};
