import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { UsageDimension } from "@/lib/validations/usage";

// What the usage by team sums, per dimension (docs/usage.md): units, each one workspace's share that belongs to one
// dimension value (its key), and the SQL of a unit's value on one of its workspace's report days. The ids come from
// the CTE `ws` (the workspaces in scope), the report days from the CTE `r` (id, day), the units from `u` (id, key).

/** Each workspace's key in the dimension, or several (a user in several groups), '' where it has none. */
const WORKSPACE_KEYS: Record<Exclude<UsageDimension, "agent">, SQL> = {
  organization: sql`select ws.id, coalesce(w.organization_id, '') as key from ws join workspaces w on w.id = ws.id`,
  owner: sql`select ws.id, w.owner as key from ws join workspaces w on w.id = ws.id`,
  template: sql`select ws.id, coalesce(w.template, '') as key from ws join workspaces w on w.id = ws.id`,
  // Every group of the owner: a workspace counts once in each of its owner's groups, and in none ('') without one.
  group: sql`select ws.id, coalesce(tm.group_id, '') as key from ws join workspaces w on w.id = ws.id
    left join team_members tm on tm.username = lower(w.owner)`,
};

/** A workspace's total on a report day: its roots' sum, as the fleet's total counts them. */
const WORKSPACE_VALUE = sql`(select wd.bytes from workspace_daily wd where wd.workspace_id = r.id and wd.day = r.day)`;

export type UsageUnits = { units: SQL; value: SQL };

/**
 * The units of a dimension, or of the whole (`null`: one unit per workspace, key ''). By agent a unit is a workspace's
 * roots of one agent, every agent it had on any of its days, worth 0 on a day it had none of that agent's roots: a
 * root that left the report leaves the agent's sum as it leaves the workspace's.
 */
export function usageUnits(dimension: UsageDimension | null): UsageUnits {
  if (dimension === null) return { units: sql`select ws.id, '' as key from ws`, value: WORKSPACE_VALUE };
  if (dimension !== "agent") return { units: WORKSPACE_KEYS[dimension], value: WORKSPACE_VALUE };
  return {
    units: sql`select distinct r.id, rd.agent as key from r join root_daily rd on rd.workspace_id = r.id and rd.day = r.day`,
    value: sql`coalesce((select sum(rd.bytes) from root_daily rd
      where rd.workspace_id = r.id and rd.day = r.day and rd.agent = u.key), 0)`,
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
