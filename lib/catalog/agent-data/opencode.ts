// OpenCode's folder, $XDG_DATA_HOME/opencode. Since 1.2 its sessions are in opencode.db (SQLite in WAL mode);
// the JSON storage/ tree is legacy. snapshot/<project>/ holds a git repository of each worktree, committed at
// every step (anomalyco/opencode #6845: 169–380 GB). OPENCODE_DB names the database file itself, which may then
// lie outside the folder: it is a root of its own there.
import type { Agent } from "../agent-types";

export const OPENCODE: Agent = {
  id: "opencode",
  displayName: "OpenCode",
  dataPaths: [
    { key: "opencode:data", path: ".local/share/opencode", env: "XDG_DATA_HOME", envSubpath: "opencode" },
    { key: "opencode:db", env: "OPENCODE_DB" },
  ],
  modules: ["opencode"],
  aliases: [],
  categories: [
    { glob: "storage/**", category: "sessions" },
    { glob: "log/**", category: "logs" },
    { glob: "snapshot/**", category: "caches" },
    { glob: "tool-output/**", category: "caches" },
    { glob: "bin/**", category: "caches" },
  ],
  sessions: [],
  typicalMb: 50,
};
