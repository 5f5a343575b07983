import "server-only";
import { sql } from "drizzle-orm";
import { addDaysTo, eachDay, type Day, type DayRange } from "@/lib/series";
import { rowsOf, type Db } from "../types";
import { seriesKeySql, seriesNow } from "./workspace-series";

/**
 * Series keys of the fleet chart: an agent slug (its tool data, legacy folders, leftovers and the modules that
 * belong to it), "modules" (module folders of no known agent), "script-data" (coder-script-data folders,
 * current and orphaned) and "other".
 */
export type FleetSeriesKey = string;

export type FleetSeriesPoint = {
  day: Day;
  /** Bytes per series key at the end of the day (every key of `keys` present, 0 when none). */
  values: Record<FleetSeriesKey, number>;
  total: number;
};

export type Growth = {
  /** Bytes now minus bytes then (negative when the fleet shrank). */
  bytes: number;
  /** Relative to the level then; null when that level was 0. */
  ratio: number | null;
};

export type FleetSeries = {
  /** Largest first (by the last day's bytes). */
  keys: FleetSeriesKey[];
  /** One point per day of the range, oldest first, every day present. */
  points: FleetSeriesPoint[];
};

/** A level now (`day` null, from root_latest) or one day's change (from fleet_delta) of a series key. */
type LevelOrDeltaRow = { key: string; day: Day | null; bytes: number };

function growth(now: number, then: number): Growth {
  return { bytes: now - then, ratio: then === 0 ? null : (now - then) / then };
}

/**
 * The fleet chart over `range`, and the fleet's change over the last 1, 7 and 30 days ending `today`. Levels
 * of the fleet series are cumulative sums of fleet_delta; the sum of every delta is the level now, which
 * root_latest holds, so the series is walked back from it with the deltas of the days shown only (folding all
 * earlier deltas into a starting level instead would read the whole roll-up and grow with history).
 */
export async function fleetSeries(
  db: Db,
  range: DayRange,
  today: Day,
): Promise<{ series: FleetSeries; growth: { d1: Growth; d7: Growth; d30: Growth } }> {
  // Days needed: the range, and today back to 30 days ago for the growth figures.
  const first = [range.from, addDaysTo(today, -30)].sort()[0];
  const last = [range.to, today].sort()[1];
  const before = addDaysTo(first, -1);
  // Levels now per series key (root_latest), and the deltas after `before`: the level on a day D is the level
  // now minus every delta after D. Neither read grows with the length of history.
  // The fleet chart's read, measured by the scale bench: a union over the kept series' SQL, through db.execute.
  const rows = rowsOf<LevelOrDeltaRow>(
    await db.execute(sql`select key, null as day, bytes from (${await seriesNow(db)}) x
      union all
      select ${seriesKeySql} as key, to_char(day, 'YYYY-MM-DD') as day, sum(bytes)::float8 as bytes
        from fleet_delta where day > ${before}::date group by 1, 2`),
  );

  // Levels per key and day, walking back from the level now: level(D - 1) = level(D) - delta(D). Deltas dated
  // after `last` (a reporter clock slightly ahead) are taken off first.
  const deltas = new Map<string, Map<Day, number>>();
  const running: Record<string, number> = {};
  for (const r of rows) {
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
  const lastLevels = levelOn.get(range.to) ?? {};
  const keys = [...deltas.keys()].sort((a, b) => (lastLevels[b] ?? 0) - (lastLevels[a] ?? 0) || a.localeCompare(b));
  const points: FleetSeriesPoint[] = eachDay(range.from, range.to).map((day) => {
    const lv = levelOn.get(day)!;
    const values: Record<string, number> = {};
    for (const k of keys) values[k] = lv[k] ?? 0;
    return { day, values, total: keys.reduce((s, k) => s + values[k], 0) };
  });
  const levelToday = totalOn(today);
  return {
    series: { keys, points },
    growth: {
      d1: growth(levelToday, totalOn(addDaysTo(today, -1))),
      d7: growth(levelToday, totalOn(addDaysTo(today, -7))),
      d30: growth(levelToday, totalOn(addDaysTo(today, -30))),
    },
  };
}
