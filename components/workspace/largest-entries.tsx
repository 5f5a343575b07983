import type { RootDetail, WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { stackedTable } from "@/components/ui/stacked-table";
import { RelativeTime } from "@/components/ui/time";
import { LARGEST_SHOWN, largestEntries } from "@/lib/shaping/workspace-tables";

function EntryTable({
  rows,
  testId,
}: {
  rows: { rootKey: string; agent: string; path: string; bytes: number; mtime: string; type: string }[];
  testId: string;
}) {
  if (rows.length === 0) return <p className="muted small">None in the latest report.</p>;
  return (
    <div className="table-wrap">
      <table {...stackedTable(3)} data-testid={testId}>
        <thead>
          <tr>
            <th>Path</th>
            <th>Root</th>
            <th className="num">Size</th>
            <th className="num">Modified</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={`${e.rootKey}:${e.path}`}>
              <td className="mono" style={{ overflowWrap: "anywhere" }}>
                {e.path}
                {e.type === "dir" ? "/" : ""}
              </td>
              <td className="muted small nowrap" title={e.rootKey}>
                {agentLabel(e.agent)}
              </td>
              <td className="num">
                <Bytes value={e.bytes} />
              </td>
              <td className="num">
                <RelativeTime value={e.mtime} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LargestSessions({ sessions }: { sessions: WorkspaceDetail["largestSessions"] }) {
  return <EntryTable rows={sessions.slice(0, LARGEST_SHOWN)} testId="largest-sessions" />;
}

export function LargestEntries({ roots }: { roots: readonly RootDetail[] }) {
  return <EntryTable rows={largestEntries(roots, LARGEST_SHOWN)} testId="largest-entries" />;
}
