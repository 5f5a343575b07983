import { describe, expect, it } from "vitest";
import { truncateRefusal } from "./truncatable";

describe("which files a truncation may empty", () => {
  it("takes logs: *.log, rotated ones, and files in log folders", () => {
    for (const p of [
      "log/codex-tui.log",
      "codex-tui.log.3",
      "logs/2026-11-27.txt",
      "debug/0b1c.txt",
      "mcp-logs-github/2026.jsonl",
    ])
      expect(truncateRefusal(p), p).toBeNull();
  });

  it("never a database or one of its companions, even in a log folder", () => {
    for (const p of [
      "logs_2.sqlite",
      "state_5.sqlite-wal",
      "log/state.db",
      "logs/history.db-shm",
      "debug/x.db-journal",
      "logs/a.sqlite3",
    ])
      expect(truncateRefusal(p), p).toMatch(/is a database/);
  });

  it("nothing else: sessions, binaries, settings", () => {
    for (const p of ["sessions/2026/11/01/rollout-1.jsonl", "bin/codex", "catalog.json"])
      expect(truncateRefusal(p), p).toMatch(/not a log file/);
  });
});
