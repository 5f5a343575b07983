import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { GROUP_MEMBERS_SHOWN } from "@/lib/findings/finding";
import { findingsQuery } from "@/lib/validations/findings";
import { MiB, seedScenario, send, session, testNow, at, enroll } from "@/tests/support/reports";
import { findingGroupRows, getFindingsSummary, listFindings, type FindingsParams } from "./findings";
import { FLEET } from "@/lib/db/scope";

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describeEachDatabase("findings rows", (t) => {
  const now = testNow();
  const wsE = { id: "ws-e", name: "echo", owner: "erin", template: "ai-dev" };
  const ORPHANS = GROUP_MEMBERS_SHOWN + 5;
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
    // Debug/file-history 3 times its sessions but 80 MiB over them, where ws-a's is 1.5 times and 300 MiB over:
    // ordered by how far over (value − threshold) ws-a came first, by how many times (value ÷ threshold) ws-e does.
    // And, as a workspace restarted many times has, 25 orphaned script-data folders, and three large Codex
    // sessions in two roots.
    await enroll(t.current.db, wsE);
    await send(t.current.db, wsE, at(now, 0), [
      {
        key: "claude-code:data",
        agent: "claude-code",
        bytes: 200 * MiB,
        categories: {
          sessions: { bytes: 40 * MiB, files: 1 },
          logs: { bytes: 120 * MiB, files: 1 },
          other: { bytes: 40 * MiB, files: 1 },
        },
      },
      ...Array.from({ length: ORPHANS }, (_, i) => ({
        key: `script-data:${String(i).padStart(4, "0")}`,
        kind: "script-data" as const,
        agent: "other",
        bytes: (i + 1) * MiB,
        orphaned: true,
        path: `coder-script-data/${i}`,
      })),
      {
        key: "codex:data",
        agent: "codex",
        bytes: 900 * MiB,
        largest: [session("sessions/2026/01/01/rollout-a.jsonl", 300 * MiB), session("sessions/b.jsonl", 250 * MiB)],
      },
      {
        key: "codex:archive",
        agent: "codex",
        bytes: 400 * MiB,
        largest: [session("archived_sessions/c.jsonl", 210 * MiB)],
      },
    ]);
  });

  it("makes one row of a workspace's identical findings, counted and summed, most urgent first", async () => {
    const rows = (await listFindings(t.current.db, FLEET, { now, workspace: "ws-e", limit: 500 })).findings;
    const orphans = rows.find((f) => f.ruleId === "orphaned-script-data")!;
    const sum = (ORPHANS * (ORPHANS + 1) * MiB) / 2;
    expect(orphans).toMatchObject({ count: ORPHANS, value: sum, rootKey: null, path: null, agent: "other" });
    expect(orphans.message).toBe(`${ORPHANS} orphaned script-data folders, 325 MiB in all.`);
    expect(orphans.members).toHaveLength(GROUP_MEMBERS_SHOWN);
    expect(orphans.members[0]).toEqual({ rootKey: "script-data:0024", path: "coder-script-data/24", value: 25 * MiB });
    const sessions = rows.find((f) => f.ruleId === "large-session")!;
    expect(sessions).toMatchObject({ count: 3, value: 760 * MiB, agent: "codex" });
    expect(sessions.message).toBe("3 sessions over 200 MiB, 760 MiB in all.");
    expect(sessions.members.map((m) => m.path)).toEqual([
      "sessions/2026/01/01/rollout-a.jsonl",
      "sessions/b.jsonl",
      "archived_sessions/c.jsonl",
    ]);
    expect(sessions.action).toContain("Codex");
    // Two Codex roots over their expected size: one row, at neither root.
    const oversize = rows.filter((f) => f.ruleId === "root-oversize");
    expect(oversize.map((f) => [f.agent, f.count, f.rootKey])).toEqual([["codex", 2, null]]);
    const counts = (await listFindings(t.current.db, FLEET, { now, workspace: "ws-e" })).counts!;
    expect(counts.byRule.find((r) => r.ruleId === "orphaned-script-data")).toMatchObject({
      count: ORPHANS,
      rows: 1,
    });
    expect(counts.total).toBe(rows.reduce((n, f) => n + f.count, 0));
    expect(counts.rows).toBe(rows.length);
  });

  it("gives the page, its next pages, the summary and the export the same rows in the same order", async () => {
    const db = t.current.db;
    const filters: FindingsParams[] = [{}, { rule: "claude-debug-history" }, { template: "ai-dev", severity: "info" }];
    for (const f of filters) {
      const exported = await collect(findingGroupRows(db, FLEET, { ...f, now }, { pageSize: 1 }));
      expect(exported.length).toBeGreaterThan(1);
      let cursor: FindingsParams["cursor"];
      const paged = [];
      do {
        const page = await listFindings(db, FLEET, { ...f, now, limit: 3, cursor });
        paged.push(...page.findings);
        cursor = page.nextCursor ? findingsQuery.parse({ cursor: page.nextCursor }).cursor : undefined;
      } while (cursor);
      expect(paged, JSON.stringify(f)).toEqual(exported);
    }
    const debug = await listFindings(db, FLEET, { rule: "claude-debug-history", now, limit: 1 });
    expect(debug.findings.map((f) => f.workspace.id)).toEqual(["ws-e"]);
    const all = await collect(findingGroupRows(db, FLEET, { now }));
    const summary = await getFindingsSummary(db, { now, top: 4 });
    expect(summary.top).toEqual(all.slice(0, 4));
    // The overview's counts are the findings page's with no filter.
    expect(summary).toMatchObject((await listFindings(db, FLEET, { now })).counts!);
    expect(summary.total).toBe(all.reduce((n, f) => n + f.count, 0));
  });

  it("refuses a cursor it did not write", () => {
    for (const bad of ["x", "[]", '["0","1","ws","no-such-rule",""]', '["a","1","ws","volume-full",""]']) {
      expect(findingsQuery.safeParse({ cursor: bad }).success, bad).toBe(false);
    }
    expect(findingsQuery.safeParse({ cursor: '["0","1e+15","ws","volume-full",""]' }).success).toBe(true);
  });
});
