"use client";

import type { RootDetail } from "@/lib/db/queries/workspace-detail";
import { AGE_BUCKETS } from "@/lib/report-format/constants";
import { AGE_COLORS } from "@/components/charts/palette";
import { shortRootKey } from "@/components/charts/shape";
import { StackedBarChart } from "@/components/charts/lazy";
import { AGE_LABELS, ageRows } from "@/lib/shaping/workspace-tables";

const SERIES = AGE_BUCKETS.map((b) => ({ key: b, label: AGE_LABELS[b], color: AGE_COLORS[b] }));

/** Bytes by age of last modification, per root. */
export function AgeChart({ roots }: { roots: readonly RootDetail[] }) {
  const rows = ageRows(roots);
  if (rows.length === 0) return <p className="muted small">No age data in the latest report.</p>;
  return (
    <StackedBarChart
      rows={rows}
      categoryKey="root"
      series={SERIES}
      label="Age distribution per root"
      formatCategory={shortRootKey}
    />
  );
}
