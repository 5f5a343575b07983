import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { UsageDimension } from "@/lib/validations/usage";
import type { WorkspaceScope } from "../scope";
import type { Day } from "@/lib/series";

// What the usage by team sums, per dimension (docs/usage.md): units, each one workspace's share that belongs to one
// dimension value (its key), and each unit's value on its workspace's report days. The ids come from the CTE `ws`
// (the workspaces in scope), the report days and the workspace's total on each from the CTE `r` (id, day, bytes),
// the units from `u` (id, key).

/** Each workspace's key in the dimension, or several (a user in several groups), '' where it has none. */
const WORKSPACE_KEYS: Record<Exclude<UsageDimension, "agent">, SQL> = {
  organization: sql`select ws.id, coalesce(w.organization_id, '') as key from ws join workspaces w on w.id = ws.id`,
  owner: sql`select ws.id, w.owner as key from ws join workspaces w on w.id = ws.id`,
  template: sql`select ws.id, coalesce(w.template, '') as key from ws join workspaces w on w.id = ws.id`,
  // Every group of the owner: a workspace counts once in each of its owner's groups, and in none ('') without one.
  group: sql`select ws.id, coalesce(tm.group_id, '') as key from ws join workspaces w on w.id = ws.id
    left join team_members tm on tm.username = lower(w.owner)`,
};

/** The days a usage read sums, both included. */
export type UsageRange = { from: Day; to: Day };

/**
 * `before`: CTEs the units read, ahead of `u`; `units`: the CTE `u`'s query (id, key); `changes`: null where a
 * unit is worth its workspace's total (its changes are the workspace's), else (key, day, delta): the change of each
 * key's level per day, a day before the range folded into its first day.
 */
export type UsageUnits = { before: SQL; units: SQL; changes: SQL | null };

/**
 * The units of a dimension, or of the whole (`null`: one unit per workspace, key ''). By agent a unit is a workspace's
 * roots of one agent, every agent it had on any of its days, worth 0 on a day it had none of that agent's roots: a
 * root that left the report leaves the agent's sum as it leaves the workspace's.
 */
export function usageUnits(
  dimension: UsageDimension | null,
  scope: WorkspaceScope,
  { from, to }: UsageRange,
): UsageUnits {
  if (dimension === null) return { before: sql``, units: sql`select ws.id, '' as key from ws`, changes: null };
  if (dimension !== "agent") return { before: sql``, units: WORKSPACE_KEYS[dimension], changes: null };
  if (scope.kind === "fleet") {
    // The whole fleet's agents are the fleet roll-up's (fleet_delta, the overview's and the Agents page's chart):
    // a few rows a day, where a workspace's roots per day are millions of rows a month at fleet scale. Ingest writes
    // it with root_daily, and the sync its deleted workspaces' departures, so the two agree. The workspaces counted
    // are those of the range that hold the agent's roots in their latest report.
    return {
      before: sql``,
      units: sql`select distinct rl.workspace_id as id, rl.agent as key from root_latest rl join ws on ws.id = rl.workspace_id`,
      changes: sql`select agent as key, greatest(day, ${from}::date) as day, sum(bytes)::float8 as delta from fleet_delta
        where day <= ${to}::date group by 1, 2`,
    };
  }
  // One owner's few workspaces: their agents' sums on each report day (`a`), each unit's own changes from them.
  return {
    before: sql`a as (
      select r.id, r.day, rd.agent as key, sum(rd.bytes) as bytes
        from r join root_daily rd on rd.workspace_id = r.id and rd.day = r.day group by r.id, r.day, rd.agent
    ),`,
    units: sql`select distinct a.id, a.key from a`,
    changes: sql`select key, day, sum(delta) as delta from (
        select key, day, bytes - coalesce(lag(bytes) over (partition by key, id order by day), 0) as delta from (
          select u.key, r.id, greatest(r.day, ${from}::date) as day, coalesce(a.bytes, 0)::float8 as bytes
            from r join u on u.id = r.id left join a on a.id = r.id and a.day = r.day and a.key = u.key
          union all
          select u.key, ws.id, ws.gone, 0 from ws join u on u.id = ws.id where ws.gone <= ${to}::date
        ) va
      ) da group by key, day`,
  };
}

/** The key of a finished cleanup job's workspace (alias j) in the dimension: by agent, its first root's agent. */
export function jobKeys(dimension: UsageDimension | null): SQL {
  if (dimension === "agent") {
    return sql`select j.id, coalesce((select rl.agent from root_latest rl
      where rl.workspace_id = j.workspace_id and rl.root_key = j.root_keys->>0), 'other') as key from j`;
  }
  return sql`select j.id, u.key from j join u on u.id = j.workspace_id`;
}
