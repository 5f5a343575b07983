// Pure shaping helpers for the chart components: pivoting series into rows, byte-friendly axis ticks,
// sparkline paths. No React, no Recharts: unit-tested in shape.test.ts.

/** One row per x value (a day), one numeric field per series key. */
export type ChartRow = { day: string } & Record<string, number | string | null>;

export type SeriesInput = { key: string; values: readonly (number | null)[] };

/** Pivots column-wise series into Recharts rows; values stay as the server filled them (no interpolation). */
export function toRows(days: readonly string[], series: readonly SeriesInput[]): ChartRow[] {
  return days.map((day, i) => {
    const row: ChartRow = { day };
    for (const s of series) row[s.key] = s.values[i] ?? null;
    return row;
  });
}

/** Series ordered by their last value, largest first (the biggest band at the bottom of a stack). */
export function orderByLast<T extends SeriesInput>(series: readonly T[]): T[] {
  const last = (s: T) => {
    for (let i = s.values.length - 1; i >= 0; i--) if (s.values[i] !== null) return s.values[i] as number;
    return 0;
  };
  return [...series].sort((a, b) => last(b) - last(a));
}

/** Sum of the visible series in one row (for a stacked tooltip's total). */
export function rowTotal(row: Record<string, unknown>, keys: readonly string[]): number {
  let sum = 0;
  for (const k of keys) {
    const v = row[k];
    if (typeof v === "number" && Number.isFinite(v)) sum += v;
  }
  return sum;
}

const NICE_STEPS = [1, 2, 2.5, 5, 10];

/**
 * Axis ticks for a byte scale that land on round binary amounts (0, 256 MiB, 512 MiB, …; 0, 1 GiB, 2 GiB, …)
 * so the formatted labels read cleanly. Returns at least [0, something above max].
 */
export function bytesTicks(max: number, target = 5): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1024];
  let unit = 1;
  while (unit * 1024 <= max) unit *= 1024;
  const span = max / unit; // 1 ≤ span < 1024
  const rough = span / Math.max(1, target - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  let step = magnitude;
  for (const s of NICE_STEPS) {
    if (s * magnitude >= rough) {
      step = s * magnitude;
      break;
    }
  }
  const ticks: number[] = [];
  for (let v = 0; v < span + step - 1e-9; v += step) ticks.push(Math.round(v * unit));
  if (ticks[ticks.length - 1] < max) ticks.push(Math.round(ticks[ticks.length - 1] + step * unit));
  return ticks;
}

/** The largest stacked total across rows, for the y domain. */
export function stackedMax(rows: readonly Record<string, unknown>[], keys: readonly string[]): number {
  let max = 0;
  for (const r of rows) max = Math.max(max, rowTotal(r, keys));
  return max;
}

/** The largest single value across rows and keys: the y domain of series drawn over each other, not stacked. */
export function overlaidMax(rows: readonly Record<string, unknown>[], keys: readonly string[]): number {
  let max = 0;
  for (const r of rows) for (const k of keys) max = Math.max(max, rowTotal(r, [k]));
  return max;
}

/**
 * An SVG path through `values` scaled into width × height (y grows downward). Nulls break the line.
 * Returns "" when there is nothing to draw.
 */
export function sparklinePath(values: readonly (number | null)[], width: number, height: number, pad = 1): string {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (finite.length === 0) return "";
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const range = max - min || 1;
  const n = values.length;
  const x = (i: number) => (n === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (n - 1));
  const y = (v: number) => (max === min ? height / 2 : pad + (1 - (v - min) / range) * (height - 2 * pad));
  let d = "";
  let pen = false;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      pen = false;
      return;
    }
    d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    pen = true;
  });
  return d;
}

/** Label for a histogram bucket in bytes: "< 1 MiB", "1–4 MiB", "≥ 64 GiB". */
export function bucketLabel(minBytes: number, maxBytes: number | null, fmt: (n: number) => string): string {
  if (maxBytes === null) return `≥ ${fmt(minBytes)}`;
  if (minBytes === 0) return `< ${fmt(maxBytes)}`;
  return `${fmt(minBytes)}–${fmt(maxBytes)}`;
}

/** Row-wise points ({ day, values: { key: bytes } }) to chart rows; a key absent on a day stays null. */
export function pointsToRows(
  points: readonly { day: string; values: Record<string, number> }[],
  keys: readonly string[],
): ChartRow[] {
  return points.map((p) => {
    const row: ChartRow = { day: p.day };
    for (const k of keys) row[k] = p.values[k] ?? null;
    return row;
  });
}

/** A root key short enough for a legend: UUIDs cut to their first 8 characters. */
export function shortRootKey(key: string): string {
  return key.replace(/([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "$1…");
}

/**
 * True when `rows[index][key]` has a value but neither neighbour does: a line or area cannot draw such a
 * point (a workspace's first report, a day between gaps), so the chart marks it with a dot instead.
 */
export function isIsolated(rows: readonly Record<string, unknown>[], key: string, index: number): boolean {
  const has = (i: number) => i >= 0 && i < rows.length && typeof rows[i][key] === "number";
  return has(index) && !has(index - 1) && !has(index + 1);
}
