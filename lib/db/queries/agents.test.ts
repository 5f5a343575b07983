import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { getAgentDetail } from "./agents";
import { dayAgo, MiB, seedScenario, testNow } from "@/tests/support/reports";

describeEachDatabase("getAgentDetail", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
  });

  it("totals, series, kinds and largest workspaces of one agent", async () => {
    const a = (await getAgentDetail(t.current.db, "claude-code", { range: "7d", now }))!;
    expect(a.hasData).toBe(true);
    expect(a.total).toEqual({ bytes: 1537 * MiB, workspaces: 2, roots: 2 });
    expect(a.series.map((p) => [p.day, p.bytes / MiB, p.roots])).toEqual([
      ...[6, 5, 4, 3, 2].map((n) => [dayAgo(now, n), 300, 1]),
      [dayAgo(now, 1), 301, 2],
      [dayAgo(now, 0), 1537, 2],
    ]);
    expect(a.byKind).toEqual([
      { kind: "tool", bytes: 1536 * MiB, roots: 1 },
      { kind: "leftover", bytes: 1 * MiB, roots: 1 },
    ]);
    expect(a.largestWorkspaces).toEqual([
      { id: "ws-a", name: "alpha", owner: "alice", bytes: 1536 * MiB, roots: 1 },
      { id: "ws-b", name: "bravo", owner: "bob", bytes: 1 * MiB, roots: 1 },
    ]);
  });

  it("bins workspaces on a log scale and measures growth and old data", async () => {
    const a = (await getAgentDetail(t.current.db, "claude-code", { now }))!;
    expect(a.distribution.map((b) => b.count)).toEqual([0, 1, 0, 0, 0, 0, 1, 0, 0, 0]);
    expect(a.distribution[6]).toEqual({ minBytes: 1024 * MiB, maxBytes: 4096 * MiB, count: 1 });
    expect(a.growth).toEqual({ medianBytesPerDay: (1236 * MiB) / 7, workspacesMeasured: 1, sinceDay: dayAgo(now, 7) });
    expect(a.oldData).toEqual({ bytes: 300 * MiB, agedBytes: 1536 * MiB, share: 300 / 1536 });
    const g = (await getAgentDetail(t.current.db, "gemini", { now }))!;
    expect(g.growth.medianBytesPerDay).toBe((400 * MiB) / 6);
    expect(g.oldData).toEqual({ bytes: 0, agedBytes: 0, share: null });
  });

  it("reads the same from the kept rows as computed at the request (a workspace kept for another day)", async () => {
    const db = t.current.db;
    const kept = await Promise.all(["claude-code", "gemini", "other"].map((a) => getAgentDetail(db, a, { now })));
    const planted = `insert into workspace_agents (workspace_id, agent, kind, bytes, roots, old_bytes, aged_bytes)
      values ('ws-a', 'claude-code', 'planted', ${9000 * MiB}, 1, 0, 0)`;
    await db.execute(sql.raw(planted));
    // a kept row is what the page reads
    expect((await getAgentDetail(db, "claude-code", { now }))!.byKind.map((k) => k.kind)).toContain("planted");
    await db.execute(sql`update root_growth_days set since_day = since_day - 1`);
    try {
      expect(await Promise.all(["claude-code", "gemini", "other"].map((a) => getAgentDetail(db, a, { now })))).toEqual(
        kept,
      );
    } finally {
      await db.execute(sql`update root_growth_days set since_day = since_day + 1`);
      await db.execute(sql`delete from workspace_agents where kind = 'planted'`);
    }
  });

  it("keeps an agent whose roots are gone in the series", async () => {
    const c = (await getAgentDetail(t.current.db, "codex", { range: "7d", now }))!;
    expect(c.total).toEqual({ bytes: 0, workspaces: 0, roots: 0 });
    expect(c.hasData).toBe(true);
    expect(c.series.map((p) => p.bytes / MiB)).toEqual([20, 20, 20, 20, 20, 20, 0]);
  });

  it("answers a known agent without data with hasData false, an unknown one with null", async () => {
    const amp = (await getAgentDetail(t.current.db, "amp", { range: "7d", now }))!;
    expect(amp).toMatchObject({ hasData: false, total: { bytes: 0, workspaces: 0, roots: 0 } });
    expect(amp.series).toHaveLength(7);
    expect(amp.growth.medianBytesPerDay).toBeNull();
    expect(await getAgentDetail(t.current.db, "no-such-agent", { now })).toBeNull();
  });
});
