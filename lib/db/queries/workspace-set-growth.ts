import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { resolveRange, type Day, type DayRange } from "@/lib/series";
import { rowsOf, type Db } from "../types";
import { carriedLevels } from "./carried-levels";
import { clampToRollups, getHorizons } from "./retention";

/** A filtered set of workspaces (one template's, one owner's) over the last 30 days, as the fleet chart counts. */
export type WorkspaceSetGrowth = {
  workspaces: number;
  range: DayRange;
  /** The set's summed totals at the end of each day (workspace_daily, each at its last report). */
  series: { day: Day; bytes: number }[];
};

/** The growth of the workspaces matching `where` (conditions on alias w, as the list's filters). */
export async function workspaceSetGrowth(db: Db, where: SQL[], now: Date): Promise<WorkspaceSetGrowth> {
  const range = clampToRollups(resolveRange({ range: "30d" }, now), (await getHorizons(db)).rollups);
  const ids = sql`select w.id from workspaces w where ${sql.join(where, sql` and `)}`;
  const value = sql`(select wd.bytes from workspace_daily wd where wd.day = r.day and wd.workspace_id = r.id)`;
  // Counts a set given as SQL (the caller's filter), the one carriedLevels sums: SQL through db.execute.
  const [series, count] = await Promise.all([
    carriedLevels(db, ids, value, range),
    db.execute(sql`select count(*)::int as n from (${ids}) s`),
  ]);
  return { workspaces: Number(rowsOf<{ n: number }>(count)[0].n), range, series };
}
