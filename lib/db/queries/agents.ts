import "server-only";
import { agentById, OTHER_AGENT } from "@/lib/catalog/agents";
import { and, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import { ofLiveWorkspace } from "../deleted";
import { fleetDelta, workspaces } from "../schema";
import { rowsOf, type Db } from "../types";
import { retentionShares, type RetentionShare } from "./agent-retention";
import { agentRows, growthSinceDay, notKeptFor } from "./root-growth";
import { clampToRollups, getHorizons } from "./retention";
import type { WorkspaceRef } from "@/lib/findings/finding";
import {
  cumulativeLevels,
  daysBetween,
  eachDay,
  logHistogram,
  median,
  resolveRange,
  type Day,
  type DayRange,
  type HistogramBucket,
  type RangeParams,
} from "@/lib/series";

/** Agents the reporter's catalog knows have a page even before any data. */
export const isKnownAgent = (slug: string) => slug === OTHER_AGENT || agentById(slug) !== undefined;

export type AgentDetailParams = RangeParams & { now?: Date; limit?: number };

export type AgentDetail = {
  agent: string;
  /** False when no workspace has reported data of this agent (a known agent: everything below is empty/0). */
  hasData: boolean;
  range: DayRange;
  total: { bytes: number; workspaces: number; roots: number };
  /** Fleet bytes of this agent at the end of each day of the range (from the fleet roll-up), every day present. */
  series: { day: Day; bytes: number; roots: number }[];
  /** Bytes by root kind now (tool, module, legacy, leftover, ...). */
  byKind: { kind: string; bytes: number; roots: number }[];
  /** Per-workspace bytes of this agent in log-scale bins (<1 MiB, 1–4 MiB, 4–16 MiB, …). */
  distribution: HistogramBucket[];
  largestWorkspaces: (WorkspaceRef & { bytes: number; roots: number })[];
  growth: {
    /** Median over workspaces of (bytes now − bytes on `sinceDay`) / days; null when none can be measured. */
    medianBytesPerDay: number | null;
    /** Workspaces that had a value on `sinceDay`. */
    workspacesMeasured: number;
    sinceDay: Day;
  };
  /** Bytes in files older than 30 days (age buckets "90d" and "older"), and their share of all aged bytes. */
  oldData: { bytes: number; agedBytes: number; share: number | null };
  /** The agent's own retention across the fleet, most common first (empty where it is not known). */
  retention: RetentionShare[];
};

/**
 * The agent's rows of each live workspace and kind (workspace_agents, kept by the day 7 days ago; computed at the
 * request for the workspaces whose kept rows are of another day), summed per workspace, per kind and in all:
 * columns workspace_id (null on the other sums), kind (null on the others), bytes, roots, old, aged, now_bytes,
 * then_bytes (the roots that had a value on `sinceDay`, null where none had), latest_day.
 */
function agentSums(agent: string, sinceDay: Day): SQL {
  const kept = sql`select a.workspace_id, a.kind, a.bytes, a.roots, a.old_bytes, a.aged_bytes, a.measured_bytes,
      a.bytes_before, a.measured_day
    from workspace_agents a where a.agent = ${agent}
      and (select m.since_day from root_growth_days m where m.workspace_id = a.workspace_id) = ${sinceDay}::date`;
  const computed = sql`select c.workspace_id, c.kind, c.bytes, c.roots, c.old_bytes, c.aged_bytes, c.measured_bytes,
      c.bytes_before, c.measured_day
    from (${agentRows(sinceDay, sql`l.agent = ${agent} and l.workspace_id in (select w.id from workspaces w where ${notKeptFor(sinceDay)})`)}) c`;
  return sql`select r.workspace_id, r.kind, sum(r.bytes)::float8 as bytes, sum(r.roots)::int as roots,
      sum(r.old_bytes)::float8 as old, sum(r.aged_bytes)::float8 as aged, sum(r.measured_bytes)::float8 as now_bytes,
      sum(r.bytes_before)::float8 as then_bytes, to_char(max(r.measured_day), 'YYYY-MM-DD') as latest_day
    from (${kept} union all ${computed}) r where ${ofLiveWorkspace(sql`r.workspace_id`)}
    group by grouping sets ((r.workspace_id), (r.kind), ())`;
}

type SumRow = {
  workspace_id: string | null;
  kind: string | null;
  bytes: number;
  roots: number;
  old: number;
  aged: number;
  now_bytes: number | null;
  then_bytes: number | null;
  latest_day: Day | null;
};

/**
 * One agent across the fleet: its sums per workspace and kind (agentSums) and its day-by-day change from
 * fleet_delta. Null for a slug that is neither known nor seen in any data (the route answers 404).
 */
export async function getAgentDetail(
  db: Db,
  agent: string,
  params: AgentDetailParams = {},
): Promise<AgentDetail | null> {
  const now = params.now ?? new Date();
  const limit = params.limit ?? 10;
  const range = clampToRollups(resolveRange(params, now), (await getHorizons(db)).rollups);
  const sinceDay = growthSinceDay(now);

  const deltaDay = sql<Day>`to_char(${fleetDelta.day}, 'YYYY-MM-DD')`;
  // The sums are agentSums' SQL, shared with the kept growth (root-growth.ts): db.execute, typed by SumRow.
  const [sums, deltaRows, retention] = await Promise.all([
    db.execute(agentSums(agent, sinceDay)),
    db
      .select({
        day: deltaDay,
        bytes: sql<number>`sum(${fleetDelta.bytes})::float8`,
        roots: sql<number>`sum(${fleetDelta.roots})::int`,
      })
      .from(fleetDelta)
      .where(and(eq(fleetDelta.agent, agent), gt(fleetDelta.day, range.from)))
      .groupBy(deltaDay),
    retentionShares(db, agent),
  ]);
  const rows = rowsOf<SumRow>(sums);
  const perWorkspace = rows.filter((r) => r.workspace_id !== null);
  const all = rows.find((r) => r.workspace_id === null && r.kind === null);

  const ws = perWorkspace.map((r) => ({ id: r.workspace_id!, bytes: Number(r.bytes), roots: Number(r.roots) }));
  if (ws.length === 0 && deltaRows.length === 0 && !isKnownAgent(agent)) return null;

  // The level on the range's first day is the level now (root_latest) minus every delta after it; then the
  // deltas inside the range are summed day by day. Only the range's deltas are read.
  const days = eachDay(range.from, range.to);
  const byDay = new Map(deltaRows.map((r) => [r.day, Number(r.bytes)]));
  const rootsByDay = new Map(deltaRows.map((r) => [r.day, Number(r.roots)]));
  const nowBytes = ws.reduce((s, w) => s + w.bytes, 0);
  const nowRoots = ws.reduce((s, w) => s + w.roots, 0);
  const sum = (m: Map<Day, number>) => [...m.values()].reduce((s, v) => s + v, 0);
  const levels = cumulativeLevels(days.slice(1), byDay, nowBytes - sum(byDay));
  const rootLevels = cumulativeLevels(days.slice(1), rootsByDay, nowRoots - sum(rootsByDay));
  levels.unshift(nowBytes - sum(byDay));
  rootLevels.unshift(nowRoots - sum(rootsByDay));

  const perDay = perWorkspace
    .filter((r) => r.then_bytes !== null)
    .map((r) => (Number(r.now_bytes) - Number(r.then_bytes)) / Math.max(1, daysBetween(sinceDay, r.latest_day!)));
  const old = Number(all?.old ?? 0);
  const aged = Number(all?.aged ?? 0);
  ws.sort((x, y) => y.bytes - x.bytes || x.id.localeCompare(y.id));
  const largest = ws.slice(0, limit);
  const names = largest.length
    ? await db
        .select({ id: workspaces.id, name: workspaces.name, owner: workspaces.owner })
        .from(workspaces)
        .where(
          inArray(
            workspaces.id,
            largest.map((w) => w.id),
          ),
        )
    : [];
  const nameOf = new Map(names.map((n) => [n.id, n]));

  return {
    agent,
    hasData: ws.length > 0 || deltaRows.length > 0,
    range,
    total: {
      bytes: ws.reduce((s, w) => s + w.bytes, 0),
      workspaces: ws.length,
      roots: ws.reduce((s, w) => s + w.roots, 0),
    },
    series: days.map((day, i) => ({ day, bytes: levels[i], roots: rootLevels[i] })),
    byKind: rows
      .filter((r) => r.kind !== null)
      .map((r) => ({ kind: r.kind!, bytes: Number(r.bytes), roots: Number(r.roots) }))
      .sort((x, y) => y.bytes - x.bytes || x.kind.localeCompare(y.kind)),
    distribution: logHistogram(ws.map((w) => w.bytes)),
    // a workspace deleted since the sums were read is left out
    largestWorkspaces: largest.flatMap((w) => {
      const n = nameOf.get(w.id);
      return n ? [{ ...w, name: n.name, owner: n.owner }] : [];
    }),
    growth: { medianBytesPerDay: median(perDay), workspacesMeasured: perDay.length, sinceDay },
    oldData: { bytes: old, agedBytes: aged, share: aged > 0 ? old / aged : null },
    retention,
  };
}
