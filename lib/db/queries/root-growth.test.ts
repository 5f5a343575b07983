import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { runMaintenance } from "@/lib/db/maintenance-task";
import { describeEachDatabase } from "@/tests/support/db";
import { rowsOf, type Db } from "@/lib/db/types";
import type { Day } from "@/lib/series";
import { at, MiB, seedScenario, send, testNow, WS_A, WS_B } from "@/tests/support/reports";
import { fastestGrowingRoots } from "./fleet-lists";
import { agentRows, grownRoots, growthSinceDay } from "./root-growth";

// The kept growth (root_growth_days) and agent rows (workspace_agents) against the same rows computed from root_daily
// and root_latest, the very queries the overview and the agent page would otherwise run: after newest and late
// reports, a deleted workspace and maintenance on a later day. And the overview reads it: a kept row shows, a
// workspace kept for another day is computed.

const cols = sql`workspace_id, root_key, agent, kind, bytes::float8 as bytes, bytes_before::float8 as bytes_before,
  growth::float8 as growth, latest_day`;
const asText = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();

async function keptAndLive(db: Db, day: Day) {
  const kept = asText(
    rowsOf(
      await db.execute(sql`select ${cols} from (select k.workspace_id, r.* from root_growth_days k
        cross join lateral jsonb_to_recordset(k.grown) as r(root_key text, agent text, kind text, bytes bigint,
          bytes_before bigint, growth bigint, latest_day text)
        where k.since_day = ${day}::date) g`),
    ),
  );
  const live = asText(rowsOf(await db.execute(sql`select ${cols} from (${grownRoots(day)}) g`)));
  const agentCols = sql`workspace_id, agent, kind, bytes::float8 as bytes, roots, old_bytes, aged_bytes,
    measured_bytes::float8 as measured_bytes, bytes_before::float8 as bytes_before,
    to_char(measured_day, 'YYYY-MM-DD') as measured_day`;
  const keptAgents = asText(rowsOf(await db.execute(sql`select ${agentCols} from workspace_agents`)));
  const liveAgents = asText(rowsOf(await db.execute(sql`select ${agentCols} from (${agentRows(day)}) a`)));
  const liveSubset = asText(
    rowsOf(
      await db.execute(
        sql`select ${agentCols} from (${agentRows(day, sql`l.workspace_id in (select id from workspaces)`)}) a`,
      ),
    ),
  );
  const unmarked = rowsOf<{ id: string }>(
    await db.execute(sql`select w.id from workspaces w where w.last_collected_at is not null and not exists
      (select 1 from root_growth_days g where g.workspace_id = w.id and g.since_day = ${day}::date)`),
  );
  return { kept, live, keptAgents, liveAgents, liveSubset, unmarked: unmarked.map((r) => r.id) };
}

describeEachDatabase("kept root growth", (t) => {
  const now = testNow();
  const day = growthSinceDay(now);
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
  });

  it("equals the growth computed since the day 7 days ago, after newest and late reports", async () => {
    const db = t.current.db;
    const first = await keptAndLive(db, day);
    expect(first.kept.length).toBeGreaterThanOrEqual(2);
    expect(first.kept).toEqual(first.live);
    expect(first.keptAgents.length).toBeGreaterThanOrEqual(4);
    expect(first.keptAgents).toEqual(first.liveAgents);
    expect(first.liveSubset).toEqual(first.liveAgents);
    expect(first.unmarked).toEqual([]);

    // A late report of ws-b on the day 7 days ago changes the value the growth is measured from.
    await send(db, WS_B, at(now, 7, 20), [
      { key: "gemini:data", agent: "gemini", bytes: 50 * MiB },
      { key: "acme/tool", kind: "module", agent: "other", bytes: 1 * MiB },
    ]);
    // ws-a's newest report shrinks its Claude data below the value of 7 days ago.
    await send(db, WS_A, at(now, 0, 14), [{ key: "claude-code:data", agent: "claude-code", bytes: 1 * MiB }]);
    const after = await keptAndLive(db, day);
    expect(after.kept).toEqual(after.live);
    expect(after.keptAgents).toEqual(after.liveAgents);
    expect(after.keptAgents).not.toEqual(first.keptAgents);
    expect(after.kept.some((r) => r.includes('"workspace_id":"ws-a"'))).toBe(false);
    expect(after.kept.find((r) => r.includes("gemini:data"))).toContain(`"bytes_before":${50 * MiB}`);
  });

  it("is what the overview reads, and a workspace kept for another day is computed", async () => {
    const db = t.current.db;
    const before = await fastestGrowingRoots(db, day, 10);
    expect(before.map((r) => `${r.workspace.id} ${r.rootKey}`)).toEqual(["ws-b gemini:data"]);
    // A kept row that the roll-ups would not give: the list shows it.
    const planted = { root_key: "planted", agent: "codex", kind: "tool", bytes: 9000 * MiB, bytes_before: MiB };
    const kept = sql`(select grown from root_growth_days where workspace_id = 'ws-b')`;
    await db.execute(sql`update root_growth_days set top_growth = ${8999 * MiB}, grown = jsonb_build_array(
        ${JSON.stringify({ ...planted, growth: 8999 * MiB, latest_day: day })}::jsonb) || grown
      where workspace_id = 'ws-b'`);
    expect(rowsOf(await db.execute(sql`select jsonb_array_length(${kept}) as n`))[0]).toEqual({ n: 2 });
    expect((await fastestGrowingRoots(db, day, 10)).map((r) => r.rootKey)).toEqual(["planted", "gemini:data"]);
    // ws-b kept for another day: computed, the planted row is not read.
    await db.execute(sql`update root_growth_days set since_day = since_day - 1 where workspace_id = 'ws-b'`);
    expect(await fastestGrowingRoots(db, day, 10)).toEqual(before);
    await db.execute(sql`update root_growth_days set since_day = since_day + 1, grown = grown - 0,
        top_growth = (grown -> 1 ->> 'growth')::bigint where workspace_id = 'ws-b'`);
    expect(await fastestGrowingRoots(db, day, 10)).toEqual(before);
  });

  it("leaves a deleted workspace out, and moves with maintenance to a later day", async () => {
    const db = t.current.db;
    await db.execute(sql`update workspaces set deleted_at = now() where id = 'ws-b'`);
    expect(await fastestGrowingRoots(db, day, 10)).toEqual([]);
    await db.execute(sql`update workspaces set deleted_at = null where id = 'ws-b'`);
    const later = new Date(now.getTime() + 3 * 86_400_000);
    await runMaintenance(t.current, { now: later });
    const moved = await keptAndLive(db, growthSinceDay(later));
    expect(moved.unmarked).toEqual([]);
    expect(moved.kept).toEqual(moved.live);
    expect(moved.keptAgents).toEqual(moved.liveAgents);
  });
});
