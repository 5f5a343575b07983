// Pure helpers that shape daily series for the dashboard's JSON API: date ranges in UTC days, gap filling with
// the last value carried forward, log-scale histogram bins, medians. No database, no React: unit-tested alone.
import { addDays, differenceInCalendarDays, subDays } from "date-fns";
import type { z } from "zod";
import { RANGE_DAYS, rangeQuery, type RangeKey } from "@/lib/validations/range";

/** A UTC calendar day, "YYYY-MM-DD". */
export type Day = string;

/** What `resolveRange` accepts: the API's range parameters before defaults. */
export type RangeParams = z.input<typeof rangeQuery>;

/** A resolved range: both ends inclusive, UTC days. */
export type DayRange = { key: RangeKey; from: Day; to: Day; days: number };

/** The UTC day of an instant. */
export function utcDayOf(t: Date | number | string): Day {
  return new Date(t).toISOString().slice(0, 10);
}

/** Day arithmetic on "YYYY-MM-DD" strings, done at UTC noon so no time zone can shift the date. */
function atNoon(day: Day): Date {
  return new Date(`${day}T12:00:00Z`);
}
export function addDaysTo(day: Day, n: number): Day {
  return utcDayOf(n >= 0 ? addDays(atNoon(day), n) : subDays(atNoon(day), -n));
}
export function daysBetween(from: Day, to: Day): number {
  return differenceInCalendarDays(atNoon(to), atNoon(from));
}

/** Resolves range parameters against `now`: a preset ends today (UTC) and spans N days including today. */
export function resolveRange(params: RangeParams | undefined, now: Date = new Date()): DayRange {
  const p = rangeQuery.parse(params ?? {});
  const today = utcDayOf(now);
  if (p.range === "custom") {
    const to = p.to ?? today;
    return { key: "custom", from: p.from!, to, days: daysBetween(p.from!, to) + 1 };
  }
  const n = RANGE_DAYS[p.range];
  return { key: p.range, from: addDaysTo(today, -(n - 1)), to: today, days: n };
}

/** Every day from `from` to `to`, both included. */
export function eachDay(from: Day, to: Day): Day[] {
  const n = daysBetween(from, to);
  const out: Day[] = [];
  for (let i = 0; i <= n; i++) out.push(addDaysTo(from, i));
  return out;
}

export type FilledPoint = {
  day: Day;
  /** Null before the first known value. */
  value: number | null;
  /** True when the day had no value of its own and shows the last known one. */
  carried: boolean;
};

/**
 * One point per day of `days`, each day's own value when present, else the last value before it (starting
 * from `initial`, the value known before the first day) marked `carried`.
 */
export function fillCarryForward(
  days: readonly Day[],
  values: ReadonlyMap<Day, number> | Record<Day, number>,
  initial: number | null = null,
): FilledPoint[] {
  const get = (d: Day) => (values instanceof Map ? values.get(d) : (values as Record<Day, number>)[d]);
  let last = initial;
  return days.map((day) => {
    const v = get(day);
    if (v !== undefined) {
      last = v;
      return { day, value: v, carried: false };
    }
    return { day, value: last, carried: last !== null };
  });
}

/** Running sums: `levels[i] = start + deltas[0] + … + deltas[i]` (deltas missing for a day count as 0). */
export function cumulativeLevels(days: readonly Day[], deltas: ReadonlyMap<Day, number>, start = 0): number[] {
  let level = start;
  return days.map((d) => (level += deltas.get(d) ?? 0));
}

/** Median of finite numbers; null for none. */
export function median(xs: readonly number[]): number | null {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export type HistogramBucket = {
  /** Inclusive lower bound in bytes (0 for the first bucket). */
  minBytes: number;
  /** Exclusive upper bound in bytes; null for the last, open bucket. */
  maxBytes: number | null;
  count: number;
};

/**
 * Log-scale histogram: the first bucket is [0, base), then each bucket is `factor` times wider than the one
 * before, up to `buckets` buckets, the last one open-ended. Defaults: <1 MiB, 1–4 MiB, 4–16 MiB, … , ≥ 64 GiB.
 */
export function logHistogram(values: readonly number[], base = 1024 ** 2, factor = 4, buckets = 10): HistogramBucket[] {
  const out: HistogramBucket[] = [];
  let lo = 0;
  let hi = base;
  for (let i = 0; i < buckets; i++) {
    const last = i === buckets - 1;
    out.push({ minBytes: lo, maxBytes: last ? null : hi, count: 0 });
    lo = hi;
    hi *= factor;
  }
  for (const v of values) {
    let i = 0;
    while (i < out.length - 1 && v >= out[i].maxBytes!) i++;
    out[i].count++;
  }
  return out;
}

/** ISO timestamp or null, for JSON responses (Date objects from either driver, or strings). */
export function isoOrNull(t: Date | string | null | undefined): string | null {
  if (t === null || t === undefined) return null;
  const d = t instanceof Date ? t : new Date(t);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
