import { describe, expect, it } from "vitest";
import { retentionText } from "@/lib/catalog/retention";
import { retentionRows } from "./agent-retention";

const GiB = 1024 ** 3;
const root = (key: string, agent: string, older = 0) => ({
  key,
  agent,
  kind: "tool",
  ages: { "7d": { bytes: 5, files: 1 }, "90d": { bytes: older, files: 2 }, older: { bytes: 1, files: 1 } },
  oldestMtime: "2026-01-01T00:00:00.000Z",
});

describe("retentionRows", () => {
  it("words each agent's retention beside its data older than 30 days", () => {
    const rows = retentionRows(
      [
        root("claude-code:data", "claude-code", 6 * GiB),
        root("claude-code:config", "claude-code"),
        root("codex:data", "codex", GiB),
        root("gemini:data", "gemini"),
        root("goose:data", "goose"),
        root("opencode:data", "opencode"),
        root("copilot:data", "copilot"),
        { ...root("coder/claude-code", "claude-code"), kind: "module" },
      ],
      {
        "claude-code": {
          state: "set",
          source: "/etc/claude-code/managed-settings.d/10-coder.json",
          cleanupPeriodDays: 90,
        },
        gemini: { state: "set", source: ".gemini/settings.json", maxAge: "2w", maxCount: 20 },
        codex: { state: "set", source: ".codex/config.toml", historyMaxBytes: 1048576 },
        opencode: { state: "unreadable", source: ".config/opencode/opencode.json", reason: "not valid JSON" },
      },
    );
    expect(rows.map((r) => [r.agent, retentionText(r.retention), r.olderBytes])).toEqual([
      ["claude-code", "keeps 90 days (cleanupPeriodDays 90, managed)", 6 * GiB + 1],
      ["gemini", "keeps 14 days (sessionRetention.maxAge 2w, at most 20 sessions, active project only)", 1],
      ["codex", "no retention (history.max_bytes 1048576 caps history.jsonl only)", GiB + 1],
      ["opencode", "no retention (sessions never cleaned; config unreadable: not valid JSON)", 1],
      ["goose", "no retention (Goose has no retention setting)", 1],
    ]);
  });

  it("says when a setting comes from the system's settings in /etc", () => {
    const rows = retentionRows([root("gemini:data", "gemini"), root("codex:data", "codex")], {
      gemini: { state: "set", source: "/etc/gemini-cli/settings.json", enabled: true, maxAge: "7d" },
      codex: { state: "set", source: "/etc/codex/config.toml", historyMaxBytes: 4096 },
    });
    expect(rows.map((r) => retentionText(r.retention))).toEqual([
      "keeps 7 days (sessionRetention.maxAge 7d, system settings, active project only)",
      "no retention (history.max_bytes 4096 caps history.jsonl only, system settings)",
    ]);
  });

  it("falls back to the defaults when a setting is absent, and says so when it is unknown", () => {
    const roots = [root("claude-code:data", "claude-code"), root("gemini:data", "gemini")];
    expect(retentionRows(roots, {}).map((r) => retentionText(r.retention))).toEqual([
      "keeps 30 days (cleanupPeriodDays not set: default 30)",
      "keeps 30 days (sessionRetention.maxAge not set: default 30d, active project only)",
    ]);
    expect(
      retentionRows(roots, {
        "claude-code": { state: "unreadable", source: ".claude/settings.json", reason: "permission denied" },
        gemini: { state: "set", enabled: false },
      }).map((r) => [r.retention.known, retentionText(r.retention)]),
    ).toEqual([
      [false, "unknown (unreadable: permission denied)"],
      [true, "no retention (sessionRetention.enabled false)"],
    ]);
    expect(retentionRows(roots, null).map((r) => retentionText(r.retention))).toEqual([
      "unknown (not reported by this workspace's reporter)",
      "unknown (not reported by this workspace's reporter)",
    ]);
  });
});
