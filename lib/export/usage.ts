import "server-only";
import type { CsvExport } from "@/lib/csv/columns";
import { csvColumnsOf } from "@/lib/db/copy-csv";
import type { PageOptions } from "@/lib/db/keyset";
import {
  DAILY_COLUMNS,
  REPORT_COLUMNS,
  dailyUsageRows,
  reportUsageRows,
  usageCopy,
  type UsageRow,
} from "@/lib/db/queries/export-usage";
import type { WorkspaceScope } from "@/lib/db/scope";
import type { Db } from "@/lib/db/types";
import { resolveRange } from "@/lib/series";
import type { UsageExportQuery } from "@/lib/validations/export";

const DAILY = csvColumnsOf<UsageRow>(DAILY_COLUMNS);
const REPORT = csvColumnsOf<UsageRow>(REPORT_COLUMNS);

export type UsageExportOptions = PageOptions & {
  now?: Date;
  /** Rows per COPY batch on PostgreSQL. */
  batchRows?: number;
};

/**
 * GET /api/v1/export/usage.csv: storage by workspace, root and day (or report) over a range. On PostgreSQL
 * the file is written by COPY (`open`); the rows, read a page at a time, are the embedded database's way.
 */
export function usageExport(
  db: Db,
  scope: WorkspaceScope,
  q: UsageExportQuery,
  opts: UsageExportOptions = {},
): CsvExport<UsageRow> {
  const range = resolveRange(q, opts.now);
  const filters = {
    scope,
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
    columns: daily ? DAILY : REPORT,
    rows: daily ? dailyUsageRows(db, filters, opts) : reportUsageRows(db, filters, opts),
    open: usageCopy(db, q.granularity, filters, { batchRows: opts.batchRows, onBatch: opts.onPage }) ?? undefined,
  };
}
