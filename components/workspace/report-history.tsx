import type { ColumnDef } from "@tanstack/react-table";
import type { ReportHistoryRow } from "@/lib/db/queries/workspace-detail";
import { formatCount } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/time";

const reportColumns: ColumnDef<ReportHistoryRow>[] = [
  column("collected", "Collected", (r) => <RelativeTime value={r.collectedAt} />),
  column("total", "Total", (r) => <Bytes value={r.totalBytes} />, { className: "num" }),
  column("roots", "Roots", (r) => r.rootCount, { className: "num" }),
  column("avail", "Avail (df)", (r) => <Bytes value={r.volumeFreeBytes} />, { className: "num" }),
  column("scan", "Scan", (r) => `${formatCount(r.scanMs)} ms`, { className: "num" }),
  column("errors", "Errors", (r) => (r.errorCount ? <span className="badge warning">{r.errorCount}</span> : 0), {
    className: "num",
  }),
  column("reporter", "Reporter", (r) => r.reporterVersion, { cellClassName: "mono muted" }),
];

export function ReportHistory({ reports }: { reports: readonly ReportHistoryRow[] }) {
  return (
    <DataTable
      data={reports}
      columns={reportColumns}
      rowId={(r) => String(r.id)}
      testId="report-history"
      stacked={6}
      wrapStyle={{ maxHeight: 360, overflowY: "auto" }}
      empty={<p className="muted small">No reports.</p>}
    />
  );
}
