import "server-only";
import { sql } from "drizzle-orm";
import { addDaysTo, eachDay, type Day } from "@/lib/series";
import type { UsageDimension } from "@/lib/validations/usage";
import { inScope, type WorkspaceScope } from "../scope";
import { rowsOf, type Db } from "../types";
import { jobKeys, usageUnits } from "./usage-units";

/** One dimension value's storage over a range, from the daily roll-ups (docs/usage.md says how each is counted). */
export type UsageFigures = {
  /** The dimension value: an organization's or group's id, an owner, a template, an agent; '' for none. */
  key: string;
  /** Byte-days ÷ the range's days. */
  avgBytes: number;
  /** The largest day's bytes. */
  peakBytes: number;
  /** The sum of each day's bytes: the area under the curve. */
  byteDays: number;
  /** The last day's bytes minus the first day's. */
  growthBytes: number;
  /** Workspaces that held storage of this value in the range. */
  workspaces: number;
  /** What cleanups that finished in the range freed. */
  freedBytes: number;
};

export type UsageRange = { from: Day; to: Day };

type SumRow = { key: string; byte_days: number; peak: number; first: number; last: number; n: number };

/**
 * The CTEs every usage read starts with: the workspaces in scope that existed in the range (`ws`, with the day
 * Coder deleted them), their report days in the range and the last one before it (`r`), the dimension's units
 * (`u`), each unit's value on its days and 0 from its workspace's deletion day (`v`), and the change of each key's
 * level per day (`g`): a workspace that stops reporting counts at its last value, and a deleted one leaves on its
 * deletion day, as in the fleet chart.
 */
function levels(scope: WorkspaceScope, dimension: UsageDimension | null, { from, to }: UsageRange) {
  const { units, value } = usageUnits(dimension);
  return sql`ws as (
      select w.id, (w.deleted_at at time zone 'UTC')::date as gone from workspaces w
      where ${inScope(scope, sql`w.owner`)} and (w.deleted_at is null or (w.deleted_at at time zone 'UTC')::date > ${from}::date)
    ),
    r as (
      select ws.id, wd.day from ws join workspace_daily wd on wd.workspace_id = ws.id
        and wd.day > ${from}::date and wd.day <= ${to}::date and (ws.gone is null or wd.day < ws.gone)
      union all
      select ws.id, b.day from ws cross join lateral (
        select max(wd.day) as day from workspace_daily wd where wd.workspace_id = ws.id and wd.day <= ${from}::date
      ) b where b.day is not null
    ),
    u as (${units}),
    v as (
      select u.key, r.id, greatest(r.day, ${from}::date) as day, (${value})::float8 as bytes, false as ended
        from r join u on u.id = r.id
      union all
      select u.key, ws.id, ws.gone, 0, true from ws join u on u.id = ws.id where ws.gone <= ${to}::date
    ),
    d as (
      select key, id, day, ended, bytes - coalesce(lag(bytes) over (partition by key, id order by day), 0) as delta from v
    ),
    g as (select key, day, sum(delta) as delta from d group by key, day),
    l as (
      select key, day, sum(delta) over (partition by key order by day) as level,
        lead(day) over (partition by key order by day) as next from g
    )`;
}

/** Sums per key: byte-days (each level times the days it held), the peak, the first and last day's levels. */
async function sums(db: Db, scope: WorkspaceScope, dimension: UsageDimension | null, range: UsageRange) {
  const end = addDaysTo(range.to, 1);
  // Window functions over CTEs built from the dimension's SQL: through db.execute.
  const rows = rowsOf<SumRow>(
    await db.execute(sql`with ${levels(scope, dimension, range)},
      s as (
        select key, sum(level * (coalesce(next, ${end}::date) - day))::float8 as byte_days,
          greatest(max(level), 0)::float8 as peak,
          coalesce(sum(level) filter (where day = ${range.from}::date), 0)::float8 as first,
          coalesce(sum(level) filter (where next is null), 0)::float8 as last
        from l group by key
      ),
      c as (select key, count(distinct id) filter (where not ended)::int as n from d group by key)
      select s.*, coalesce(c.n, 0) as n from s left join c using (key)`),
  );
  return rows;
}

/** What finished cleanups freed per key, in the range (dry runs and restores free nothing). */
async function freed(db: Db, scope: WorkspaceScope, dimension: UsageDimension | null, range: UsageRange) {
  const { units } = usageUnits(dimension);
  const rows = rowsOf<{ key: string; bytes: number }>(
    await db.execute(sql`with ws as (
        select w.id from workspaces w where ${inScope(scope, sql`w.owner`)}
      ),
      j as (
        select cj.id, cj.workspace_id, cj.root_keys, cj.bytes_acted from cleanup_jobs cj
          join ws on ws.id = cj.workspace_id
          join cleanup_runs cr on cr.id = cj.run_id and not cr.dry_run
        where cj.kind in ('cleanup', 'truncate') and cj.bytes_acted > 0
          and cj.finished_at >= ${range.from}::date and cj.finished_at < ${addDaysTo(range.to, 1)}::date
      ),
      ${dimension === "agent" ? sql`` : sql`u as (${units}),`}
      k as (${jobKeys(dimension)})
      select k.key, sum(j.bytes_acted)::float8 as bytes from j join k on k.id = j.id group by k.key`),
  );
  return new Map(rows.map((r) => [r.key, Number(r.bytes)]));
}

function figures(rows: SumRow[], freedBy: Map<string, number>, days: number): UsageFigures[] {
  const keys = new Set([...rows.map((r) => r.key), ...freedBy.keys()]);
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return [...keys].map((key) => {
    const r = byKey.get(key);
    const byteDays = Number(r?.byte_days ?? 0);
    return {
      key,
      avgBytes: byteDays / days,
      peakBytes: Number(r?.peak ?? 0),
      byteDays,
      growthBytes: Number(r?.last ?? 0) - Number(r?.first ?? 0),
      workspaces: Number(r?.n ?? 0),
      freedBytes: freedBy.get(key) ?? 0,
    };
  });
}

/**
 * The range's figures per value of `dimension` (largest byte-days first) and for the whole (`total`: each
 * workspace once, so a user in two groups is counted once; it equals the fleet chart's days summed).
 */
export async function usageBy(
  db: Db,
  scope: WorkspaceScope,
  dimension: UsageDimension,
  range: UsageRange,
): Promise<{ rows: UsageFigures[]; total: UsageFigures }> {
  const days = eachDay(range.from, range.to).length;
  const [rows, rowsFreed, total, totalFreed] = await Promise.all([
    sums(db, scope, dimension, range),
    freed(db, scope, dimension, range),
    sums(db, scope, null, range),
    freed(db, scope, null, range),
  ]);
  const byRow = figures(rows, rowsFreed, days).sort((a, b) => b.byteDays - a.byteDays || a.key.localeCompare(b.key));
  const [whole] = figures(total, totalFreed, days);
  // No workspace in scope: a total of zeros, which the route reports as a range without data.
  return { rows: byRow, total: whole ?? figures([], new Map([["", 0]]), days)[0] };
}

/** Each of `keys`' bytes at the end of each day of the range (the chart of the top rows). */
export async function usageSeries(
  db: Db,
  scope: WorkspaceScope,
  dimension: UsageDimension,
  range: UsageRange,
  keys: string[],
): Promise<{ day: Day; values: Record<string, number> }[]> {
  const days = eachDay(range.from, range.to);
  if (keys.length === 0) return days.map((day) => ({ day, values: {} }));
  const rows = rowsOf<{ key: string; day: Day; level: number }>(
    await db.execute(sql`with ${levels(scope, dimension, range)}
      select key, to_char(day, 'YYYY-MM-DD') as day, level::float8 as level from l
      where key = any(${sql.param(keys)}::text[]) order by key, day`),
  );
  const changes = new Map<string, Map<Day, number>>(keys.map((k) => [k, new Map()]));
  for (const r of rows) changes.get(r.key)?.set(r.day, Number(r.level));
  const current: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  return days.map((day) => {
    for (const k of keys) current[k] = changes.get(k)!.get(day) ?? current[k];
    return { day, values: { ...current } };
  });
}
