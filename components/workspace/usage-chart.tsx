"use client";

import type { WorkspaceDetail } from "@/lib/db/queries/workspaces";
import { rootColors } from "@/components/charts/palette";
import { pointsToRows, shortRootKey } from "@/components/charts/shape";
import { StackedAreaChart } from "@/components/charts/lazy";

/** The workspace's usage per day, stacked by root. */
export function UsageChart({ usage }: { usage: WorkspaceDetail["usage"] }) {
  const colors = rootColors(usage.roots);
  const keys = usage.roots.map((r) => r.key);
  const specs = usage.roots.map((r) => ({ key: r.key, label: shortRootKey(r.key), color: colors.get(r.key)! }));
  return <StackedAreaChart rows={pointsToRows(usage.points, keys)} series={specs} label="Usage by root" />;
}
