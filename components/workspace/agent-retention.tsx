import type { ColumnDef } from "@tanstack/react-table";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/time";
import { RETENTION_COMPARE_DAYS } from "@/lib/catalog/retention";
import type { RootDetail } from "@/lib/db/queries/workspace-detail";
import type { AgentRetention } from "@/lib/report-format/schema";
import { retentionRows } from "@/lib/shaping/agent-retention";

const retentionColumns: ColumnDef<ReturnType<typeof retentionRows>[number]>[] = [
  column("agent", "Agent", (r) => agentLabel(r.agent)),
  column(
    "retention",
    "Its own retention",
    ({ retention: r }) => (
      <>
        <strong className={r.known ? undefined : "badge warning"}>{r.summary}</strong>{" "}
        <span className="muted small">({r.setting})</span>
      </>
    ),
    { cell: ({ retention: r }) => ({ title: r.source ? `read from ${r.source}` : undefined }) },
  ),
  column("older", `Older than ${RETENTION_COMPARE_DAYS} days`, (r) => <Bytes value={r.olderBytes} />, {
    className: "num",
  }),
  column("oldest", "Oldest file", (r) => (r.oldestMtime ? <RelativeTime value={r.oldestMtime} /> : "—"), {
    className: "num",
  }),
];

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
    <DataTable
      data={rows}
      columns={retentionColumns}
      rowId={(r) => r.agent}
      testId="agent-retention"
      stacked={3}
      wrapStyle={{ marginTop: 12 }}
    />
  );
}
