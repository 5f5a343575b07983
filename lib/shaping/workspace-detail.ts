// Pure shaping of the workspace page's series: each root's daily values carried forward over days without a
// report, the volume's used space and capacity per day, and the forecast line. No database: unit-tested alone.
import type { AgeBreakdown, CategoryBreakdown, LargestEntry, LeftoverEntry } from "@/lib/report-format/schema";
import { addDaysTo, fillCarryForward, utcDayOf, type Day } from "@/lib/series";

export type RootRef = { key: string; agent: string; kind: string };

export type WorkspaceUsagePoint = {
  day: Day;
  /** Bytes per root key at the end of the day; roots that did not exist yet are absent. */
  values: Record<string, number>;
  total: number;
  /**
   * False when the workspace sent no report that day: values are carried forward from the last day that had
   * one (draw such days dashed or hatched). Days before the first report have no values and total 0.
   */
  reported: boolean;
};

export type RootDayValue = RootRef & { day: Day; bytes: number };

/**
 * Usage by root over `days`: each root's own daily values, carried forward from its last value before the
 * range (`start`). Roots that are zero or absent over the whole range are left out; largest on the last day first.
 */
export function usageByRoot(
  days: readonly Day[],
  start: readonly (RootRef & { bytes: number })[],
  daily: readonly RootDayValue[],
  reportedDays: ReadonlySet<Day>,
): { roots: RootRef[]; points: WorkspaceUsagePoint[] } {
  const perRoot = new Map<string, { ref: RootRef; start: number | null; values: Map<Day, number> }>();
  const entry = (r: RootRef) => {
    let e = perRoot.get(r.key);
    if (!e)
      perRoot.set(r.key, (e = { ref: { key: r.key, agent: r.agent, kind: r.kind }, start: null, values: new Map() }));
    return e;
  };
  for (const r of start) entry(r).start = r.bytes;
  for (const r of daily) entry(r).values.set(r.day, r.bytes);
  const filled = [...perRoot.values()]
    .map((e) => ({ ref: e.ref, points: fillCarryForward(days, e.values, e.start) }))
    .filter((e) => e.points.some((pt) => pt.value !== null && pt.value !== 0));
  const lastOf = (e: (typeof filled)[number]) => e.points[e.points.length - 1].value ?? 0;
  filled.sort((a, b) => lastOf(b) - lastOf(a) || a.ref.key.localeCompare(b.ref.key));
  const points = days.map((day, i) => {
    const values: Record<string, number> = {};
    let total = 0;
    for (const e of filled) {
      const v = e.points[i].value;
      if (v === null) continue;
      values[e.ref.key] = v;
      total += v;
    }
    return { day, values, total, reported: reportedDays.has(day) };
  });
  return { roots: filled.map((e) => e.ref), points };
}

/** A day's volume as df showed it at the day's last report: Used and Avail. */
export type VolumeDay = { day: Day; usedBytes: number | null; availBytes: number | null };

export type VolumeHistoryPoint = {
  day: Day;
  usedBytes: number | null;
  /** Used + Avail: what the workspace's user can fill (df's Size less the space reserved for root). */
  capacityBytes: number | null;
  reported: boolean;
};

/** Used space and capacity per day, carried forward from the last day before the range (`start`). */
export function volumeHistory(
  days: readonly Day[],
  rows: readonly VolumeDay[],
  start: Omit<VolumeDay, "day"> | null,
  reportedDays: ReadonlySet<Day>,
): VolumeHistoryPoint[] {
  const capacityOf = (r: Omit<VolumeDay, "day"> | null) =>
    r && r.usedBytes !== null && r.availBytes !== null ? r.usedBytes + r.availBytes : null;
  const used = new Map<Day, number>();
  const capacity = new Map<Day, number>();
  for (const r of rows) {
    if (r.usedBytes !== null) used.set(r.day, r.usedBytes);
    const c = capacityOf(r);
    if (c !== null) capacity.set(r.day, c);
  }
  const usedFilled = fillCarryForward(days, used, start?.usedBytes ?? null);
  const capacityFilled = fillCarryForward(days, capacity, capacityOf(start));
  return days.map((day, i) => ({
    day,
    usedBytes: usedFilled[i].value,
    capacityBytes: capacityFilled[i].value,
    reported: reportedDays.has(day),
  }));
}

/**
 * The forecast line: used space projected at `slopeBytesPerDay` from the newest report's day until it reaches
 * capacity, at most `horizonDays` ahead. Empty when the volume is not growing.
 */
export function forecastLine(opts: {
  slopeBytesPerDay: number | null;
  usedBytes: number | null;
  capacityBytes: number | null;
  lastCollectedAt: string | null;
  horizonDays: number;
}): { day: Day; usedBytes: number }[] {
  const { slopeBytesPerDay: slope, usedBytes: used, capacityBytes: cap, lastCollectedAt } = opts;
  if (slope === null || slope <= 0 || used === null || cap === null || lastCollectedAt === null) return [];
  const lastDay = utcDayOf(lastCollectedAt);
  const out: { day: Day; usedBytes: number }[] = [];
  for (let i = 0; i <= opts.horizonDays; i++) {
    const v = Math.min(cap, used + slope * i);
    out.push({ day: addDaysTo(lastDay, i), usedBytes: v });
    if (v >= cap) break;
  }
  return out;
}

/** The usage chart's data. */
export type WorkspaceUsage = {
  /** Every root that has a value in the range, largest (on the last day) first. */
  roots: RootRef[];
  /** One point per day of the range. */
  points: WorkspaceUsagePoint[];
};

/** The volume chart's data. */
export type VolumePanel = {
  /** Used space and capacity at the end of each day of the range (carried forward; null before the first report). */
  history: VolumeHistoryPoint[];
  /** The least-squares fit over the last 14 days that ingest stored with the newest report. */
  forecast: {
    slopeBytesPerDay: number | null;
    fullAt: string | null;
    /** Projected used bytes per day from the last known day until full (at most 90 days ahead); empty when not growing. */
    points: { day: Day; usedBytes: number }[];
  };
};

export type RootDetail = RootRef & {
  path: string;
  /** Allocated bytes: `du -sB1` of the root's folder (a file hard-linked into two roots counts in the first). */
  bytes: number;
  apparentBytes: number;
  files: number;
  dirs: number;
  oldestMtime: string | null;
  newestMtime: string | null;
  orphaned: boolean;
  unreadable: number;
  categories: CategoryBreakdown;
  /** Age distribution: bytes and files per age bucket (upper bounds 1d, 7d, 30d, 90d, older). */
  ages: AgeBreakdown;
  largest: LargestEntry[];
  /** AgentAPI leftovers inside the root, already counted in its figures. */
  leftovers: LeftoverEntry[];
  collectedAt: string;
};
