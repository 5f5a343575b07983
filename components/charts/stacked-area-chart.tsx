"use client";

import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { bytesTicks, stackedMax, type ChartRow } from "./shape";
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

/** Stacked areas of bytes per day; the legend hides and shows series. Draws what it is given. */
export function StackedAreaChart({
  rows,
  series,
  height = 300,
  label,
}: {
  rows: readonly ChartRow[];
  series: readonly SeriesSpec[];
  height?: number;
  label: string;
}) {
  const { hidden, toggle } = useHiddenSeries();
  const visible = series.filter((s) => !hidden.has(s.key));
  const ticks = bytesTicks(
    stackedMax(
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
            stackId="1"
            stroke={s.color}
            fill={s.color}
            // near solid, so a fill is the colour of its legend swatch (stacked areas never cover each other)
            fillOpacity={0.85}
            strokeWidth={1.2}
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
