import type { ColumnDef } from "@tanstack/react-table";
import type { RootDetail, WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/time";
import { LARGEST_SHOWN, largestEntries } from "@/lib/shaping/workspace-tables";

type Entry = { rootKey: string; agent: string; path: string; bytes: number; mtime: string; type: string };

const entryColumns: ColumnDef<Entry>[] = [
  column("path", "Path", (e) => `${e.path}${e.type === "dir" ? "/" : ""}`, {
    cellClassName: "mono",
    cell: () => ({ style: { overflowWrap: "anywhere" } }),
  }),
  column("root", "Root", (e) => agentLabel(e.agent), {
    cellClassName: "muted small nowrap",
    cell: (e) => ({ title: e.rootKey }),
  }),
  column("size", "Size", (e) => <Bytes value={e.bytes} />, { className: "num" }),
  column("modified", "Modified", (e) => <RelativeTime value={e.mtime} />, { className: "num" }),
];

function EntryTable({ rows, testId }: { rows: Entry[]; testId: string }) {
  return (
    <DataTable
      data={rows}
      columns={entryColumns}
      rowId={(e) => `${e.rootKey}:${e.path}`}
      testId={testId}
      stacked={3}
      empty={<p className="muted small">None in the latest report.</p>}
    />
  );
}

export function LargestSessions({ sessions }: { sessions: WorkspaceDetail["largestSessions"] }) {
  return <EntryTable rows={sessions.slice(0, LARGEST_SHOWN)} testId="largest-sessions" />;
}

export function LargestEntries({ roots }: { roots: readonly RootDetail[] }) {
  return <EntryTable rows={largestEntries(roots, LARGEST_SHOWN)} testId="largest-entries" />;
}
