import "server-only";
import { col, type CsvExport } from "@/lib/csv/columns";
import { getUsageReport, type UsageTableRow } from "@/lib/db/queries/usage-report";
import type { WorkspaceScope } from "@/lib/db/scope";
import type { Db } from "@/lib/db/types";
import type { usageQuery } from "@/lib/validations/usage";
import type { z } from "zod";

type Row = Omit<UsageTableRow, "label"> & { label: string };

/**
 * GET /api/v1/export/usage-by.csv: the usage page's table, one row per dimension value and the total last, the
 * range and each column's unit in its header (a file keeps its meaning once it leaves the page).
 */
export async function usageByExport(
  db: Db,
  scope: WorkspaceScope,
  q: z.output<typeof usageQuery>,
): Promise<CsvExport<Row>> {
  const report = await getUsageReport(db, scope, q);
  const range = `${report.from} to ${report.to}`;
  const over = (what: string, unit: string) => `${what} (${unit}, ${range})`;
  return {
    filename: `usage-by-${report.dimension}-${report.from}-${report.to}.csv`,
    columns: [
      col(report.dimension, "text", (r) => r.key),
      col("name", "text", (r) => r.label),
      col(over("average", "bytes"), "integer", (r) => Math.round(r.avgBytes)),
      col(over("peak", "bytes"), "integer", (r) => r.peakBytes),
      col(over("byte_days", "byte-days"), "integer", (r) => r.byteDays),
      col(over("growth", "bytes"), "integer", (r) => r.growthBytes),
      col(over("workspaces", "count"), "integer", (r) => r.workspaces),
      col(over("freed_by_cleanups", "bytes"), "integer", (r) => r.freedBytes),
    ],
    rows: [...report.rows, { ...report.total, key: "total", label: "Total (each workspace once)" }],
  };
}
