import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { addDaysTo, utcDayOf, type Day } from "@/lib/series";

// The 7-day change of a workspace: its total now minus its daily total on or before 7 days ago (UTC days),
// null without such a day. The workspaces table (shown and sorted), its export and the workspace page all
// read it from here.

/** The day the change is measured from. */
export const change7dSince = (now: Date): Day => addDaysTo(utcDayOf(now), -7);

/**
 * Joins `c.bytes`: the workspace's (alias w) daily total on or before `since`. Two ways to the same value,
 * by how many workspaces it is read for:
 * - "all" (every workspace, to sort or export by it): the totals of `since` itself as one range of the
 *   day-first primary key (OFFSET 0 keeps it a range rather than a lookup per workspace into the key index,
 *   which grows with history); only workspaces that did not report that day look further back, one lookup
 *   each (COALESCE runs the subquery only for them);
 * - "few" (a page of rows, one workspace): one lookup per workspace (workspace_daily_workspace_day_idx),
 *   rather than reading the whole day.
 */
export function change7dJoin(since: Day, rows: "all" | "few"): SQL {
  const lastBefore = (cmp: SQL) => sql`(select d.bytes from workspace_daily d where d.workspace_id = w.id
    and d.day ${cmp} ${since}::date order by d.day desc limit 1)`;
  if (rows === "few") return sql`left join lateral (select ${lastBefore(sql`<=`)} as bytes) c on true`;
  return sql`left join (select workspace_id, bytes from workspace_daily where day = ${since}::date offset 0) cd
      on cd.workspace_id = w.id
    left join lateral (select coalesce(cd.bytes, ${lastBefore(sql`<`)}) as bytes) c on true`;
}

/** The change itself, over a change7dJoin (what the table sorts by; numeric, so a keyset reads it back exactly). */
export const change7d = sql`(w.total_bytes - c.bytes)`;

/** The change as a workspace row's column `change_7d_bytes`. */
export const change7dColumn = sql`${change7d}::float8 as change_7d_bytes`;
