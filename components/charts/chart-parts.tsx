"use client";

// The chart primitive: legend that toggles series, a tooltip that formats bytes and days, and the axis
// settings every chart shares. Chart components compose these and only draw what they are given.
import { useCallback, useState } from "react";
import { formatBytes, formatBytesAxis, exactBytes } from "@/lib/format/bytes";
import { formatDay, formatDayLong } from "@/lib/format/time";
import { isIsolated } from "./shape";
import { Button } from "@/components/ui/button";

export type SeriesSpec = { key: string; label: string; color: string };

/** Which series are hidden; toggled from the legend. */
export function useHiddenSeries() {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((key: string) => {
    setHidden((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);
  return { hidden, toggle };
}

export function ChartLegend({
  series,
  hidden,
  onToggle,
}: {
  series: readonly SeriesSpec[];
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
}) {
  return (
    <div className="chart-legend" role="group" aria-label="Series (click to show or hide)">
      {series.map((s) => (
        <Button
          key={s.key}
          variant="bare"
          className="legend-item"
          aria-pressed={!hidden.has(s.key)}
          onClick={() => onToggle(s.key)}
          title={hidden.has(s.key) ? `Show ${s.label}` : `Hide ${s.label}`}
        >
          <span className="swatch" style={{ background: s.color }} />
          {s.label}
        </Button>
      ))}
    </div>
  );
}

type TooltipEntry = { dataKey?: unknown; name?: unknown; value?: unknown; color?: string };

/** Tooltip body for byte series: one row per visible series, largest first, and the stack's total. */
export function BytesTooltip({
  active,
  payload,
  label,
  series,
  showTotal = true,
  formatLabel = formatDayLong,
  inSeriesOrder = false,
}: {
  active?: boolean;
  payload?: readonly TooltipEntry[];
  label?: unknown;
  series: readonly SeriesSpec[];
  showTotal?: boolean;
  formatLabel?: (label: string) => string;
  /** Rows in the series' own order (age steps, youngest first), not largest first. */
  inSeriesOrder?: boolean;
}) {
  if (!active || !payload?.length) return null;
  const byKey = new Map(series.map((s) => [s.key, s]));
  const position = new Map(series.map((s, i) => [s.key, i]));
  const rows = payload
    .filter((p) => typeof p.value === "number")
    .map((p) => ({ key: String(p.dataKey), value: p.value as number, spec: byKey.get(String(p.dataKey)) }))
    .sort((a, b) => (inSeriesOrder ? (position.get(a.key) ?? 0) - (position.get(b.key) ?? 0) : b.value - a.value));
  const total = rows.reduce((s, r) => s + r.value, 0);
  return (
    <div className="chart-tooltip">
      <div className="tt-title">{formatLabel(String(label ?? ""))}</div>
      {rows.map((r) => (
        <div className="tt-row" key={r.key}>
          <span>
            <span className="swatch" style={{ background: r.spec?.color ?? "var(--muted)" }} />
            {r.spec?.label ?? r.key}
          </span>
          <span title={exactBytes(r.value)}>{formatBytes(r.value)}</span>
        </div>
      ))}
      {showTotal && rows.length > 1 ? (
        <div className="tt-row tt-total">
          <span>Total</span>
          <span title={exactBytes(total)}>{formatBytes(total)}</span>
        </div>
      ) : null}
    </div>
  );
}

/** Shared axis look: theme colors through CSS variables, formatted ticks. */
export const axisStyle = {
  stroke: "var(--border)",
  tick: { fill: "var(--axis)", fontSize: 11 },
  tickLine: false,
} as const;

export const dayAxisProps = {
  ...axisStyle,
  dataKey: "day",
  tickFormatter: (v: unknown) => formatDay(String(v)),
  minTickGap: 28,
} as const;

export const bytesAxisProps = {
  ...axisStyle,
  tickFormatter: (v: unknown) => formatBytesAxis(Number(v)),
  width: 68,
  axisLine: false,
} as const;

export const gridProps = { stroke: "var(--grid)", vertical: false } as const;

/** A series' `dot`: drawn only where the point has no neighbour to draw a line or area to (see isIsolated). */
export function isolatedDot(rows: readonly Record<string, unknown>[], key: string, color: string) {
  function IsolatedDot(p: { cx?: number; cy?: number; index?: number }) {
    if (p.cx === undefined || p.cy === undefined || p.index === undefined || !isIsolated(rows, key, p.index)) {
      return <g key={`${key}-${p.index}`} />;
    }
    return <circle key={`${key}-${p.index}`} cx={p.cx} cy={p.cy} r={3.5} fill={color} stroke={color} />;
  }
  return IsolatedDot;
}
