import "server-only";
import { sql } from "drizzle-orm";
import { addDaysTo, eachDay, utcDayOf, type Day } from "@/lib/series";
import { RETENTION_SETTINGS, type RetentionSetting } from "@/lib/validations/settings";
import { MAINTENANCE_LOCK } from "./advisory-locks";
import type { Database } from "./open";
import { ensurePartitions, expirePartitions } from "./partitions";
import { getRules } from "./queries/findings";
import { getSetting } from "./queries/settings";
import { rewriteKeptRules } from "./queries/kept-findings";
import { rewriteFleetGrowth } from "./queries/root-growth";
import { rewriteFleetSeries } from "./queries/workspace-series";
import { keepChangeBases } from "./queries/change-7d";
import { advanceHorizon, getRetention, HORIZON_KEYS } from "./queries/retention";
import { settings } from "./schema";
import { tryAdvisoryLock } from "./try-lock";
import { rowsOf, type Db } from "./types";

/** Partitions are created this many days ahead, so a missed run or two never leaves a day without one. */
export const PARTITION_DAYS_AHEAD = 7;
const LAST_RUN_KEY = "maintenance.last_run";

export type MaintenanceResult =
  | { ran: false; reason: string }
  | {
      ran: true;
      at: string;
      ms: number;
      partitionsCreated: string[];
      partitionsDropped: string[];
      /** Raw reports collected before this instant are expired. */
      rawHorizon: string;
      /** Daily roll-ups before this day are expired (folded into the fleet baseline). */
      rollupHorizon: Day;
      /** Rows deleted per table (default partitions, roll-ups, registry tables). */
      deleted: Record<string, number>;
    };

export type MaintenanceOptions = { now?: Date; settings?: readonly RetentionSetting[] };

// The embedded database is one session for the whole process: its advisory locks are re-entrant, so a second
// run in the same process is kept out here.
const running = new WeakSet<object>();

/**
 * Enforces retention and keeps the raw history's partitions: creates the days ahead (and days whose rows wait
 * in a default partition), expires raw history and roll-ups past their settings, and deletes expired rows of
 * the registry's tables. Skips (ran: false) when another instance holds the lock.
 */
export async function runMaintenance(database: Database, opts: MaintenanceOptions = {}): Promise<MaintenanceResult> {
  if (running.has(database)) return { ran: false, reason: "already running in this process" };
  running.add(database);
  try {
    return await database.session(async (db) => {
      if (!(await tryAdvisoryLock(db, MAINTENANCE_LOCK, "session")))
        return { ran: false, reason: "another instance is running it" };
      try {
        const result = await maintain(db, opts);
        if (database.kind === "embedded")
          await db.execute(sql`vacuum (analyze) root_daily, workspace_daily, fleet_delta`);
        await db
          .insert(settings)
          .values({ key: LAST_RUN_KEY, value: JSON.stringify(result) })
          .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
        return result;
      } finally {
        await db.execute(sql`select pg_advisory_unlock(${MAINTENANCE_LOCK})`);
      }
    });
  } finally {
    running.delete(database);
  }
}

async function maintain(db: Db, opts: MaintenanceOptions): Promise<MaintenanceResult & { ran: true }> {
  const started = performance.now();
  const now = opts.now ?? new Date();
  const today = utcDayOf(now);
  const days = await getRetention(db);

  // Raw history: the horizon is recorded first, so ingest refuses what is about to go rather than store it in
  // a partition being dropped. Whole days: a day's raw history is either complete or gone.
  const rawHorizon = await advanceHorizon(
    db,
    HORIZON_KEYS.raw,
    `${addDaysTo(today, -days.raw)}T00:00:00.000Z`,
    "timestamptz",
  );
  const rawHorizonDay = utcDayOf(new Date(rawHorizon));
  const created = await ensurePartitions(db, eachDay(today, addDaysTo(today, PARTITION_DAYS_AHEAD)), rawHorizonDay);
  const expired = await expirePartitions(db, rawHorizonDay);
  const deleted: Record<string, number> = { raw_default_partitions: expired.defaultRows };

  const rollupHorizon = (await advanceHorizon(
    db,
    HORIZON_KEYS.rollups,
    addDaysTo(today, -days.rollups),
    "date",
  )) as Day;
  Object.assign(deleted, await expireRollups(db, rollupHorizon, now));

  for (const s of opts.settings ?? RETENTION_SETTINGS) {
    const r = s as RetentionSetting;
    if (!r.table || !r.timeColumn) continue;
    const keep = (days as Record<string, number>)[r.id] ?? r.defaultDays;
    const n = await expireTable(db, r.table, r.timeColumn, new Date(now.getTime() - keep * 86_400_000));
    if (n !== null) deleted[r.table] = n;
  }
  // The kept aggregates, rewritten whole: what an instance of another version wrote during a rolling upgrade
  // (by its rules, or none at all) lasts an hour at most, and the growth moves to the day 7 days before this one
  // for every workspace, reporting or not, and forgets the roll-ups just expired.
  const rules = await getRules(db);
  await db.transaction((tx) => rewriteKeptRules(tx, rules));
  await db.transaction((tx) => rewriteFleetGrowth(tx, now));
  await db.transaction((tx) => rewriteFleetSeries(tx));
  return {
    ran: true,
    at: now.toISOString(),
    ms: Math.round(performance.now() - started),
    partitionsCreated: created,
    partitionsDropped: expired.dropped,
    rawHorizon,
    rollupHorizon,
    deleted,
  };
}

// The deletes below stay SQL through db.execute: each counts its rows in the database (a roll-up table's expiry
// may be millions of rows, which `returning` through the query builder would carry to the app), and the registry
// tables' expiry names its table and column at run time.

/**
 * Deletes daily roll-ups before `horizon`. The fleet roll-up is a series of changes whose running sum is the
 * level: the expired changes are folded into one baseline row per (agent, kind, shard) on the day before the
 * horizon, so every level from that day on (and the sum of all rows, the level now) stays exactly right.
 * The 7-day change's kept bases are rewritten in the same transaction.
 */
async function expireRollups(db: Db, horizon: Day, now: Date): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const count = async (q: ReturnType<typeof sql>) => Number(rowsOf<{ n: number }>(await tx.execute(q))[0].n);
    const rootDaily = await count(sql`with gone as (delete from root_daily where day < ${horizon}::date returning 1)
      select count(*)::int as n from gone`);
    const workspaceDaily =
      await count(sql`with gone as (delete from workspace_daily where day < ${horizon}::date returning 1)
      select count(*)::int as n from gone`);
    const fleet = await count(sql`with gone as (delete from fleet_delta where day < ${horizon}::date
        returning agent, kind, shard, bytes, roots),
      baseline as (insert into fleet_delta (day, agent, kind, shard, bytes, roots)
        select ${horizon}::date - 1, agent, kind, shard, sum(bytes)::bigint, sum(roots)::int from gone
        group by agent, kind, shard having sum(bytes) <> 0 or sum(roots) <> 0 order by agent, kind, shard
        returning 1)
      select (select count(*) from gone)::int - (select count(*) from baseline)::int as n`);
    // The 7-day change's kept bases, moved to today's day, with the expiry that may remove a day they were read
    // from: no page reads a base of a day just deleted.
    await keepChangeBases(tx, now);
    return { root_daily: rootDaily, workspace_daily: workspaceDaily, fleet_delta: fleet };
  });
}

/** Deletes a registry table's rows older than `before`; null when the table or column does not exist. */
async function expireTable(db: Db, table: string, column: string, before: Date): Promise<number | null> {
  const [found] = rowsOf<{ ok: boolean }>(
    await db.execute(sql`select exists (select 1 from information_schema.columns where table_schema = current_schema()
      and table_name = ${table} and column_name = ${column}) as ok`),
  );
  if (!found.ok) return null;
  // The audit log refuses deletes (a trigger) except inside a transaction that declares itself the expiry.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('storage.expiring', 'on', true)`);
    const rows = rowsOf<{ n: number }>(
      await tx.execute(sql`with gone as (delete from ${sql.identifier(table)} where ${sql.identifier(column)} < ${before.toISOString()}::timestamptz
        returning 1) select count(*)::int as n from gone`),
    );
    return Number(rows[0].n);
  });
}

/** The last run's result, as the settings page shows it. */
export async function lastMaintenance(db: Db): Promise<MaintenanceResult | null> {
  const value = await getSetting(db, LAST_RUN_KEY);
  return value === null ? null : (JSON.parse(value) as MaintenanceResult);
}
