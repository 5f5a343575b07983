import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { ingestReport } from "@/lib/ingest/report";
import { addDaysTo, utcDayOf } from "@/lib/series";
import { getFleetOverview } from "./queries/fleet";
import { updateRetention } from "@/lib/services/retention";
import { getHorizons } from "./queries/retention";
import { openPostgres } from "./open";
import { MAINTENANCE_LOCK } from "./advisory-locks";
import { runMaintenance } from "./maintenance-task";
import { listPartitions, partitionName } from "./partitions";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { at, dayAgo, enroll, makeReport, MiB, testNow } from "@/tests/support/reports";
import { count, dailyRoots, fleetLevels, rows } from "@/tests/support/rollups";

const now = testNow();
const ws = { id: "ws-ret", owner: "rita" };
const roots = (a: number, extra: { key: string; agent: string; bytes: number }[] = []) => [
  { key: "claude-code:data", agent: "claude-code", bytes: a * MiB },
  ...extra,
];
const snapshot = async (db: Parameters<typeof count>[0]) => ({
  latest: await rows(
    db,
    sql`select workspace_id, root_key, bytes::float8 as b, report_id::text from root_latest order by 1, 2`,
  ),
  workspaces: await rows(
    db,
    sql`select id, total_bytes::float8 as t, last_report_id::text as r, growth_bytes_per_day as g from workspaces order by id`,
  ),
  rootDaily: await count(db, "root_daily"),
  workspaceDaily: await count(db, "workspace_daily"),
  levels: await fleetLevels(db, utcDayOf(now)),
});

describeEachDatabase("maintenance: raw history", (t) => {
  it("stores a report whose day has no partition and moves it into the partition maintenance creates", async () => {
    const db = t.current.db;
    await enroll(db, ws);
    // The migration made partitions from today on: days before wait in the default partition.
    const r = makeReport(ws, at(now, 20), roots(10, [{ key: "codex:data", agent: "codex", bytes: 5 * MiB }]));
    expect(await ingestReport(db, ws.id, r)).toMatchObject({ status: "stored" });
    // Today's partition missing (dropped by hand) does not lose a report either.
    await db.execute(
      sql.raw(`drop table ${partitionName("reports", dayAgo(now, 0))}, ${partitionName("root_usage", dayAgo(now, 0))}`),
    );
    for (const n of [10, 5, 0]) await ingestReport(db, ws.id, makeReport(ws, at(now, n, 1), roots(30 - n)));
    expect(await count(db, "reports_default")).toBe(4);
    expect(await count(db, "reports")).toBe(4);

    const before = await snapshot(db);
    const result = await runMaintenance(t.current, { now });
    expect(result).toMatchObject({ ran: true, rawHorizon: `${dayAgo(now, 14)}T00:00:00.000Z` });
    // The days inside the window got their partitions with their rows; the day before the horizon expired.
    if (!result.ran) throw new Error("did not run");
    expect(result.partitionsCreated).toEqual(
      expect.arrayContaining([partitionName("reports", dayAgo(now, 10)), partitionName("root_usage", dayAgo(now, 0))]),
    );
    expect(await count(db, "reports_default")).toBe(0);
    expect(await count(db, partitionName("root_usage", dayAgo(now, 10)))).toBe(1);
    expect(await count(db, "reports")).toBe(3);
    expect(await count(db, "root_usage")).toBe(3);
    // Roll-ups, latest and summary are untouched by expiring raw history.
    expect(await snapshot(db)).toEqual(before);
    const days = (await listPartitions(db))
      .filter((p) => p.table === "reports")
      .map((p) => p.day)
      .sort();
    expect(days.at(-1)).toBe(addDaysTo(utcDayOf(now), 7));
  });

  it("drops whole day partitions as days pass the retention, and nothing inside the window", async () => {
    const db = t.current.db;
    const before = await snapshot(db);
    const later = new Date(now.getTime() + 6 * 86_400_000);
    const result = await runMaintenance(t.current, { now: later });
    if (!result.ran) throw new Error("did not run");
    // Horizon moved to today - 8: the partition of today - 10 is dropped, today - 5 and today stay.
    expect(result.partitionsDropped).toContain(partitionName("root_usage", dayAgo(now, 10)));
    expect(result.partitionsDropped).not.toContain(partitionName("root_usage", dayAgo(now, 5)));
    expect(result.deleted.raw_default_partitions).toBe(0);
    expect(await count(db, "reports")).toBe(2);
    expect(await snapshot(db)).toEqual(before);
  });

  it("refuses a report older than the expired raw history, and places a late one whose predecessor expired", async () => {
    const db = t.current.db;
    const { raw } = await getHorizons(db);
    expect(raw).toBe(`${dayAgo(now, 8)}T00:00:00.000Z`);
    const old = makeReport(ws, at(now, 9), roots(99));
    await expect(ingestReport(db, ws.id, old)).rejects.toMatchObject({ status: 422, code: "too_old" });
    expect(await count(db, "reports")).toBe(2);

    // Stored: D20 (claude 10, codex 5; raw expired), D10 (20; expired), D5 (25), D0 (30). A late report on D7
    // replaces D10's roots, which only root_daily still knows.
    const late = makeReport(ws, at(now, 7), roots(23, [{ key: "gemini:data", agent: "gemini", bytes: 2 * MiB }]));
    expect(await ingestReport(db, ws.id, late)).toMatchObject({ status: "stored", newest: false });
    expect(await fleetLevels(db, dayAgo(now, 7))).toEqual({
      "claude-code": { bytes: 23 * MiB, roots: 1 },
      gemini: { bytes: 2 * MiB, roots: 1 },
    });
    // The next report (D5) has no gemini: its level ends there, in the fleet roll-up and in root_daily.
    expect(await fleetLevels(db, dayAgo(now, 5))).toEqual({ "claude-code": { bytes: 25 * MiB, roots: 1 } });
    expect(await dailyRoots(db, ws.id, dayAgo(now, 5))).toEqual({ "claude-code:data": 25 * MiB, "gemini:data": 0 });
    expect(await fleetLevels(db, dayAgo(now, 0))).toEqual({ "claude-code": { bytes: 30 * MiB, roots: 1 } });
  });
});

describeEachDatabase("maintenance: roll-ups", (t) => {
  it("expires roll-ups past their retention, folding the fleet's changes into a baseline; charts start at the horizon", async () => {
    const db = t.current.db;
    await enroll(db, ws);
    for (const [n, a, codex] of [
      [60, 10, 4],
      [50, 12, 4],
      [40, 15, 0],
      [3, 20, 6],
    ] as const) {
      const extra = codex ? [{ key: "codex:data", agent: "codex", bytes: codex * MiB }] : [];
      await ingestReport(db, ws.id, makeReport(ws, at(now, n), roots(a, extra)));
    }
    const levels = async () =>
      Object.fromEntries(
        await Promise.all([45, 44, 40, 3, 0].map(async (n) => [n, await fleetLevels(db, dayAgo(now, n))] as const)),
      );
    const before = await levels();
    const latest = await rows(db, sql`select * from root_latest order by root_key`);
    await updateRetention({ db, who: TEST_WHO }, { rollups: 45 });
    const result = await runMaintenance(t.current, { now });
    expect(result).toMatchObject({ ran: true, rollupHorizon: dayAgo(now, 45) });
    expect(await levels()).toEqual(before);
    expect(await rows(db, sql`select * from root_latest order by root_key`)).toEqual(latest);
    const oldest = await rows<{ day: string }>(db, sql`select min(day)::text as day from root_daily`);
    expect(oldest[0].day).toBe(dayAgo(now, 40));
    // One baseline row per agent, kind and shard, on the day before the horizon.
    const early = await rows<{ day: string }>(
      db,
      sql`select distinct day::text as day from fleet_delta where day < ${dayAgo(now, 40)}::date`,
    );
    expect(early).toEqual([{ day: dayAgo(now, 46) }]);
    const overview = await getFleetOverview(db, { range: "90d", now });
    expect(overview.range.from).toBe(dayAgo(now, 45));
    expect(overview.series.points[0]).toMatchObject({ day: dayAgo(now, 45), total: 16 * MiB });
  });

  it("keeps the roll-ups longer than raw history", async () => {
    await expect(updateRetention({ db: t.current.db, who: TEST_WHO }, { raw: 60 })).rejects.toMatchObject({
      status: 422,
    });
  });
});

describeEachDatabase("maintenance: lock and registry", (t) => {
  it("deletes expired rows of the registry's tables and skips tables that do not exist", async () => {
    const db = t.current.db;
    await db.execute(sql`create table test_results (id int, finished_at timestamptz)`);
    await db.execute(
      sql`insert into test_results values (1, ${at(now, 40)}::timestamptz), (2, ${at(now, 2)}::timestamptz)`,
    );
    const settings = [
      {
        id: "test",
        label: "Test results",
        key: "retention.test_days",
        defaultDays: 30,
        minDays: 1,
        maxDays: 99,
        table: "test_results",
        timeColumn: "finished_at",
      },
      {
        id: "gone",
        label: "Missing",
        key: "retention.gone_days",
        defaultDays: 30,
        minDays: 1,
        maxDays: 99,
        table: "no_such_table",
        timeColumn: "at",
      },
    ];
    const result = await runMaintenance(t.current, { now, settings });
    expect(result).toMatchObject({ ran: true, deleted: { test_results: 1 } });
    expect(await rows(db, sql`select id from test_results`)).toEqual([{ id: 2 }]);
  });

  it("expires audit entries past the audit retention, though the log refuses every other delete", async () => {
    const db = t.current.db;
    await db.execute(sql`insert into audit_log (at, actor_type, actor_label, action) values
      (${at(now, 400)}::timestamptz, 'system', 'test', 'test.old'), (${at(now, 3)}::timestamptz, 'system', 'test', 'test.young')`);
    const refused = await db.execute(sql`delete from audit_log where action = 'test.young'`).then(
      () => "deleted",
      (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ""}`,
    );
    expect(refused).toMatch(/append-only/);
    const result = await runMaintenance(t.current, { now });
    expect(result).toMatchObject({ ran: true, deleted: { audit_log: 1 } });
    expect(await rows(db, sql`select action from audit_log where action like 'test.%'`)).toEqual([
      { action: "test.young" },
    ]);
  });

  it("deletes owners' notices older than the notifications retention (90 days), and keeps the younger", async () => {
    const db = t.current.db;
    const notice = JSON.stringify({ workspace: { id: "ws-n", name: "n", owner: "rita" } });
    await db.execute(sql`insert into notification_outbox (channel, kind, workspace_id, owner, notice, status,
        created_at, next_attempt_at) values
      ('email', 'full', 'ws-n', 'rita', ${notice}::jsonb, 'sent', ${at(now, 91)}::timestamptz, ${at(now, 91)}::timestamptz),
      ('email', 'filling', 'ws-n', 'rita', ${notice}::jsonb, 'sent', ${at(now, 89)}::timestamptz, ${at(now, 89)}::timestamptz)`);
    const result = await runMaintenance(t.current, { now });
    expect(result).toMatchObject({ ran: true, deleted: { notification_outbox: 1 } });
    expect(await rows(db, sql`select kind from notification_outbox where workspace_id = 'ws-n'`)).toEqual([
      { kind: "filling" },
    ]);
  });

  it("runs in one instance at a time: a second one skips while the first holds the lock", async () => {
    if (t.url) {
      // Two app instances: two pools on the same database.
      const second = await openPostgres(t.url, 2);
      try {
        await t.current.session(async (db) => {
          await db.execute(sql`select pg_advisory_lock(${MAINTENANCE_LOCK})`);
          try {
            expect(await runMaintenance(second, { now })).toEqual({
              ran: false,
              reason: "another instance is running it",
            });
          } finally {
            await db.execute(sql`select pg_advisory_unlock(${MAINTENANCE_LOCK})`);
          }
        });
        const both = await Promise.all([runMaintenance(t.current, { now }), runMaintenance(second, { now })]);
        // Both may run one after the other, never together: each run records its own start and duration.
        const ran = both.filter((r) => r.ran);
        expect(ran.length).toBeGreaterThanOrEqual(1);
        expect(await runMaintenance(second, { now })).toMatchObject({ ran: true });
      } finally {
        await second.close();
      }
    } else {
      // One process holds the embedded database: a second run while one is under way is skipped.
      const both = await Promise.all([runMaintenance(t.current, { now }), runMaintenance(t.current, { now })]);
      expect(both.map((r) => r.ran).sort()).toEqual([false, true]);
    }
  });
});
