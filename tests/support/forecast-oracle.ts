// The volume forecast's least-squares fit written out in TypeScript, for tests to check the database's
// (regr_slope in ingest_report) against an independent computation.
/** A point of a series: time in milliseconds, value in bytes. */
export type Point = { t: number; v: number };

import { millisecondsInDay as DAY_MS } from "date-fns/constants";

/**
 * Least-squares slope in units per day, as Prometheus' predict_linear fits it. Null with fewer than two
 * distinct times.
 */
export function slopePerDay(points: readonly Point[]): number | null {
  if (points.length < 2) return null;
  const n = points.length;
  const t0 = points[0].t;
  let sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  for (const p of points) {
    const x = (p.t - t0) / DAY_MS;
    sx += x;
    sy += p.v;
    sxx += x * x;
    sxy += x * p.v;
  }
  const den = n * sxx - sx * sx;
  if (den === 0) return null;
  return (n * sxy - sx * sy) / den;
}

/**
 * When a volume with `freeBytes` left fills, if used space keeps growing as it did over `usedHistory`.
 * Null when usage is flat or shrinking.
 */
export function forecastFull(usedHistory: readonly Point[], freeBytes: number, now: number): Date | null {
  const slope = slopePerDay(usedHistory);
  if (slope === null || slope <= 0) return null;
  const days = freeBytes / slope;
  if (!Number.isFinite(days) || days > 3650) return null;
  return new Date(now + days * DAY_MS);
}
