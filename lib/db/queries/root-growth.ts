import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { addDaysTo, utcDayOf, type Day } from "@/lib/series";
import { KEPT_AGGREGATES_LOCK } from "../advisory-locks";
import { agedBytes, olderBytes } from "@/lib/findings/age-buckets";
import { ofLiveWorkspace } from "../deleted";
import type { Db } from "../types";
import { workspaceFilter } from "./rule-rows";

// The roots that grew since the day 7 days ago, kept (lib/db/schema/reports.ts root_growth): what the overview's
// fastest-growing roots read; and with them each workspace's roots per agent and kind with their growth since that
// day (workspace_agents): what the agent page reads. A workspace's rows are current for one day only (the day 7
// days ago moves at midnight UTC); a workspace whose rows are for another day, or that has none yet, is computed
// at the request.

/** How far back the fastest-growing roots look. */
export const GROWTH_DAYS = 7;

/** The day the growth of the day `now` is in is measured from. */
export const growthSinceDay = (now: Date): Day => addDaysTo(utcDayOf(now), -GROWTH_DAYS);

/**
 * Every root's root_daily row of `day`, read as one range of the day-first primary key. OFFSET 0 keeps the planner
 * from flattening it into a lookup per root_latest row: those probes land all over root_daily's key index, which
 * grows with the length of history, while one day's rows are a fixed amount (and stored together, since ingest
 * appends day by day).
 */
export const dayOfRoots = (day: Day) =>
  sql`select workspace_id, root_key, bytes from root_daily where day = ${day}::date offset 0`;

/**
 * What a root of root_latest (alias l) joins to for its value on `sinceDay` (alias d): of the whole fleet, the
 * day's roll-up read as one range; of some workspaces (`only` given), each root's value looked up by root_daily's
 * key: reading the whole day for a few workspaces made ingest 5 times slower.
 */
const valueOnDay = (sinceDay: Day, only: SQL | undefined): SQL =>
  only
    ? sql`root_daily d on d.day = ${sinceDay}::date and d.workspace_id = l.workspace_id and d.root_key = l.root_key`
    : sql`(${dayOfRoots(sinceDay)}) d on d.workspace_id = l.workspace_id and d.root_key = l.root_key`;

/**
 * The roots that grew since `sinceDay` (their root_daily value that day), of the whole fleet or of some
 * workspaces (`only`, a condition on alias l): columns workspace_id, root_key, agent, kind, bytes, bytes_before,
 * growth, latest_day (text, YYYY-MM-DD).
 */
export function grownRoots(sinceDay: Day, only?: SQL): SQL {
  return sql`select l.workspace_id, l.root_key, l.agent, l.kind, l.bytes, d.bytes as bytes_before,
      l.bytes - d.bytes as growth, to_char(l.collected_at at time zone 'UTC', 'YYYY-MM-DD') as latest_day
    from root_latest l join ${valueOnDay(sinceDay, only)} where ${only ?? sql`true`} and l.bytes > d.bytes`;
}

/**
 * The rows of workspace_agents computed from root_latest and the roll-up of `sinceDay`, of the whole fleet or of
 * some workspaces (`only`, a condition on alias l): alias-free columns workspace_id, agent, kind, bytes, roots,
 * old_bytes, aged_bytes, measured_bytes, bytes_before, measured_day.
 */
export function agentRows(sinceDay: Day, only?: SQL): SQL {
  return sql`select l.workspace_id, l.agent, l.kind, sum(l.bytes)::bigint as bytes, count(*)::int as roots,
      sum(${olderBytes(sql`l.ages`)})::float8 as old_bytes, sum(${agedBytes(sql`l.ages`)})::float8 as aged_bytes,
      sum(l.bytes) filter (where d.bytes is not null)::bigint as measured_bytes, sum(d.bytes)::bigint as bytes_before,
      (max(l.collected_at) filter (where d.bytes is not null) at time zone 'UTC')::date as measured_day
    from root_latest l left join ${valueOnDay(sinceDay, only)}
    where ${only ?? sql`true`} group by l.workspace_id, l.agent, l.kind`;
}

/**
 * The workspaces (alias w) whose kept rows are not those of `sinceDay` (none yet, or of another day): the pages
 * compute theirs at the request.
 */
export const notKeptFor = (sinceDay: Day): SQL =>
  sql`w.last_collected_at is not null and not exists
    (select 1 from root_growth_days g where g.workspace_id = w.id and g.since_day = ${sinceDay}::date)`;

/**
 * Rewrites the kept rows of the day (root_growth, workspace_agents) of `workspaces` (the whole fleet when absent)
 * for `sinceDay`, in the caller's transaction.
 */
async function rewrite(tx: Db, sinceDay: Day, workspaces?: readonly string[]): Promise<void> {
  const only = workspaces && sql`true ${workspaceFilter(sql`l.workspace_id`, workspaces)}`;
  await tx.execute(sql`delete from workspace_agents where true ${workspaceFilter(sql`workspace_id`, workspaces)}`);
  await tx.execute(sql`insert into workspace_agents (workspace_id, agent, kind, bytes, roots, old_bytes, aged_bytes,
      measured_bytes, bytes_before, measured_day) ${agentRows(sinceDay, only)}`);
  await tx.execute(sql`delete from root_growth where true ${workspaceFilter(sql`workspace_id`, workspaces)}`);
  await tx.execute(sql`insert into root_growth (workspace_id, root_key, since_day, agent, kind, bytes, bytes_before,
      growth, latest_day)
    select g.workspace_id, g.root_key, ${sinceDay}::date, g.agent, g.kind, g.bytes, g.bytes_before, g.growth,
      g.latest_day::date
    from (${grownRoots(sinceDay, only)}) g`);
  // Every workspace with roots is computed for the day, grown or not.
  await tx.execute(sql`insert into root_growth_days (workspace_id, since_day)
    select w.id, ${sinceDay}::date from workspaces w where w.last_collected_at is not null
      ${workspaceFilter(sql`w.id`, workspaces)}
    on conflict (workspace_id) do update set since_day = excluded.since_day`);
}

/** Ingest's part, in the report's transaction (after lockKeptShared): the growth of the workspaces it changed. */
export async function rewriteWorkspaceGrowth(tx: Db, workspaces: readonly string[], now = new Date()): Promise<void> {
  if (workspaces.length === 0) return;
  await rewrite(tx, growthSinceDay(now), workspaces);
}

/** Maintenance's part: the whole fleet's growth for the day of `now`, in the caller's transaction. */
export async function rewriteFleetGrowth(tx: Db, now = new Date()): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${KEPT_AGGREGATES_LOCK})`);
  await rewrite(tx, growthSinceDay(now));
}

/**
 * The `limit` roots of live workspaces that grew the most since `sinceDay`, largest growth first (then workspace
 * and root): the kept rows of the workspaces computed for that day, and the others computed now. The kept rows'
 * day is checked against their workspace's row by row, not joined: they are read in the index's order and the
 * first few end the scan (as a join it read and sorted every grown root: 188 ms at 10,000 workspaces).
 */
export function fastestGrowingRows(sinceDay: Day, limit: number): SQL {
  const computed = sql`select w.id from workspaces w where ${notKeptFor(sinceDay)}`;
  return sql`select * from (
      (select g.workspace_id, g.root_key, g.agent, g.kind, g.bytes, g.bytes_before, g.growth,
          to_char(g.latest_day, 'YYYY-MM-DD') as latest_day
        from root_growth g
        where g.since_day = ${sinceDay}::date and ${ofLiveWorkspace(sql`g.workspace_id`)}
          and (select m.since_day from root_growth_days m where m.workspace_id = g.workspace_id) = g.since_day
        order by g.growth desc nulls last, g.workspace_id, g.root_key limit ${limit})
      union all
      (select g.* from (${grownRoots(sinceDay, sql`l.workspace_id in (${computed})`)}) g where ${ofLiveWorkspace(sql`g.workspace_id`)}
        order by g.growth desc, g.workspace_id, g.root_key limit ${limit})
    ) x order by growth desc, workspace_id, root_key limit ${limit}`;
}
