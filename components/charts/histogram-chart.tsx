"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { axisStyle, gridProps } from "./chart-parts";

export type HistogramRow = { label: string; count: number };

/** Counts per bucket (e.g. workspaces per size range). */
export function HistogramChart({
  rows,
  label,
  unit = "workspaces",
  height = 240,
}: {
  rows: readonly HistogramRow[];
  label: string;
  unit?: string;
  height?: number;
}) {
  return (
    <div className="chart" data-chart="histogram" role="figure" aria-label={label}>
      <BarChart
        responsive
        style={{ width: "100%", height }}
        data={rows as HistogramRow[]}
        margin={{ top: 8, right: 12, bottom: 0, left: 4 }}
      >
        <CartesianGrid {...gridProps} />
        <XAxis dataKey="label" {...axisStyle} interval={0} angle={-30} textAnchor="end" height={58} />
        <YAxis
          {...axisStyle}
          axisLine={false}
          allowDecimals={false}
          width={48}
          // the axis says what it counts: "workspaces", up its side
          label={{ value: unit, angle: -90, position: "insideLeft", fill: "var(--axis)", fontSize: 11, dy: 30 }}
        />
        <Tooltip
          cursor={{ fill: "var(--surface-2)" }}
          content={(p) =>
            p.active && p.payload?.length ? (
              <div className="chart-tooltip">
                <div className="tt-title">{String(p.label)}</div>
                <div>
                  {String(p.payload[0].value)} {unit}
                </div>
              </div>
            ) : null
          }
        />
        <Bar dataKey="count" name={unit} fill="var(--accent)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </div>
  );
}
