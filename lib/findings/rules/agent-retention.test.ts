import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { FLEET } from "@/lib/db/scope";
import { listFindings } from "@/lib/db/queries/findings";
import type { AgentRetention } from "@/lib/report-format/schema";
import { at, enroll, GiB, send, testNow, type RootSpec } from "@/tests/support/reports";

// The agent-retention finding over real ingested reports: what each agent keeps (its settings, or its default)
// against the bytes older than 30 days in its folder, and the 1 GiB threshold at its edge.

const now = testNow();
const older = (bytes90: number, bytesOlder = 0): RootSpec["ages"] => ({
  "7d": { bytes: GiB, files: 3 },
  "90d": { bytes: bytes90, files: 10 },
  ...(bytesOlder ? { older: { bytes: bytesOlder, files: 4 } } : {}),
});
const claude = (days: number): AgentRetention => ({
  "claude-code": { state: "set", source: ".claude/settings.json", cleanupPeriodDays: days },
});

type Case = { id: string; agent: string; ages: RootSpec["ages"]; retention?: AgentRetention };
const CASES: Case[] = [
  { id: "claude-90", agent: "claude-code", ages: older(4 * GiB, 2 * GiB), retention: claude(90) },
  { id: "claude-90-at-edge", agent: "claude-code", ages: older(GiB), retention: claude(90) },
  { id: "claude-90-below-edge", agent: "claude-code", ages: older(GiB - 1), retention: claude(90) },
  { id: "claude-30", agent: "claude-code", ages: older(6 * GiB), retention: claude(30) },
  {
    id: "claude-default",
    agent: "claude-code",
    ages: older(6 * GiB),
    retention: { "claude-code": { state: "absent" } },
  },
  {
    id: "claude-unreadable",
    agent: "claude-code",
    ages: older(6 * GiB),
    retention: { "claude-code": { state: "unreadable", source: ".claude/settings.json", reason: "not valid JSON" } },
  },
  { id: "claude-old-reporter", agent: "claude-code", ages: older(6 * GiB) },
  {
    id: "gemini-off",
    agent: "gemini",
    ages: older(2 * GiB),
    retention: { gemini: { state: "set", source: ".gemini/settings.json", enabled: false } },
  },
  {
    id: "gemini-2m",
    agent: "gemini",
    ages: older(2 * GiB),
    retention: { gemini: { state: "set", source: ".gemini/settings.json", maxAge: "2m" } },
  },
  { id: "gemini-default", agent: "gemini", ages: older(2 * GiB), retention: { gemini: { state: "absent" } } },
  { id: "codex-old-reporter", agent: "codex", ages: older(0, 3 * GiB) },
  { id: "goose", agent: "goose", ages: older(2 * GiB), retention: {} },
  {
    id: "opencode",
    agent: "opencode",
    ages: older(2 * GiB),
    retention: { opencode: { state: "set", snapshot: false } },
  },
];

describeEachDatabase("the agent-retention finding", (t) => {
  beforeAll(async () => {
    for (const c of CASES) {
      const ws = { id: c.id, owner: "olga" };
      await enroll(t.current.db, ws);
      const roots = [{ key: `${c.agent}:data`, agent: c.agent, bytes: 10 * GiB, ages: c.ages }];
      await send(t.current.db, ws, at(now, 0), roots, undefined, c.retention ? { agentRetention: c.retention } : {});
    }
  });

  it("fires where the agent keeps more than 30 days (or has no limit) and holds at least 1 GiB older", async () => {
    const l = await listFindings(t.current.db, FLEET, { now, rule: "agent-retention" });
    const found = Object.fromEntries(l.findings.map((f) => [f.workspace.id, f]));
    expect(Object.keys(found).sort()).toEqual([
      "claude-90",
      "claude-90-at-edge",
      "codex-old-reporter",
      "gemini-2m",
      "gemini-off",
      "goose",
      "opencode",
    ]);
    expect(found["claude-90"]).toMatchObject({
      severity: "info",
      rootKey: "claude-code:data",
      path: ".claude/settings.json",
      value: 6 * GiB,
      threshold: 90,
      message:
        "Claude Code keeps 90 days here (cleanupPeriodDays 90 in .claude/settings.json) and holds 6 GiB older than 30 days.",
    });
    expect(found["claude-90"].action).toContain("managed_settings");
    expect(found["claude-90"].action).toContain("registry.coder.com/coder/claude-code/coder");
    expect(found["gemini-2m"]).toMatchObject({
      threshold: 60,
      message:
        "Gemini CLI keeps 60 days here (general.sessionRetention.maxAge in .gemini/settings.json) and holds 2 GiB older than 30 days.",
    });
    expect(found["gemini-off"].message).toBe(
      "Gemini CLI keeps chats with no age limit here (general.sessionRetention.enabled false in .gemini/settings.json) and holds 2 GiB older than 30 days.",
    );
    expect(found["codex-old-reporter"]).toMatchObject({
      threshold: 0,
      message:
        "Codex keeps session rollouts with no age limit here (no retention: history.max_bytes caps history.jsonl only) and holds 3 GiB older than 30 days.",
    });
    expect(found["codex-old-reporter"].action).toContain("Codex rollouts recipe");
    expect(found.goose.message).toBe(
      "Goose keeps sessions with no age limit here (no retention) and holds 2 GiB older than 30 days.",
    );
    expect(found.goose.action).toContain("inside Goose");
    // Most old data first.
    expect(l.findings[0].workspace.id).toBe("claude-90");
  });
});
