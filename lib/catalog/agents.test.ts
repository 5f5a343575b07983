import { describe, expect, it } from "vitest";
import {
  AGENTS,
  agentDisplayName,
  agentForLegacyFolder,
  agentForModule,
  categoryRulesFor,
  isAgentSlug,
} from "./agents";
import { categoryOf, matchGlob } from "./globs";

describe("agent catalog", () => {
  it("has every agent of the design, with valid slugs and relative paths", () => {
    const ids = AGENTS.map((a) => a.id);
    for (const id of [
      "claude-code",
      "codex",
      "gemini",
      "goose",
      "opencode",
      "copilot",
      "kiro",
      "amazon-q",
      "cursor",
      "aider",
      "auggie",
      "amp",
    ]) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of AGENTS) {
      expect(isAgentSlug(a.id)).toBe(true);
      expect(a.displayName.length).toBeGreaterThan(0);
      for (const p of a.dataPaths) {
        // a folder without a place in the home exists only where its variable names it
        expect(p.path ?? p.env, p.key).toBeTruthy();
        for (const rel of [p.path ?? "", p.envSubpath ?? ""]) {
          expect(rel.startsWith("/")).toBe(false);
          expect(rel.split("/")).not.toContain("..");
        }
        expect(p.key).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/);
      }
    }
    expect(AGENTS.find((a) => a.id === "aider")?.dataPaths).toEqual([]);
  });

  it("maps modules and legacy folders to agents", () => {
    expect(agentForModule("claude-code")).toBe("claude-code");
    expect(agentForModule("cursor-cli")).toBe("cursor");
    expect(agentForModule("code-server")).toBe("other");
    expect(agentForLegacyFolder("claude-module")).toBe("claude-code");
    expect(agentForLegacyFolder("goose-module")).toBe("goose");
    expect(agentDisplayName("codex")).toBe("Codex");
    expect(agentDisplayName("other")).toBe("Other");
  });

  it("matches globs", () => {
    expect(matchGlob("projects/**/*.jsonl", "projects/a/b.jsonl")).toBe(true);
    expect(matchGlob("projects/**/*.jsonl", "projects/a/b/c.jsonl")).toBe(true);
    expect(matchGlob("projects/**/*.jsonl", "other/b.jsonl")).toBe(false);
    expect(matchGlob("debug/**", "debug")).toBe(true);
    expect(matchGlob("debug/**", "debug/x/y")).toBe(true);
    expect(matchGlob("debug/**", "debugger")).toBe(false);
    expect(matchGlob("**/*.{db,sqlite}", "a/b.sqlite")).toBe(true);
    expect(matchGlob("**/*.{db,sqlite}", "x.db")).toBe(true);
  });

  it("categorises Claude Code's layout", () => {
    const rules = categoryRulesFor("tool", "claude-code");
    expect(categoryOf(rules, "projects/-w/abc.jsonl")).toBe("sessions");
    expect(categoryOf(rules, "debug/latest")).toBe("logs");
    expect(categoryOf(rules, "file-history/s/v1")).toBe("sessions");
    expect(categoryOf(rules, "shell-snapshots/x.sh")).toBe("caches");
    expect(categoryOf(rules, "settings.json")).toBe("other");
    const goose = categoryRulesFor("tool", "goose");
    for (const f of ["sessions/sessions.db", "sessions/sessions.db-wal", "sessions/sessions.db-shm"])
      expect(categoryOf(goose, f)).toBe("databases");
  });
});
