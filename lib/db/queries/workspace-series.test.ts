import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { runMaintenance } from "@/lib/db/maintenance-task";
import { describeEachDatabase } from "@/tests/support/db";
import { rowsOf, type Db } from "@/lib/db/types";
import { at, MiB, seedScenario, send, testNow, WS_B } from "@/tests/support/reports";
import { getFleetOverview } from "./fleet";
import { topAgents } from "./fleet-lists";
import { rewriteStaleFleetSeries, seriesKeySql } from "./workspace-series";

// The kept series of each workspace against the same sums over root_latest: after newest and late reports, a
// root that goes away, a deleted workspace and retention; the overview reads them while their signature is this
// code's, and sums root_latest otherwise.

async function keptAndLive(db: Db) {
  const text = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();
  const kept = text(
    rowsOf(await db.execute(sql`select workspace_id, key, bytes::float8 as bytes, roots from workspace_series`)),
  );
  const live = text(
    rowsOf(
      await db.execute(sql`select workspace_id, ${seriesKeySql} as key, sum(bytes)::float8 as bytes,
        count(*)::int as roots from root_latest group by 1, 2`),
    ),
  );
  return { kept, live };
}

describeEachDatabase("kept workspace series", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
  });

  it("equal the sums of the latest roots after newest and late reports", async () => {
    const db = t.current.db;
    const first = await keptAndLive(db);
    expect(first.kept.length).toBeGreaterThanOrEqual(6);
    expect(first.kept).toEqual(first.live);
    await send(db, WS_B, at(now, 0, 15), [{ key: "gemini:data", agent: "gemini", bytes: 900 * MiB }]);
    await send(db, WS_B, at(now, 5), [{ key: "codex:data", agent: "codex", bytes: 5 * MiB }]);
    const after = await keptAndLive(db);
    expect(after.kept).toEqual(after.live);
    expect(after.kept.some((r) => r.includes('"workspace_id":"ws-b","key":"modules"'))).toBe(false);
  });

  it("are what the overview reads while this code wrote them, and root_latest is summed otherwise", async () => {
    const db = t.current.db;
    const before = await topAgents(db, 10);
    const gemini = before.find((a) => a.agent === "gemini")!;
    expect(gemini).toEqual({ agent: "gemini", bytes: 900 * MiB, workspaces: 1, roots: 1 });
    await db.execute(sql`update workspace_series set bytes = bytes + 1 where key = 'gemini'`);
    expect((await topAgents(db, 10)).find((a) => a.agent === "gemini")!.bytes).toBe(900 * MiB + 1);
    // Rows another version wrote: summed from root_latest until start rewrites them.
    await db.execute(sql`update settings set value = 'another version' where key = 'kept.workspace_series'`);
    expect(await topAgents(db, 10)).toEqual(before);
    expect(await rewriteStaleFleetSeries(db)).toBe(true);
    expect(await rewriteStaleFleetSeries(db)).toBe(false);
    expect(await topAgents(db, 10)).toEqual(before);
    const o = await getFleetOverview(db, { now });
    const level = o.series.points.at(-1)!;
    expect(level.total).toBe(before.reduce((s, a) => s + a.bytes, 0));
  });

  it("leave a deleted workspace out of the overview, and stay equal through retention", async () => {
    const db = t.current.db;
    const before = await topAgents(db, 10);
    await db.execute(sql`update workspaces set deleted_at = ${now.toISOString()}::timestamptz where id = 'ws-b'`);
    const gone = await topAgents(db, 10);
    // ws-b alone holds Gemini's data: its series goes with it.
    expect(gone.find((a) => a.agent === "gemini")).toBeUndefined();
    expect(gone.reduce((s, a) => s + a.bytes, 0)).toBeLessThan(before.reduce((s, a) => s + a.bytes, 0));
    await runMaintenance(t.current, { now: new Date(now.getTime() + 400 * 86_400_000) });
    const r = await keptAndLive(db);
    expect(r.kept).toEqual(r.live);
    expect(await topAgents(db, 10)).toEqual(gone);
  });
});
