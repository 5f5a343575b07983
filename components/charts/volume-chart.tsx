"use client";

import { Area, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from "recharts";
import { bytesTicks } from "./shape";
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

export type VolumeChartRow = { day: string; used: number | null; forecast: number | null; capacity: number | null };

const SERIES: SeriesSpec[] = [
  { key: "used", label: "Used", color: "var(--accent)" },
  { key: "forecast", label: "Forecast", color: "var(--chart-forecast)" },
  { key: "capacity", label: "Used + Avail (what can fill)", color: "var(--chart-volume)" },
];

// The forecast dashed, the volume's size as steps (it changes when the volume is resized, not in between).
const LINES = [
  { dataKey: "forecast", name: "Forecast", type: "linear", strokeDasharray: "6 4", strokeWidth: 2 },
  { dataKey: "capacity", name: "Used + Avail", type: "stepAfter", strokeWidth: 1.5 },
] as const;

/** Used space per day, the forecast continuing it as a dashed line, and Used + Avail (df: what the user can still fill; root-reserved space is neither) as the ceiling. */
export function VolumeChart({ rows, height = 260 }: { rows: readonly VolumeChartRow[]; height?: number }) {
  const { hidden, toggle } = useHiddenSeries();
  let max = 0;
  for (const r of rows) {
    for (const s of SERIES) {
      const v = r[s.key as keyof VolumeChartRow];
      if (!hidden.has(s.key) && typeof v === "number") max = Math.max(max, v);
    }
  }
  const ticks = bytesTicks(max);
  return (
    <div className="chart" data-chart="volume" role="figure" aria-label="Volume used and forecast">
      <ComposedChart
        responsive
        style={{ width: "100%", height }}
        data={rows as VolumeChartRow[]}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      >
        <CartesianGrid {...gridProps} />
        <XAxis {...dayAxisProps} />
        <YAxis {...bytesAxisProps} ticks={ticks} domain={[0, ticks[ticks.length - 1]]} />
        <Tooltip
          content={(p) => (
            <BytesTooltip active={p.active} payload={p.payload} label={p.label} series={SERIES} showTotal={false} />
          )}
        />
        <Area
          dataKey="used"
          name="Used"
          type="linear"
          stroke="var(--accent)"
          fill="var(--accent)"
          fillOpacity={0.2}
          hide={hidden.has("used")}
          isAnimationActive={false}
          dot={isolatedDot(rows, "used", "var(--accent)")}
        />
        {LINES.map((l) => (
          <Line
            key={l.dataKey}
            {...l}
            stroke={SERIES.find((x) => x.key === l.dataKey)!.color}
            dot={false}
            hide={hidden.has(l.dataKey)}
            isAnimationActive={false}
          />
        ))}
      </ComposedChart>
      <ChartLegend series={SERIES} hidden={hidden} onToggle={toggle} />
    </div>
  );
}
