"use client";

import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { bytesTicks, overlaidMax, stackedMax, type ChartRow } from "./shape";
import {
  BytesTooltip,
  ChartLegend,
  bytesAxisProps,
  dayAxisProps,
  gridProps,
  isolatedDot,
  useHiddenSeries,
  type SeriesSpec,
} from "./chart-parts";

/**
 * Stacked areas of bytes per day; the legend hides and shows series. Draws what it is given. `overlaid`: series that
 * share bytes (groups with members in common) are drawn over each other, translucent, not stacked: stacked, a lead in
 * two groups would read as twice their storage.
 */
export function StackedAreaChart({
  rows,
  series,
  height = 300,
  label,
  overlaid = false,
}: {
  rows: readonly ChartRow[];
  series: readonly SeriesSpec[];
  height?: number;
  label: string;
  overlaid?: boolean;
}) {
  const { hidden, toggle } = useHiddenSeries();
  const visible = series.filter((s) => !hidden.has(s.key));
  const ticks = bytesTicks(
    (overlaid ? overlaidMax : stackedMax)(
      rows,
      visible.map((s) => s.key),
    ),
  );
  return (
    <div className="chart" data-chart="stacked-area" aria-label={label} role="figure">
      <AreaChart
        responsive
        style={{ width: "100%", height }}
        data={rows as ChartRow[]}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      >
        <CartesianGrid {...gridProps} />
        <XAxis {...dayAxisProps} />
        <YAxis {...bytesAxisProps} ticks={ticks} domain={[0, ticks[ticks.length - 1]]} />
        <Tooltip
          content={(p) => <BytesTooltip active={p.active} payload={p.payload} label={p.label} series={series} />}
        />
        {series.map((s) => (
          <Area
            key={s.key}
            type="linear"
            dataKey={s.key}
            name={s.label}
            stackId={overlaid ? undefined : "1"}
            stroke={s.color}
            fill={s.color}
            // near solid, so a fill is the colour of its legend swatch (stacked areas never cover each other);
            // overlaid, each area lets the ones under it show
            fillOpacity={overlaid ? 0.15 : 0.85}
            strokeWidth={overlaid ? 2 : 1.2}
            hide={hidden.has(s.key)}
            isAnimationActive={false}
            connectNulls={false}
            dot={isolatedDot(rows, s.key, s.color)}
          />
        ))}
      </AreaChart>
      <ChartLegend series={series} hidden={hidden} onToggle={toggle} />
    </div>
  );
}
