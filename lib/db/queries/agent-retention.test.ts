import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { FLEET } from "@/lib/db/scope";
import type { AgentRetention } from "@/lib/report-format/schema";
import { at, enroll, GiB, send, testNow } from "@/tests/support/reports";
import { getAgentDetail } from "./agents";
import { getWorkspaceDetail } from "./workspace-detail";

// What the agent page and the workspace page read of the agents' own retention, from ingested reports.

const now = testNow();
const set90: AgentRetention = {
  "claude-code": { state: "set", source: ".claude/settings.json", cleanupPeriodDays: 90 },
  codex: { state: "set", source: ".codex/config.toml", historyMaxBytes: 1024 },
};
const WORKSPACES: { id: string; retention?: AgentRetention }[] = [
  { id: "r-90-a", retention: set90 },
  { id: "r-90-b", retention: set90 },
  { id: "r-default", retention: { "claude-code": { state: "absent" } } },
  { id: "r-old-reporter" },
];

describeEachDatabase("the agents' own retention on the pages", (t) => {
  beforeAll(async () => {
    for (const w of WORKSPACES) {
      const ws = { id: w.id, owner: "otto" };
      await enroll(t.current.db, ws);
      const ages = { "30d": { bytes: GiB, files: 2 }, older: { bytes: 2 * GiB, files: 3 } };
      const roots = [{ key: "claude-code:data", agent: "claude-code", bytes: 3 * GiB, ages }];
      await send(t.current.db, ws, at(now, 0), roots, undefined, w.retention ? { agentRetention: w.retention } : {});
    }
  });

  it("groups the fleet's settings on the agent page, most common first, with their old data", async () => {
    const detail = await getAgentDetail(t.current.db, "claude-code", { now });
    expect(detail!.retention).toEqual([
      { text: "keeps 90 days (cleanupPeriodDays 90)", known: true, workspaces: 2, olderBytes: 4 * GiB },
      {
        text: "keeps 30 days (cleanupPeriodDays not set: default 30)",
        known: true,
        workspaces: 1,
        olderBytes: 2 * GiB,
      },
      {
        text: "unknown (not reported by this workspace's reporter)",
        known: false,
        workspaces: 1,
        olderBytes: 2 * GiB,
      },
    ]);
    expect((await getAgentDetail(t.current.db, "copilot", { now }))!.retention).toEqual([]);
  });

  it("gives the workspace page the newest report's settings", async () => {
    const detail = await getWorkspaceDetail(t.current.db, FLEET, "r-90-a", { now });
    expect(detail!.workspace.agentRetention).toEqual(set90);
    expect((await getWorkspaceDetail(t.current.db, FLEET, "r-old-reporter", { now }))!.workspace.agentRetention).toBe(
      null,
    );
  });
});
