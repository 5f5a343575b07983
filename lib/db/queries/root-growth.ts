import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { addDaysTo, utcDayOf, type Day } from "@/lib/series";
import { KEPT_AGGREGATES_LOCK } from "../advisory-locks";
import { agedBytes, olderBytes } from "@/lib/findings/age-buckets";
import { ofLiveWorkspace } from "../deleted";
import type { Db } from "../types";
import { workspaceFilter } from "./rule-rows";
import { workspaceRanges, type WorkspaceRange } from "./workspace-batches";

// The roots that grew since the day 7 days ago, kept per workspace (lib/db/schema/reports.ts root_growth_days):
// what the overview's fastest-growing roots read; and with them each workspace's roots per agent and kind with their
// growth since that day (workspace_agents): what the agent page reads. A workspace's rows are current for one day
// only (the day 7 days ago moves at midnight UTC); a workspace whose rows are for another day, or that has none yet,
// is computed at the request.

/** How far back the fastest-growing roots look. */
export const GROWTH_DAYS = 7;

/** The day the growth of the day `now` is in is measured from. */
export const growthSinceDay = (now: Date): Day => addDaysTo(utcDayOf(now), -GROWTH_DAYS);

/**
 * Every root's root_daily row of `day` (of `workspaces` only, when given), read as one range of the day-first
 * primary key (one per workspace). OFFSET 0 keeps the planner from flattening it into a lookup per root_latest
 * row: those probes land all over root_daily's key index, which grows with the length of history, while one day's
 * rows are a fixed amount (and stored together, since ingest appends day by day).
 */
export const dayOfRoots = (day: Day, workspaces?: readonly string[] | WorkspaceRange) =>
  sql`select workspace_id, root_key, bytes from root_daily
    where day = ${day}::date ${workspaceFilter(sql`workspace_id`, workspaces)} offset 0`;

/** A root of root_latest (alias l) and its row of root_daily (alias d). */
const sameRoot = sql`d.workspace_id = l.workspace_id and d.root_key = l.root_key`;

/**
 * What a root of root_latest (alias l) joins to for its value on `sinceDay` (alias d): of the whole fleet, the
 * day's roll-up read as one range; of some workspaces (`only` given), each root's value looked up by root_daily's
 * key: reading the whole day for a few workspaces made ingest 5 times slower.
 */
const valueOnDay = (sinceDay: Day, only: SQL | undefined): SQL =>
  only
    ? sql`root_daily d on d.day = ${sinceDay}::date and ${sameRoot}`
    : sql`(${dayOfRoots(sinceDay)}) d on ${sameRoot}`;

/**
 * Every latest root of the whole fleet or of some workspaces (`only`, a condition on alias l) with its root_daily
 * value on `sinceDay` (null without one): columns workspace_id, root_key, agent, kind, bytes, ages, collected_at,
 * bytes_before. With `workspaces` (what `only` selects), the day's rows are read as one range of the key per
 * workspace rather than looked up root by root: a descent of root_daily's index, which deepens as history grows,
 * per workspace instead of per root.
 */
const latestWithValueOn = (
  sinceDay: Day,
  only: SQL | undefined,
  workspaces?: readonly string[] | WorkspaceRange,
): SQL => {
  const day = workspaces ? sql`(${dayOfRoots(sinceDay, workspaces)}) d on ${sameRoot}` : valueOnDay(sinceDay, only);
  return sql`select l.workspace_id, l.root_key, l.agent, l.kind, l.bytes, l.ages, l.collected_at,
      d.bytes as bytes_before
    from root_latest l left join ${day} where ${only ?? sql`true`}`;
};

/**
 * The roots of `roots` (a relation with latestWithValueOn's columns) that grew since the day of their value then:
 * columns workspace_id, root_key, agent, kind, bytes, bytes_before, growth, latest_day (text, YYYY-MM-DD).
 */
const grownOf = (roots: SQL): SQL =>
  sql`select b.workspace_id, b.root_key, b.agent, b.kind, b.bytes, b.bytes_before, b.bytes - b.bytes_before as growth,
      to_char(b.collected_at at time zone 'UTC', 'YYYY-MM-DD') as latest_day
    from ${roots} b where b.bytes > b.bytes_before`;

/**
 * The roots that grew since `sinceDay` (their root_daily value that day), of the whole fleet or of some
 * workspaces (`only`, a condition on alias l), with grownOf's columns.
 */
export const grownRoots = (sinceDay: Day, only?: SQL): SQL => grownOf(sql`(${latestWithValueOn(sinceDay, only)})`);

/** workspace_agents' rows of `roots` (a relation with latestWithValueOn's columns). */
const agentRowsOf = (roots: SQL): SQL =>
  sql`select b.workspace_id, b.agent, b.kind, sum(b.bytes)::bigint as bytes, count(*)::int as roots,
      sum(${olderBytes(sql`b.ages`)})::float8 as old_bytes, sum(${agedBytes(sql`b.ages`)})::float8 as aged_bytes,
      sum(b.bytes) filter (where b.bytes_before is not null)::bigint as measured_bytes,
      sum(b.bytes_before)::bigint as bytes_before,
      (max(b.collected_at) filter (where b.bytes_before is not null) at time zone 'UTC')::date as measured_day
    from ${roots} b group by b.workspace_id, b.agent, b.kind`;

/**
 * The rows of workspace_agents computed from root_latest and the roll-up of `sinceDay`, of the whole fleet or of
 * some workspaces (`only`, a condition on alias l): alias-free columns workspace_id, agent, kind, bytes, roots,
 * old_bytes, aged_bytes, measured_bytes, bytes_before, measured_day.
 */
export const agentRows = (sinceDay: Day, only?: SQL): SQL => agentRowsOf(sql`(${latestWithValueOn(sinceDay, only)})`);

/**
 * The workspaces (alias w) whose kept rows are not those of `sinceDay` (none yet, or of another day): the pages
 * compute theirs at the request.
 */
export const notKeptFor = (sinceDay: Day): SQL =>
  sql`w.last_collected_at is not null and not exists
    (select 1 from root_growth_days g where g.workspace_id = w.id and g.since_day = ${sinceDay}::date)`;

/**
 * Rewrites the kept rows of the day (root_growth_days, workspace_agents) of `workspaces` (a list or a range of ids)
 * for `sinceDay`, in the caller's transaction. Both come from one read of the latest roots with their value that
 * day: that read probes root_daily, whose index grows with the length of history.
 */
async function rewrite(tx: Db, sinceDay: Day, workspaces: readonly string[] | WorkspaceRange): Promise<void> {
  const only = sql`true ${workspaceFilter(sql`l.workspace_id`, workspaces)}`;
  await tx.execute(sql`delete from workspace_agents where true ${workspaceFilter(sql`workspace_id`, workspaces)}`);
  // Every workspace with roots is computed for the day, grown or not. A data-modifying WITH runs whether or not it
  // is read.
  await tx.execute(sql`with base as materialized (${latestWithValueOn(sinceDay, only, workspaces)}),
    agents as (insert into workspace_agents (workspace_id, agent, kind, bytes, roots, old_bytes, aged_bytes,
      measured_bytes, bytes_before, measured_day) ${agentRowsOf(sql`base`)})
    insert into root_growth_days (workspace_id, since_day, top_growth, grown)
    select w.id, ${sinceDay}::date, g.top, coalesce(g.grown, '[]'::jsonb) from workspaces w left join (
      select r.workspace_id, max(r.growth) as top,
        jsonb_agg(to_jsonb(r) - 'workspace_id' order by r.growth desc, r.root_key) as grown
      from (${grownOf(sql`base`)}) r group by r.workspace_id
    ) g on g.workspace_id = w.id
    where w.last_collected_at is not null ${workspaceFilter(sql`w.id`, workspaces)}
    on conflict (workspace_id) do update set since_day = excluded.since_day, top_growth = excluded.top_growth,
      grown = excluded.grown`);
}

/** Ingest's part, in the report's transaction (after lockKeptShared): the growth of the workspaces it changed. */
export async function rewriteWorkspaceGrowth(tx: Db, workspaces: readonly string[], now = new Date()): Promise<void> {
  if (workspaces.length === 0) return;
  await rewrite(tx, growthSinceDay(now), workspaces);
}

/**
 * Maintenance's part: the whole fleet's growth for the day of `now`, in the caller's transaction, a range of
 * workspaces at a time (workspace-batches.ts): in one statement it ran past the statement timeout at 100,000
 * workspaces.
 */
export async function rewriteFleetGrowth(tx: Db, now = new Date()): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${KEPT_AGGREGATES_LOCK})`);
  for (const range of await workspaceRanges(tx)) await rewrite(tx, growthSinceDay(now), range);
}

/**
 * The `limit` roots of live workspaces that grew the most since `sinceDay`, largest growth first (then workspace
 * and root): the kept rows of the workspaces computed for that day, and the others computed now. The kept roots
 * are those of the `limit` workspaces whose largest growth is largest, read in the index's order: any root of
 * another workspace comes after each of those workspaces' largest (as a join of every grown root it read and sorted
 * them all: 188 ms at 10,000 workspaces).
 */
export function fastestGrowingRows(sinceDay: Day, limit: number): SQL {
  const computed = sql`select w.id from workspaces w where ${notKeptFor(sinceDay)}`;
  return sql`select * from (
      (select m.workspace_id, r.root_key, r.agent, r.kind, r.bytes, r.bytes_before, r.growth, r.latest_day
        from (select k.workspace_id, k.grown from root_growth_days k
          where k.since_day = ${sinceDay}::date and k.top_growth is not null and ${ofLiveWorkspace(sql`k.workspace_id`)}
          order by k.top_growth desc nulls last, k.workspace_id limit ${limit}) m
        cross join lateral jsonb_to_recordset(m.grown) as r(root_key text, agent text, kind text, bytes bigint,
          bytes_before bigint, growth bigint, latest_day text)
        order by r.growth desc, m.workspace_id, r.root_key limit ${limit})
      union all
      (select g.* from (${grownRoots(sinceDay, sql`l.workspace_id in (${computed})`)}) g where ${ofLiveWorkspace(sql`g.workspace_id`)}
        order by g.growth desc, g.workspace_id, g.root_key limit ${limit})
    ) x order by growth desc, workspace_id, root_key limit ${limit}`;
}
