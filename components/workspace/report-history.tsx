import type { ReportHistoryRow } from "@/lib/db/queries/workspace-detail";
import { formatCount } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { stackedTable } from "@/components/ui/stacked-table";
import { RelativeTime } from "@/components/ui/time";

export function ReportHistory({ reports }: { reports: readonly ReportHistoryRow[] }) {
  if (reports.length === 0) return <p className="muted small">No reports.</p>;
  return (
    <div className="table-wrap" style={{ maxHeight: 360, overflowY: "auto" }}>
      <table {...stackedTable(6)} data-testid="report-history">
        <thead>
          <tr>
            <th>Collected</th>
            <th className="num">Total</th>
            <th className="num">Roots</th>
            <th className="num">Avail (df)</th>
            <th className="num">Scan</th>
            <th className="num">Errors</th>
            <th>Reporter</th>
          </tr>
        </thead>
        <tbody>
          {reports.map((r) => (
            <tr key={r.id}>
              <td>
                <RelativeTime value={r.collectedAt} />
              </td>
              <td className="num">
                <Bytes value={r.totalBytes} />
              </td>
              <td className="num">{r.rootCount}</td>
              <td className="num">
                <Bytes value={r.volumeFreeBytes} />
              </td>
              <td className="num">{formatCount(r.scanMs)} ms</td>
              <td className="num">{r.errorCount ? <span className="badge warning">{r.errorCount}</span> : 0}</td>
              <td className="mono muted">{r.reporterVersion}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
