import "server-only";
import { differenceInMilliseconds } from "date-fns";
import { millisecondsInDay, millisecondsInHour } from "date-fns/constants";
import { and, count, desc, isNotNull, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { WorkspaceRef } from "@/lib/findings/finding";
import type { RuleSet } from "@/lib/findings/rules";
import { isSilent, silenceExpected } from "@/lib/findings/silence";
import { silentHours } from "@/lib/findings/rules";
import { daysBetween, isoOrNull, type Day } from "@/lib/series";
import { notDeleted } from "../deleted";
import { atRiskOrder, type VolumeAtRiskRow } from "./volumes-at-risk";
import { workspaces } from "../schema";
import { rowsOf, type Db } from "../types";
import type { FleetSeriesKey } from "./fleet-series";
import { fastestGrowingRows } from "./root-growth";
import { seriesNow } from "./workspace-series";
import { fullCondition, fullThresholds, toVolume, volumeColumns, type VolumeSummary } from "./volume";

// The fleet overview's panels other than its chart, one function each, read from the workspaces table and
// root_latest (and of root_daily only the day 7 days ago).

/** The workspaces table as alias `w`, for the SQL fragments written against it (volume, silence). */
const w = alias(workspaces, "w");

export type FleetTotals = {
  /** Sum of every workspace's newest total. */
  bytes: number;
  workspaces: number;
  /** Workspaces with at least one report. */
  reportingWorkspaces: number;
  roots: number;
};

export async function fleetTotals(db: Db): Promise<FleetTotals> {
  const [t] = await db
    .select({
      bytes: sql<number>`coalesce(sum(${workspaces.totalBytes}), 0)::float8`,
      workspaces: sql<number>`count(*)::int`,
      reporting: sql<number>`count(${workspaces.lastCollectedAt})::int`,
      roots: sql<number>`coalesce(sum(${workspaces.rootCount}), 0)::int`,
    })
    .from(workspaces)
    .where(isNull(workspaces.deletedAt));
  return {
    bytes: Number(t.bytes),
    workspaces: Number(t.workspaces),
    reportingWorkspaces: Number(t.reporting),
    roots: Number(t.roots),
  };
}

export type TopWorkspace = WorkspaceRef & {
  template: string | null;
  totalBytes: number;
  largestAgent: string | null;
  lastCollectedAt: string | null;
};

/** The largest workspaces (workspaces_total_idx). */
export async function topWorkspaces(db: Db, limit: number): Promise<TopWorkspace[]> {
  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      owner: workspaces.owner,
      template: workspaces.template,
      totalBytes: workspaces.totalBytes,
      largestAgent: workspaces.largestAgent,
      lastCollectedAt: workspaces.lastCollectedAt,
    })
    .from(workspaces)
    // Workspaces Coder has that never reported hold nothing measured: they are the coverage line's, not this list's.
    .where(and(isNull(workspaces.deletedAt), isNotNull(workspaces.lastCollectedAt)))
    .orderBy(desc(workspaces.totalBytes), workspaces.id)
    .limit(limit);
  return rows.map((r) => ({ ...r, totalBytes: Number(r.totalBytes), lastCollectedAt: isoOrNull(r.lastCollectedAt) }));
}

/** A series of the fleet chart (an agent, "modules", "script-data" or "other"), as its legend names it. */
export type TopAgent = { agent: FleetSeriesKey; bytes: number; workspaces: number; roots: number };

/** The largest series of the fleet chart now: grouped as the chart groups them, so each has one name on the page. */
// The fleet pages' lists below read the kept series (seriesNow), the kept growth and the volume columns as
// composed SQL, the queries the scale bench measures: they stay SQL through db.execute.
export async function topAgents(db: Db, limit: number): Promise<TopAgent[]> {
  const rows = rowsOf<{ key: string; bytes: number; workspaces: number; roots: number }>(
    await db.execute(sql`select key, bytes, workspaces, roots from (${await seriesNow(db)}) s
      order by bytes desc, key limit ${limit}`),
  );
  return rows.map((r) => ({
    agent: r.key,
    bytes: Number(r.bytes),
    workspaces: Number(r.workspaces),
    roots: Number(r.roots),
  }));
}

/** Every series of the fleet chart: the catalog's agents seen in reports, then modules, caches and the rest. */
const EVERY_SERIES = 1000;

/** The agents index (/agents) and its CSV: every series of the fleet chart now, largest first. */
export const everyAgent = (db: Db): Promise<TopAgent[]> => topAgents(db, EVERY_SERIES);

export type GrowingRoot = {
  workspace: WorkspaceRef;
  rootKey: string;
  agent: string;
  kind: string;
  bytes: number;
  /** The root's value on `sinceDay`. */
  bytesBefore: number;
  growthBytes: number;
  growthBytesPerDay: number;
  sinceDay: Day;
};

type GrowingRootRow = {
  workspace_id: string;
  name: string;
  owner: string;
  root_key: string;
  agent: string;
  kind: string;
  bytes: number;
  bytes_before: number;
  latest_day: Day;
};

/**
 * Roots that grew the most since their daily value on `sinceDay` (roots without a value that day are left out):
 * kept per workspace by ingest and maintenance (root-growth.ts).
 */
export async function fastestGrowingRoots(db: Db, sinceDay: Day, limit: number): Promise<GrowingRoot[]> {
  const rows = rowsOf<GrowingRootRow>(
    await db.execute(sql`select x.workspace_id, w.name, w.owner, x.root_key, x.agent, x.kind, x.bytes::float8 as bytes,
        x.bytes_before::float8 as bytes_before, x.latest_day
      from (${fastestGrowingRows(sinceDay, limit)}) x join workspaces w on w.id = x.workspace_id
      order by x.growth desc, x.workspace_id, x.root_key`),
  );
  return rows.map((r) => {
    const g = Number(r.bytes) - Number(r.bytes_before);
    return {
      workspace: { id: r.workspace_id, name: r.name, owner: r.owner },
      rootKey: r.root_key,
      agent: r.agent,
      kind: r.kind,
      bytes: Number(r.bytes),
      bytesBefore: Number(r.bytes_before),
      growthBytes: g,
      growthBytesPerDay: g / Math.max(1, daysBetween(sinceDay, r.latest_day)),
      sinceDay,
    };
  });
}

export type VolumeAtRisk = {
  workspace: WorkspaceRef;
  volume: VolumeSummary;
  /** Null for a full volume (it no longer grows, so it has no forecast). */
  forecastFullAt: string | null;
  daysUntilFull: number | null;
  growthBytesPerDay: number | null;
};

/**
 * Volumes that are full (df Use% or IUse% at the full rules' thresholds) first, least free space first; then
 * volumes forecast to fill within `fillingDays` (the volume-filling rule's, null when it is off), soonest first:
 * the at-risk page's order (volumes-at-risk.ts).
 */
export async function volumesAtRisk(
  db: Db,
  opts: { rules: RuleSet; now: Date; fillingDays: number | null; limit: number },
): Promise<VolumeAtRisk[]> {
  const full = fullThresholds(opts.rules);
  const isFull = fullCondition(full);
  const nowTs = sql`${opts.now.toISOString()}::timestamptz`;
  const filling =
    opts.fillingDays === null
      ? sql`false`
      : sql`w.forecast_full_at <= ${nowTs} + make_interval(days => ${opts.fillingDays})`;
  const rows = rowsOf<VolumeAtRiskRow>(
    await db.execute(sql`select w.id, w.name, w.owner, w.forecast_full_at, ${volumeColumns},
        w.growth_bytes_per_day::float8 as growth_bytes_per_day, ${isFull} as is_full
      from workspaces w where (${isFull} or (${filling})) and ${notDeleted}
      order by ${atRiskOrder(isFull)}
      limit ${opts.limit}`),
  );
  return rows.flatMap((r) => {
    const volume = toVolume(r, full);
    if (!volume) return [];
    const at = r.is_full || r.forecast_full_at === null ? null : new Date(r.forecast_full_at);
    return [
      {
        workspace: { id: r.id, name: r.name, owner: r.owner },
        volume,
        forecastFullAt: at ? at.toISOString() : null,
        daysUntilFull: at ? differenceInMilliseconds(at, opts.now) / millisecondsInDay : null,
        growthBytesPerDay: r.growth_bytes_per_day === null ? null : Number(r.growth_bytes_per_day),
      },
    ];
  });
}

export type SilentWorkspaces = {
  /** What silent means: the silent-workspace rule's hours (lib/findings/silence.ts). */
  hours: number;
  /** Silent while Coder says they run (or Coder does not describe them): their reporter is broken. */
  count: number;
  /** Silent, and stopped or dormant in Coder: expected, listed apart. */
  expected: number;
  /** The `count` ones, longest silent first. */
  workspaces: (WorkspaceRef & { lastCollectedAt: string | null; hoursSilent: number | null })[];
};

/**
 * Workspaces without a report for over the silent-workspace rule's hours (counted from enrollment when they never
 * reported), split by what Coder says: running (or unknown to Coder) is a broken reporter; stopped or dormant is
 * expected. Workspaces deleted in Coder are neither.
 */
export async function silentWorkspaces(
  db: Db,
  opts: { rules: RuleSet; now: Date; limit: number },
): Promise<SilentWorkspaces> {
  const hours = silentHours(opts.rules);
  const quiet = sql`${isSilent(hours, sql`${opts.now.toISOString()}::timestamptz`)} and ${notDeleted}`;
  const silent = sql`${quiet} and not ${silenceExpected}`;
  const [[n], [e], rows] = await Promise.all([
    db.select({ n: count() }).from(w).where(silent),
    db
      .select({ n: count() })
      .from(w)
      .where(sql`${quiet} and ${silenceExpected}`),
    db
      .select({ id: w.id, name: w.name, owner: w.owner, lastCollectedAt: w.lastCollectedAt })
      .from(w)
      .where(silent)
      .orderBy(sql`${w.lastCollectedAt} nulls first`, w.id)
      .limit(opts.limit),
  ]);
  return {
    hours,
    count: Number(n.n),
    expected: Number(e.n),
    workspaces: rows.map((r) => ({
      id: r.id,
      name: r.name,
      owner: r.owner,
      lastCollectedAt: isoOrNull(r.lastCollectedAt),
      hoursSilent:
        r.lastCollectedAt === null ? null : differenceInMilliseconds(opts.now, r.lastCollectedAt) / millisecondsInHour,
    })),
  };
}
