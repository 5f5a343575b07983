import "server-only";
import { sql } from "drizzle-orm";
import { addDaysTo, eachDay, type Day } from "@/lib/series";
import type { UsageDimension } from "@/lib/validations/usage";
import { inScope, type WorkspaceScope } from "../scope";
import { rowsOf, type Db } from "../types";
import { jobKeys, usageUnits, type UsageRange } from "./usage-units";

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

/** A row of the usage statement: a key's sums (`point` null), or one day of a chart row's level. */
type UsageRow = {
  whole: boolean;
  key: string;
  byte_days: number | null;
  peak: number | null;
  first: number | null;
  last: number | null;
  n: number | null;
  point: Day | null;
  level: number | null;
};

/**
 * One statement for the range: the sums of every key of `dimension` and of the whole, and the level per day of the
 * `chartRows` largest keys. CTEs: the workspaces in scope that existed in the range (`ws`, with the day Coder
 * deleted them); their report days in the range and the last one before it, with the workspace's total (`r`); the
 * dimension's units (`u`); each workspace's change per day (`dw`), computed once and shared by every key it
 * belongs to, 0 from its deletion day on; the change of each key's level per day (`g`, `whole` for the total);
 * the levels (`l`). A workspace that stops reporting counts at its last value, and a deleted one leaves on its
 * deletion day, as in the fleet chart.
 */
function usageStatement(scope: WorkspaceScope, dimension: UsageDimension, { from, to }: UsageRange, chartRows: number) {
  const { before, units, changes } = usageUnits(dimension, scope, { from, to });
  const keyChanges =
    changes ?? sql`select u.key, dw.day, sum(dw.delta) as delta from dw join u on u.id = dw.id group by u.key, dw.day`;
  const end = addDaysTo(to, 1);
  return sql`with ws as (
      select w.id, (w.deleted_at at time zone 'UTC')::date as gone from workspaces w
      where ${inScope(scope, sql`w.owner`)} and (w.deleted_at is null or (w.deleted_at at time zone 'UTC')::date > ${from}::date)
    ),
    r as (
      select ws.id, wd.day, wd.bytes from ws join workspace_daily wd on wd.workspace_id = ws.id
        and wd.day > ${from}::date and wd.day <= ${to}::date and (ws.gone is null or wd.day < ws.gone)
      union all
      select ws.id, b.day, b.bytes from ws cross join lateral (
        select wd.day, wd.bytes from workspace_daily wd where wd.workspace_id = ws.id and wd.day <= ${from}::date
        order by wd.day desc limit 1
      ) b
    ),
    ${before}
    u as (${units}),
    dw as (
      select id, day, bytes - coalesce(lag(bytes) over (partition by id order by day), 0) as delta from (
        select r.id, greatest(r.day, ${from}::date) as day, r.bytes::float8 as bytes from r
        union all select ws.id, ws.gone, 0 from ws where ws.gone <= ${to}::date
      ) vw
    ),
    g as (
      select false as whole, key, day, delta from (${keyChanges}) k
      union all select true, '', day, sum(delta) from dw group by day
    ),
    l as (
      select whole, key, day, sum(delta) over (partition by whole, key order by day) as level,
        lead(day) over (partition by whole, key order by day) as next from g
    ),
    s as (
      select whole, key, sum(level * (coalesce(next, ${end}::date) - day))::float8 as byte_days,
        greatest(max(level), 0)::float8 as peak,
        coalesce(sum(level) filter (where day = ${from}::date), 0)::float8 as first,
        coalesce(sum(level) filter (where next is null), 0)::float8 as last
      from l group by whole, key
    ),
    c as (
      select false as whole, u.key, count(*)::int as n from u where u.id in (select r.id from r) group by u.key
      union all select true, '', count(distinct r.id)::int from r
    ),
    top as (select key from s where not whole order by byte_days desc, key collate "C" limit ${chartRows})
    select s.*, coalesce(c.n, 0) as n, null as point, null::float8 as level from s left join c using (whole, key)
    union all
    select false, l.key, null, null, null, null, null, to_char(l.day, 'YYYY-MM-DD'), l.level::float8
      from l join top on top.key = l.key where not l.whole`;
}

/** What finished cleanups freed per key, in the range (dry runs and restores free nothing). */
async function freed(db: Db, scope: WorkspaceScope, dimension: UsageDimension | null, range: UsageRange) {
  const { units } = usageUnits(dimension, scope, range);
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

type Sums = Pick<UsageRow, "key" | "byte_days" | "peak" | "first" | "last" | "n">;

function figures(rows: Sums[], freedBy: Map<string, number>, days: number): UsageFigures[] {
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

/** Keys in the order the statement picks the chart's rows: byte-days, then the key's code points. */
const byByteDays = (a: UsageFigures, b: UsageFigures) =>
  b.byteDays - a.byteDays || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Each chart key's level at the end of each day of the range, from the days its level changed. */
function chartOf(points: UsageRow[], keys: string[], range: UsageRange): UsageChart {
  const changes = new Map<string, Map<Day, number>>(keys.map((k) => [k, new Map()]));
  for (const p of points) changes.get(p.key)?.set(p.point!, Number(p.level));
  const current: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  return {
    keys,
    points: eachDay(range.from, range.to).map((day) => {
      for (const k of keys) current[k] = changes.get(k)!.get(day) ?? current[k];
      return { day, values: { ...current } };
    }),
  };
}

/** The chart of the largest rows: their keys, and each one's bytes at the end of each day of the range. */
export type UsageChart = { keys: string[]; points: { day: Day; values: Record<string, number> }[] };

/**
 * The range's figures per value of `dimension` (largest byte-days first), for the whole (`total`: each workspace
 * once, so a user in two groups is counted once; it equals the fleet chart's days summed), and the chart of the
 * `chartRows` largest rows.
 */
export async function usageBy(
  db: Db,
  scope: WorkspaceScope,
  dimension: UsageDimension,
  range: UsageRange,
  chartRows = 0,
): Promise<{ rows: UsageFigures[]; total: UsageFigures; chart: UsageChart }> {
  const days = eachDay(range.from, range.to).length;
  const [all, rowsFreed, totalFreed] = await Promise.all([
    // Window functions over CTEs built from the dimension's SQL: through db.execute.
    db.execute(usageStatement(scope, dimension, range, chartRows)).then((r) => rowsOf<UsageRow>(r)),
    freed(db, scope, dimension, range),
    freed(db, scope, null, range),
  ]);
  const sums = all.filter((r) => r.point === null);
  const byRow = figures(
    sums.filter((r) => !r.whole),
    rowsFreed,
    days,
  ).sort(byByteDays);
  const [whole] = figures(
    sums.filter((r) => r.whole),
    totalFreed,
    days,
  );
  const keys = byRow.slice(0, chartRows).map((r) => r.key);
  return {
    rows: byRow,
    // No workspace in scope: a total of zeros, which the route reports as a range without data.
    total: whole ?? figures([], new Map([["", 0]]), days)[0],
    chart: chartOf(
      all.filter((r) => r.point !== null),
      keys,
      range,
    ),
  };
}
