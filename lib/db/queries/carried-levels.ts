import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { cumulativeLevels, eachDay, type Day, type DayRange } from "@/lib/series";
import { rowsOf, type Db } from "../types";

/**
 * A set of workspaces' summed level on each day of `range`, read from the daily roll-ups (never raw history):
 * each workspace counts at its value on its latest report day (workspace_daily) on or before that day, so a
 * workspace that stops reporting keeps counting at its last value, as in the fleet chart.
 *
 * `workspaces` selects the ids (column `id`); `value` is the SQL of one workspace's value on one of its report
 * days, given as `r.id` and `r.day` (0 where it held nothing that day). Each workspace's report days in the
 * range are read by workspace_daily's (workspace, day) index, plus its last one before the range, which sets
 * the range's first level; the values' changes are summed per day in SQL, so the answer is a row per day.
 */
export async function carriedLevels(
  db: Db,
  workspaces: SQL,
  value: SQL,
  range: Pick<DayRange, "from" | "to">,
): Promise<{ day: Day; bytes: number }[]> {
  const { from, to } = range;
  // A CTE over a set given as SQL, carried forward per workspace by a lateral join: SQL through db.execute.
  const deltas = rowsOf<{ day: Day; bytes: number }>(
    await db.execute(sql`with ws as (${workspaces}),
      r as (
        select ws.id, wd.day from ws
          join workspace_daily wd on wd.workspace_id = ws.id and wd.day > ${from}::date and wd.day <= ${to}::date
        union all
        select ws.id, b.day from ws cross join lateral (
          select max(wd.day) as day from workspace_daily wd where wd.workspace_id = ws.id and wd.day <= ${from}::date
        ) b where b.day is not null
      ),
      v as (select r.id, greatest(r.day, ${from}::date) as day, (${value})::float8 as bytes from r),
      d as (select v.day, v.bytes - coalesce(lag(v.bytes) over (partition by v.id order by v.day), 0) as delta from v)
      select to_char(d.day, 'YYYY-MM-DD') as day, sum(d.delta)::float8 as bytes from d group by d.day`),
  );
  const days = eachDay(from, to);
  const levels = cumulativeLevels(days, new Map(deltas.map((r) => [r.day, Number(r.bytes)])));
  return days.map((day, i) => ({ day, bytes: levels[i] }));
}
