import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { stackedTable } from "@/components/ui/stacked-table";
import { RelativeTime } from "@/components/ui/time";
import { RETENTION_COMPARE_DAYS } from "@/lib/catalog/retention";
import type { RootDetail } from "@/lib/db/queries/workspace-detail";
import type { AgentRetention } from "@/lib/report-format/schema";
import { retentionRows } from "@/lib/shaping/agent-retention";

/**
 * Each agent's own retention here (its setting, or the default it falls back to) beside the age of its data:
 * what is older than 30 days in its folder, and its oldest file.
 */
export function AgentRetentionTable({
  roots,
  settings,
}: {
  roots: readonly RootDetail[];
  settings: AgentRetention | null;
}) {
  const rows = retentionRows(roots, settings);
  if (rows.length === 0) return null;
  return (
    <div className="table-wrap" style={{ marginTop: 12 }}>
      <table {...stackedTable(3)} data-testid="agent-retention">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Its own retention</th>
            <th className="num">Older than {RETENTION_COMPARE_DAYS} days</th>
            <th className="num">Oldest file</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ agent, retention: r, olderBytes, oldestMtime }) => (
            <tr key={agent}>
              <td>{agentLabel(agent)}</td>
              <td title={r.source ? `read from ${r.source}` : undefined}>
                <strong className={r.known ? undefined : "badge warning"}>{r.summary}</strong>{" "}
                <span className="muted small">({r.setting})</span>
              </td>
              <td className="num">
                <Bytes value={olderBytes} />
              </td>
              <td className="num">{oldestMtime ? <RelativeTime value={oldestMtime} /> : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
