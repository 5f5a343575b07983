// Pure shaping for the workspace page's tables and charts (volume + forecast rows, category totals, age rows,
// largest entries), shared by the page and its CSV exports so both show the same rows.
import type { VolumeSummary } from "@/lib/format/volume";
import type { RootDetail, VolumePanel, WorkspaceUsage } from "./workspace-detail";
import { AGE_BUCKETS, CATEGORIES } from "@/lib/report-format/constants";

/** How many rows the page's largest-sessions and largest-entries tables show. */
export const LARGEST_SHOWN = 10;

export type VolumeRow = { day: string; used: number | null; forecast: number | null; capacity: number | null };

/**
 * The volume chart's rows: used bytes per day of the range, then the forecast's projected days. The forecast
 * starts at the last reported day (same value) so the dashed line continues the solid one without a gap.
 */
export function volumeRows(volume: VolumePanel, current: VolumeSummary | null): VolumeRow[] {
  const capacityNow = current ? current.usedBytes + current.availBytes : null;
  const rows: VolumeRow[] = volume.history.map((h) => ({
    day: h.day,
    used: h.usedBytes,
    forecast: null,
    capacity: h.capacityBytes ?? capacityNow,
  }));
  const index = new Map(rows.map((r, i) => [r.day, i]));
  for (const p of volume.forecast.points) {
    const i = index.get(p.day);
    if (i !== undefined) rows[i].forecast = p.usedBytes;
    else rows.push({ day: p.day, used: null, forecast: p.usedBytes, capacity: capacityNow });
  }
  // Join the dashed line to the solid one.
  const firstForecast = rows.findIndex((r) => r.forecast !== null);
  if (firstForecast > 0 && rows[firstForecast].used === null && rows[firstForecast - 1].forecast === null) {
    rows[firstForecast - 1].forecast = rows[firstForecast - 1].used;
  }
  return rows;
}

export type CategoryTotal = { category: string; bytes: number; files: number };

/** Bytes and files per category summed over every root, largest first; empty categories left out. */
export function categoryTotals(roots: readonly Pick<RootDetail, "categories">[]): CategoryTotal[] {
  const sums = new Map<string, CategoryTotal>();
  for (const c of CATEGORIES) sums.set(c, { category: c, bytes: 0, files: 0 });
  for (const r of roots) {
    for (const [cat, v] of Object.entries(r.categories ?? {})) {
      if (!v) continue;
      const s = sums.get(cat) ?? { category: cat, bytes: 0, files: 0 };
      s.bytes += v.bytes;
      s.files += v.files;
      sums.set(cat, s);
    }
  }
  return [...sums.values()].filter((s) => s.bytes > 0 || s.files > 0).sort((a, b) => b.bytes - a.bytes);
}

export type AgeRow = { root: string } & Record<string, number | string>;

/** One row per root (largest first, at most `limit`) with bytes per age bucket. */
export function ageRows(roots: readonly Pick<RootDetail, "key" | "ages" | "bytes">[], limit = 12): AgeRow[] {
  return roots
    .filter((r) => Object.values(r.ages ?? {}).some((v) => v && v.bytes > 0))
    .slice(0, limit)
    .map((r) => {
      const row: AgeRow = { root: r.key };
      for (const b of AGE_BUCKETS) row[b] = r.ages?.[b]?.bytes ?? 0;
      return row;
    });
}

export type LargestRow = { rootKey: string; agent: string; path: string; bytes: number; mtime: string; type: string };

/**
 * The largest entries across roots that are not sessions, largest first: sessions have a table of their own, and
 * the same rows in both read as two findings.
 */
export function largestEntries(
  roots: readonly Pick<RootDetail, "key" | "agent" | "largest">[],
  limit = 15,
): LargestRow[] {
  const all: LargestRow[] = [];
  for (const r of roots)
    for (const e of r.largest ?? []) if (e.type !== "session") all.push({ rootKey: r.key, agent: r.agent, ...e });
  return all.sort((a, b) => b.bytes - a.bytes).slice(0, limit);
}

export const AGE_LABELS: Record<string, string> = {
  "1d": "< 1 day",
  "7d": "1–7 days",
  "30d": "7–30 days",
  "90d": "30–90 days",
  older: "> 90 days",
};

export const SCRIPT_DATA_SERIES = "script-data";

/**
 * The usage chart's series: every coder-script-data/<uuid>/ folder folded into one "script data" series (a
 * workspace gathers one per start, and a legend of dozens of UUIDs hides the roots that matter).
 */
export function usageSeries(usage: WorkspaceUsage): {
  roots: WorkspaceUsage["roots"];
  points: { day: string; values: Record<string, number> }[];
  folded: number;
} {
  const isScript = (k: string) => usage.roots.find((r) => r.key === k)?.kind === "script-data";
  const kept = usage.roots.filter((r) => r.kind !== "script-data");
  const folded = usage.roots.length - kept.length;
  if (folded === 0) return { roots: usage.roots, points: usage.points, folded };
  const points = usage.points.map((p) => {
    const values: Record<string, number> = {};
    for (const [k, v] of Object.entries(p.values)) {
      if (isScript(k)) values[SCRIPT_DATA_SERIES] = (values[SCRIPT_DATA_SERIES] ?? 0) + v;
      else values[k] = v;
    }
    return { day: p.day, values };
  });
  return { roots: [...kept, { key: SCRIPT_DATA_SERIES, agent: "other", kind: "script-data" }], points, folded };
}
