"use client";

import type { FleetOverview } from "@/lib/db/queries/fleet";
import { agentLabel } from "@/components/agents/agent-label";
import { agentColor } from "@/components/charts/palette";
import { pointsToRows } from "@/components/charts/shape";
import { StackedAreaChart } from "@/components/charts/lazy";

/** The fleet over time, stacked by agent (plus modules, script data, other). */
export function FleetChart({ series }: { series: FleetOverview["series"] }) {
  const specs = series.keys.map((k) => ({ key: k, label: agentLabel(k), color: agentColor(k) }));
  return (
    <StackedAreaChart rows={pointsToRows(series.points, series.keys)} series={specs} label="Fleet storage by agent" />
  );
}
