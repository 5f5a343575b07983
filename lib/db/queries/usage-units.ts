import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { UsageDimension } from "@/lib/validations/usage";

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

/**
 * `before`: CTEs the units read, ahead of `u`; `units`: the CTE `u`'s query (id, key); `values`: null where a unit is
 * worth its workspace's total (its changes are the workspace's), else (key, id, day, bytes): each unit on each report
 * day of its workspace.
 */
export type UsageUnits = { before: SQL; units: SQL; values: SQL | null };

/**
 * The units of a dimension, or of the whole (`null`: one unit per workspace, key ''). By agent a unit is a workspace's
 * roots of one agent, every agent it had on any of its days, worth 0 on a day it had none of that agent's roots: a
 * root that left the report leaves the agent's sum as it leaves the workspace's.
 */
export function usageUnits(dimension: UsageDimension | null): UsageUnits {
  if (dimension === null) return { before: sql``, units: sql`select ws.id, '' as key from ws`, values: null };
  if (dimension !== "agent") return { before: sql``, units: WORKSPACE_KEYS[dimension], values: null };
  // Each workspace's agents' sums on its report days, read once (`a`): joined, not looked up per unit and day.
  return {
    before: sql`a as (
      select r.id, r.day, rd.agent as key, sum(rd.bytes) as bytes
        from r join root_daily rd on rd.workspace_id = r.id and rd.day = r.day group by r.id, r.day, rd.agent
    ),`,
    units: sql`select distinct a.id, a.key from a`,
    values: sql`select u.key, r.id, r.day, coalesce(a.bytes, 0) as bytes from r join u on u.id = r.id
      left join a on a.id = r.id and a.day = r.day and a.key = u.key`,
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
