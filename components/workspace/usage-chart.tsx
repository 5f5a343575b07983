"use client";

import type { WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { rootColors } from "@/components/charts/palette";
import { pointsToRows, shortRootKey } from "@/components/charts/shape";
import { StackedAreaChart } from "@/components/charts/lazy";
import { formatCountOf } from "@/lib/format/numbers";
import { SCRIPT_DATA_SERIES, usageSeries } from "@/lib/shaping/workspace-tables";

/** The workspace's usage per day, stacked by root (script-data folders as one series). */
export function UsageChart({ usage }: { usage: WorkspaceDetail["usage"] }) {
  const { roots, points, folded } = usageSeries(usage);
  const colors = rootColors(roots);
  const keys = roots.map((r) => r.key);
  const label = (key: string) =>
    key === SCRIPT_DATA_SERIES ? `script data (${formatCountOf(folded, "folder")})` : shortRootKey(key);
  const specs = roots.map((r) => ({ key: r.key, label: label(r.key), color: colors.get(r.key)! }));
  return <StackedAreaChart rows={pointsToRows(points, keys)} series={specs} label="Usage by root" />;
}
