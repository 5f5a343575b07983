"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { bytesTicks, stackedMax } from "./shape";
import { BytesTooltip, ChartLegend, axisStyle, bytesAxisProps, useHiddenSeries, type SeriesSpec } from "./chart-parts";

/**
 * Horizontal stacked bars of bytes: one bar per category (e.g. root), one segment per series (e.g. age); the
 * tooltip lists the segments in the series' order, as the bar draws them.
 */
export function StackedBarChart({
  rows,
  categoryKey,
  series,
  label,
  categoryWidth = 170,
  formatCategory,
}: {
  rows: readonly Record<string, number | string>[];
  categoryKey: string;
  series: readonly SeriesSpec[];
  label: string;
  categoryWidth?: number;
  formatCategory?: (value: string) => string;
}) {
  const { hidden, toggle } = useHiddenSeries();
  const ticks = bytesTicks(
    stackedMax(
      rows,
      series.filter((s) => !hidden.has(s.key)).map((s) => s.key),
    ),
  );
  const height = Math.max(120, rows.length * 30 + 40);
  return (
    <div className="chart" data-chart="stacked-bar" role="figure" aria-label={label}>
      <BarChart
        responsive
        layout="vertical"
        style={{ width: "100%", height }}
        data={rows as Record<string, number | string>[]}
        margin={{ top: 4, right: 16, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke="var(--grid)" horizontal={false} />
        <XAxis type="number" {...bytesAxisProps} axisLine ticks={ticks} domain={[0, ticks[ticks.length - 1]]} />
        <YAxis
          type="category"
          dataKey={categoryKey}
          {...axisStyle}
          width={categoryWidth}
          interval={0}
          tickFormatter={formatCategory ? (v: unknown) => formatCategory(String(v)) : undefined}
        />
        <Tooltip
          cursor={{ fill: "var(--surface-2)" }}
          content={(p) => (
            <BytesTooltip
              active={p.active}
              payload={p.payload}
              label={p.label}
              series={series}
              formatLabel={(l) => l}
              inSeriesOrder
            />
          )}
        />
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stackId="1"
            fill={s.color}
            hide={hidden.has(s.key)}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
      <ChartLegend series={series} hidden={hidden} onToggle={toggle} />
    </div>
  );
}
