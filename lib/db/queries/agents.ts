import "server-only";
import { agentById, OTHER_AGENT } from "@/lib/catalog/agents";
import { sql } from "drizzle-orm";
import { notDeleted, ofLiveWorkspace } from "../deleted";
import { rowsOf, type Db } from "../types";
import { retentionShares, type RetentionShare } from "./agent-retention";
import { dayOfRoots, GROWTH_DAYS } from "./root-growth";
import { clampToRollups, getHorizons } from "./retention";
import type { WorkspaceRef } from "@/lib/findings/finding";
import {
  addDaysTo,
  cumulativeLevels,
  daysBetween,
  eachDay,
  logHistogram,
  median,
  resolveRange,
  utcDayOf,
  type Day,
  type DayRange,
  type HistogramBucket,
  type RangeParams,
} from "@/lib/series";

/** Agents the reporter's catalog knows have a page even before any data. */
const isKnownAgent = (slug: string) => slug === OTHER_AGENT || agentById(slug) !== undefined;

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
 * One agent across the fleet, from root_latest (index on agent) and fleet_delta; growth compares each root of
 * the agent in root_latest with its root_daily value 7 days ago, read as that one day of root_daily (a lookup
 * per root would walk root_daily's key index, which grows with history).
 * Null for a slug that is neither known nor seen in any data (the route answers 404).
 */
export async function getAgentDetail(
  db: Db,
  agent: string,
  params: AgentDetailParams = {},
): Promise<AgentDetail | null> {
  const now = params.now ?? new Date();
  const limit = params.limit ?? 10;
  const range = clampToRollups(resolveRange(params, now), (await getHorizons(db)).rollups);
  const sinceDay = addDaysTo(utcDayOf(now), -GROWTH_DAYS);

  const [perWorkspace, kinds, deltas, growthRows, ages, retention] = await Promise.all([
    db.execute(sql`select r.workspace_id, w.name, w.owner, sum(r.bytes)::float8 as bytes, count(*)::int as roots
      from root_latest r join workspaces w on w.id = r.workspace_id where r.agent = ${agent} and ${notDeleted}
      group by r.workspace_id, w.name, w.owner`),
    db.execute(sql`select kind, sum(bytes)::float8 as bytes, count(*)::int as roots from root_latest
      where agent = ${agent} and ${ofLiveWorkspace(sql`workspace_id`)} group by kind order by 2 desc, 1`),
    db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, sum(bytes)::float8 as bytes, sum(roots)::int as roots
      from fleet_delta where agent = ${agent} and day > ${range.from}::date group by 1`),
    db.execute(sql`select l.workspace_id, sum(l.bytes)::float8 as now_bytes, sum(d.bytes)::float8 as then_bytes,
        to_char(max(l.collected_at) at time zone 'UTC', 'YYYY-MM-DD') as latest_day
      from root_latest l join (${dayOfRoots(sinceDay)}) d on d.workspace_id = l.workspace_id and d.root_key = l.root_key
      where l.agent = ${agent} and ${ofLiveWorkspace(sql`l.workspace_id`)} group by l.workspace_id`),
    db.execute(sql`select coalesce(sum(coalesce((ages -> '90d' ->> 'bytes')::float8, 0)
          + coalesce((ages -> 'older' ->> 'bytes')::float8, 0)), 0) as old,
        coalesce(sum((select sum((v ->> 'bytes')::float8) from jsonb_each(ages) as e(k, v))), 0) as aged
      from root_latest where agent = ${agent} and ${ofLiveWorkspace(sql`workspace_id`)}`),
    retentionShares(db, agent),
  ]);

  const ws = rowsOf<{ workspace_id: string; name: string; owner: string; bytes: number; roots: number }>(
    perWorkspace,
  ).map((r) => ({ id: r.workspace_id, name: r.name, owner: r.owner, bytes: Number(r.bytes), roots: Number(r.roots) }));
  const deltaRows = rowsOf<{ day: Day; bytes: number; roots: number }>(deltas);
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

  const perDay = rowsOf<{ now_bytes: number; then_bytes: number; latest_day: Day }>(growthRows).map(
    (r) => (Number(r.now_bytes) - Number(r.then_bytes)) / Math.max(1, daysBetween(sinceDay, r.latest_day)),
  );
  const a = rowsOf<{ old: number; aged: number }>(ages)[0];
  const old = Number(a?.old ?? 0);
  const aged = Number(a?.aged ?? 0);
  ws.sort((x, y) => y.bytes - x.bytes || x.id.localeCompare(y.id));

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
    byKind: rowsOf<{ kind: string; bytes: number; roots: number }>(kinds).map((r) => ({
      kind: r.kind,
      bytes: Number(r.bytes),
      roots: Number(r.roots),
    })),
    distribution: logHistogram(ws.map((w) => w.bytes)),
    largestWorkspaces: ws.slice(0, limit),
    growth: { medianBytesPerDay: median(perDay), workspacesMeasured: perDay.length, sinceDay },
    oldData: { bytes: old, agedBytes: aged, share: aged > 0 ? old / aged : null },
    retention,
  };
}
