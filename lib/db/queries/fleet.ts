import "server-only";
import { differenceInMilliseconds } from "date-fns";
import { millisecondsInDay, millisecondsInHour } from "date-fns/constants";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../types";
import { getFindingsSummary, getRules, type FindingsSummary } from "./findings";
import { clampToRollups, getHorizons } from "./retention";
import { fullCondition, fullThresholds, toVolume, volumeColumns, type VolumeColumns, type VolumeSummary } from "./volume";
import { addDaysTo, daysBetween, eachDay, isoOrNull, resolveRange, utcDayOf, type Day, type DayRange, type RangeParams } from "@/lib/series";
import type { WorkspaceRef } from "@/lib/findings/finding";
import { isSilent, silentHours } from "@/lib/findings/silence";

export type { WorkspaceRef };

/**
 * Series keys of the fleet chart: an agent slug (its tool data, legacy folders, leftovers and the modules that
 * belong to it), "modules" (module folders of no known agent), "script-data" (coder-script-data folders,
 * current and orphaned) and "other".
 */
export type FleetSeriesKey = string;

export type Growth = {
  /** Bytes now minus bytes then (negative when the fleet shrank). */
  bytes: number;
  /** Relative to the level then; null when that level was 0. */
  ratio: number | null;
};

export type FleetSeriesPoint = {
  day: Day;
  /** Bytes per series key at the end of the day (every key of `keys` present, 0 when none). */
  values: Record<FleetSeriesKey, number>;
  total: number;
};

export type FleetOverviewParams = RangeParams & { now?: Date; limit?: number };

export type FleetOverview = {
  range: DayRange;
  generatedAt: string;
  total: {
    /** Sum of every workspace's newest total. */
    bytes: number;
    workspaces: number;
    /** Workspaces with at least one report. */
    reportingWorkspaces: number;
    roots: number;
  };
  /** Change of the fleet level (from the fleet roll-up) over the last 1, 7 and 30 days, ending today (UTC). */
  growth: { d1: Growth; d7: Growth; d30: Growth };
  series: {
    /** Largest first (by the last day's bytes). */
    keys: FleetSeriesKey[];
    /** One point per day of the range, oldest first, every day present. */
    points: FleetSeriesPoint[];
  };
  topWorkspaces: (WorkspaceRef & {
    template: string | null;
    totalBytes: number;
    largestAgent: string | null;
    lastCollectedAt: string | null;
  })[];
  topAgents: { agent: string; bytes: number; workspaces: number; roots: number }[];
  /** Roots that grew the most since their daily value 7 days ago (roots without a value that day are left out). */
  fastestGrowingRoots: {
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
  }[];
  /**
   * Volumes that are full (df Use% or IUse% at the full rule's threshold) first, fullest first; then volumes
   * forecast to fill within the volume-filling rule's days, soonest first.
   */
  volumesAtRisk: {
    workspace: WorkspaceRef;
    volume: VolumeSummary;
    /** Null for a full volume (it no longer grows, so it has no forecast). */
    forecastFullAt: string | null;
    daysUntilFull: number | null;
    growthBytesPerDay: number | null;
  }[];
  /** The volume-filling rule's horizon in days (what "filling soon" means), null when the rule is off. */
  fillingDays: number | null;
  /**
   * Workspaces without a report for over the silent-workspace rule's `hours` (counted from enrollment when
   * they never reported), longest silent first.
   */
  silent: { hours: number; count: number; workspaces: (WorkspaceRef & { lastCollectedAt: string | null; hoursSilent: number | null })[] };
  findings: FindingsSummary;
};


/** SQL for the series key of a fleet_delta / root_latest row (see FleetSeriesKey). */
export const seriesKeySql = sql.raw(
  `case when kind = 'script-data' then 'script-data' when kind = 'module' and agent = 'other' then 'modules' else agent end`,
);

/**
 * Every root's root_daily row of `day`, read as one range of the day-first primary key. OFFSET 0 keeps the planner from
 * flattening it into a lookup per root_latest row: those probes land all over root_daily's key index, which
 * grows with the length of history, while one day's rows are a fixed amount (and stored together, since
 * ingest appends day by day).
 */
export const dayOfRoots = (day: Day) =>
  sql`select workspace_id, root_key, bytes from root_daily where day = ${day}::date offset 0`;

const GROWTH_DAYS = 7;

function growth(now: number, then: number): Growth {
  return { bytes: now - then, ratio: then === 0 ? null : (now - then) / then };
}

/**
 * The fleet page's data, read from the workspaces table, root_latest and the roll-ups only (never history);
 * of root_daily only the day 7 days ago (the fastest-growing roots).
 * Levels of the fleet series are cumulative sums of fleet_delta; the sum of every delta is the level now, which
 * root_latest holds, so the series is walked back from it with the deltas of the days shown only (folding all
 * earlier deltas into a starting level instead would read the whole roll-up and grow with history).
 * A range reaching back past the roll-ups' retention starts at its horizon (the returned `range` says so):
 * expired changes are folded into one baseline row, so levels from the horizon on are exact, earlier unknown.
 */
export async function getFleetOverview(db: Db, params: FleetOverviewParams = {}): Promise<FleetOverview> {
  const now = params.now ?? new Date();
  const limit = params.limit ?? 10;
  const [rules, horizons] = await Promise.all([getRules(db), getHorizons(db)]);
  const range = clampToRollups(resolveRange(params, now), horizons.rollups);
  const today = utcDayOf(now);
  // Days needed: the range, and today back to 30 days ago for the growth figures.
  const first = [range.from, addDaysTo(today, -30)].sort()[0];
  const last = [range.to, today].sort()[1];
  const before = addDaysTo(first, -1);
  const nowTs = sql`${now.toISOString()}::timestamptz`;
  const sinceDay = addDaysTo(today, -GROWTH_DAYS);
  const full = fullThresholds(rules);
  const isFull = fullCondition(full);
  const fillingDays = rules["volume-filling"].enabled ? rules["volume-filling"].params.days : null;
  const hoursSilent = silentHours(rules);
  const silent = isSilent(hoursSilent, nowTs);

  const [deltaRows, totals, topWorkspaces, agents, growing, filling, silentCount, silentRows, findings] = await Promise.all([
    // Levels now per series key (root_latest), and the deltas after `before`: the level on a day D is the level
    // now minus every delta after D. Neither read grows with the length of history.
    db.execute(sql`select key, null as day, sum(bytes)::float8 as bytes from
        (select ${seriesKeySql} as key, bytes from root_latest) x group by key
      union all
      select ${seriesKeySql} as key, to_char(day, 'YYYY-MM-DD') as day, sum(bytes)::float8 as bytes
        from fleet_delta where day > ${before}::date group by 1, 2`),
    db.execute(sql`select coalesce(sum(total_bytes), 0)::float8 as bytes, count(*)::int as workspaces,
        count(last_collected_at)::int as reporting, coalesce(sum(root_count), 0)::int as roots from workspaces`),
    db.execute(sql`select id, name, owner, template, total_bytes::float8 as total_bytes, largest_agent, last_collected_at
      from workspaces order by total_bytes desc, id limit ${limit}`),
    db.execute(sql`select agent, sum(bytes)::float8 as bytes, count(distinct workspace_id)::int as workspaces,
        count(*)::int as roots from root_latest group by agent order by 2 desc, 1 limit ${limit}`),
    db.execute(sql`select l.workspace_id, w.name, w.owner, l.root_key, l.agent, l.kind, l.bytes::float8 as bytes,
        d.bytes::float8 as bytes_before, to_char(l.collected_at at time zone 'UTC', 'YYYY-MM-DD') as latest_day
      from (${dayOfRoots(sinceDay)}) d
      join root_latest l on l.workspace_id = d.workspace_id and l.root_key = d.root_key
      join workspaces w on w.id = l.workspace_id
      where l.bytes > d.bytes
      order by l.bytes - d.bytes desc, l.workspace_id, l.root_key limit ${limit}`),
    db.execute(sql`select w.id, w.name, w.owner, w.forecast_full_at, ${volumeColumns},
        w.growth_bytes_per_day::float8 as growth_bytes_per_day, ${isFull} as is_full
      from workspaces w where ${isFull}
        or (${fillingDays === null ? sql`false` : sql`w.forecast_full_at <= ${nowTs} + make_interval(days => ${fillingDays})`})
      order by ${isFull} desc, greatest(w.volume_used_pct, coalesce(w.volume_inodes_used_pct, 0)) desc, w.forecast_full_at, w.id
      limit ${limit}`),
    db.execute(sql`select count(*)::int as n from workspaces w where ${silent}`),
    db.execute(sql`select id, name, owner, last_collected_at from workspaces w where ${silent}
      order by last_collected_at nulls first, id limit ${limit}`),
    getFindingsSummary(db, { now, rules }),
  ]);

  // Levels per key and day, walking back from the level now: level(D - 1) = level(D) - delta(D). Deltas dated
  // after `last` (a reporter clock slightly ahead) are taken off first.
  const deltas = new Map<string, Map<Day, number>>();
  const running: Record<string, number> = {};
  for (const r of rowsOf<{ key: string; day: Day | null; bytes: number }>(deltaRows)) {
    if (!deltas.has(r.key)) deltas.set(r.key, new Map());
    running[r.key] ??= 0;
    if (r.day === null) running[r.key] += Number(r.bytes);
    else if (r.day > last) running[r.key] -= Number(r.bytes);
    else deltas.get(r.key)!.set(r.day, Number(r.bytes));
  }
  const allDays = eachDay(before, last);
  const levelOn = new Map<Day, Record<string, number>>();
  for (let i = allDays.length - 1; i >= 0; i--) {
    levelOn.set(allDays[i], { ...running });
    for (const [key, byDay] of deltas) running[key] -= byDay.get(allDays[i]) ?? 0;
  }
  const totalOn = (day: Day) => Object.values(levelOn.get(day) ?? {}).reduce((s, v) => s + v, 0);
  const rangeDays = eachDay(range.from, range.to);
  const lastLevels = levelOn.get(range.to) ?? {};
  const keys = [...deltas.keys()].sort((a, b) => (lastLevels[b] ?? 0) - (lastLevels[a] ?? 0) || a.localeCompare(b));
  const points: FleetSeriesPoint[] = rangeDays.map((day) => {
    const lv = levelOn.get(day)!;
    const values: Record<string, number> = {};
    for (const k of keys) values[k] = lv[k] ?? 0;
    return { day, values, total: keys.reduce((s, k) => s + values[k], 0) };
  });
  const t = rowsOf<{ bytes: number; workspaces: number; reporting: number; roots: number }>(totals)[0];
  const levelToday = totalOn(today);
  const ref = (r: { id?: string; workspace_id?: string; name: string; owner: string }) => ({
    id: (r.id ?? r.workspace_id)!,
    name: r.name,
    owner: r.owner,
  });

  return {
    range,
    generatedAt: now.toISOString(),
    total: { bytes: Number(t.bytes), workspaces: Number(t.workspaces), reportingWorkspaces: Number(t.reporting), roots: Number(t.roots) },
    growth: {
      d1: growth(levelToday, totalOn(addDaysTo(today, -1))),
      d7: growth(levelToday, totalOn(addDaysTo(today, -7))),
      d30: growth(levelToday, totalOn(addDaysTo(today, -30))),
    },
    series: { keys, points },
    topWorkspaces: rowsOf<{
      id: string; name: string; owner: string; template: string | null; total_bytes: number;
      largest_agent: string | null; last_collected_at: Date | string | null;
    }>(topWorkspaces).map((r) => ({
      ...ref(r),
      template: r.template,
      totalBytes: Number(r.total_bytes),
      largestAgent: r.largest_agent,
      lastCollectedAt: isoOrNull(r.last_collected_at),
    })),
    topAgents: rowsOf<{ agent: string; bytes: number; workspaces: number; roots: number }>(agents).map((r) => ({
      agent: r.agent,
      bytes: Number(r.bytes),
      workspaces: Number(r.workspaces),
      roots: Number(r.roots),
    })),
    fastestGrowingRoots: rowsOf<{
      workspace_id: string; name: string; owner: string; root_key: string; agent: string; kind: string;
      bytes: number; bytes_before: number; latest_day: Day;
    }>(growing).map((r) => {
      const g = Number(r.bytes) - Number(r.bytes_before);
      return {
        workspace: ref(r),
        rootKey: r.root_key,
        agent: r.agent,
        kind: r.kind,
        bytes: Number(r.bytes),
        bytesBefore: Number(r.bytes_before),
        growthBytes: g,
        growthBytesPerDay: g / Math.max(1, daysBetween(sinceDay, r.latest_day)),
        sinceDay,
      };
    }),
    volumesAtRisk: rowsOf<
      VolumeColumns & { id: string; name: string; owner: string; forecast_full_at: Date | string | null; growth_bytes_per_day: number | null; is_full: boolean }
    >(filling).flatMap((r) => {
      const volume = toVolume(r, full);
      if (!volume) return [];
      const at = r.is_full || r.forecast_full_at === null ? null : new Date(r.forecast_full_at);
      return [{
        workspace: ref(r),
        volume,
        forecastFullAt: at ? at.toISOString() : null,
        daysUntilFull: at ? differenceInMilliseconds(at, now) / millisecondsInDay : null,
        growthBytesPerDay: r.growth_bytes_per_day === null ? null : Number(r.growth_bytes_per_day),
      }];
    }),
    fillingDays,
    silent: {
      hours: hoursSilent,
      count: Number(rowsOf<{ n: number }>(silentCount)[0].n),
      workspaces: rowsOf<{ id: string; name: string; owner: string; last_collected_at: Date | string | null }>(silentRows).map(
        (r) => ({
          ...ref(r),
          lastCollectedAt: isoOrNull(r.last_collected_at),
          hoursSilent: r.last_collected_at === null ? null : differenceInMilliseconds(now, new Date(r.last_collected_at)) / millisecondsInHour,
        }),
      ),
    },
    findings,
  };
}
