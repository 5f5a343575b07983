import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { addDaysTo, utcDayOf, type Day } from "@/lib/series";
import type { Db } from "../types";

// The 7-day change of a workspace: its total now minus its daily total on or before 7 days ago (UTC days),
// null without such a day. The workspaces table (shown and sorted), its export and the workspace page all
// read it from here.

/** The day the change is measured from. */
export const change7dSince = (now: Date): Day => addDaysTo(utcDayOf(now), -7);

/**
 * The workspace's (alias w) daily total on or before `day`, looked up by workspace_daily_workspace_day_idx: its
 * order, the workspace first, keeps the planner off the day-first primary key, which it picks when it expects
 * no row before `day` and which then walks every workspace's entries of the days before.
 */
const lastOnOrBefore = (day: SQL) => sql`(select d.bytes from workspace_daily d where d.workspace_id = w.id
  and d.day <= ${day} order by d.workspace_id desc, d.day desc limit 1)`;

/**
 * Joins `c.bytes`: the workspace's (alias w) daily total on or before `since`. The workspaces row keeps it for
 * the day the maintenance last ran and the day after (`keepChangeBases`), so sorting every workspace by the change
 * reads the workspaces table alone (decision 0013); a row whose kept day is another, or that ingest cleared, is
 * looked up (CASE runs the subquery only for it). The same for a page of rows as for every workspace.
 */
export function change7dJoin(since: Day): SQL {
  return sql`left join lateral (select case when w.change_since = ${since}::date then w.change_base_bytes
      when w.change_since = ${since}::date - 1 then w.change_next_bytes
      else ${lastOnOrBefore(sql`${since}::date`)} end as bytes) c on true`;
}

/** The change itself, over a change7dJoin (what the table sorts by; numeric, so a keyset reads it back exactly). */
export const change7d = sql`(w.total_bytes - c.bytes)`;

/** The change as a workspace row's column `change_7d_bytes`. */
export const change7dColumn = sql`${change7d}::float8 as change_7d_bytes`;

/**
 * Keeps every workspace's bases of the 7-day change for the day `now` measures from and the day after, writing
 * only the rows whose values moved (once a day each, or after ingest cleared them). Run by the maintenance, hourly.
 */
export async function keepChangeBases(db: Db, now: Date): Promise<void> {
  const since = sql`${change7dSince(now)}::date`;
  await db.execute(sql`update workspaces t set change_since = ${since}, change_base_bytes = k.base,
      change_next_bytes = k.next
    from (select w.id, ${lastOnOrBefore(since)} as base, ${lastOnOrBefore(sql`${since} + 1`)} as next
      from workspaces w) k
    where t.id = k.id
      and (t.change_since, t.change_base_bytes, t.change_next_bytes) is distinct from (${since}, k.base, k.next)`);
}
