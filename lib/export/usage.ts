import "server-only";
import { col, type CsvColumn, type CsvExport } from "@/lib/csv/columns";
import type { PageOptions } from "@/lib/db/keyset";
import { dailyUsageRows, reportUsageRows, type UsageRow } from "@/lib/db/queries/export-usage";
import type { Db } from "@/lib/db/types";
import { resolveRange } from "@/lib/series";
import type { UsageExportQuery } from "@/lib/validations/export";

const ROOT_COLUMNS: CsvColumn<UsageRow>[] = [
  col("workspace_id", "text", (r) => r.workspace_id),
  col("workspace", "text", (r) => r.workspace),
  col("owner", "text", (r) => r.owner),
  col("template", "text", (r) => r.template),
  col("agent", "text", (r) => r.agent),
  col("kind", "text", (r) => r.kind),
  col("root", "text", (r) => r.root),
  col("path", "text", (r) => r.path),
  col("bytes", "integer", (r) => r.bytes),
  col("apparent_bytes", "integer", (r) => r.apparent_bytes),
  col("files", "integer", (r) => r.files),
];

export const DAILY_COLUMNS: CsvColumn<UsageRow>[] = [
  col("time", "time", (r) => r.time),
  col("day", "day", (r) => r.day),
  ...ROOT_COLUMNS,
];

export const REPORT_COLUMNS: CsvColumn<UsageRow>[] = [
  col("time", "time", (r) => r.time),
  col("report_id", "text", (r) => r.report_id),
  ...ROOT_COLUMNS,
];

/** GET /api/v1/export/usage.csv: storage by workspace, root and day (or report) over a range. */
export function usageExport(db: Db, q: UsageExportQuery, opts: PageOptions & { now?: Date } = {}): CsvExport<UsageRow> {
  const range = resolveRange(q, opts.now);
  const filters = {
    from: range.from,
    to: range.to,
    workspaces: q.workspace,
    owner: q.owner,
    template: q.template,
    agent: q.agent,
    roots: q.root,
  };
  const daily = q.granularity === "daily";
  return {
    filename: `usage${daily ? "" : "-reports"}-${range.from}-${range.to}.csv`,
    columns: daily ? DAILY_COLUMNS : REPORT_COLUMNS,
    rows: daily ? dailyUsageRows(db, filters, opts) : reportUsageRows(db, filters, opts),
  };
}
