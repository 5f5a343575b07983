import Link from "next/link";
import type { FindingGroup } from "@/lib/db/queries/findings";
import { recipeForFinding } from "@/lib/cleanup/links";
import { agentLabel } from "@/components/agents/agent-label";
import { offersFreeSpace } from "@/lib/cleanup/free-space";
import { Bytes } from "@/components/ui/bytes";
import { CleanupLink, PolicyLink } from "@/components/cleanup/cleanup-link";
import { FreeSpaceLink } from "@/components/cleanup/free-space-link";
import { TruncateLog } from "./truncate-log";

/** The findings a row groups, most urgent first: where each is and, for sizes, how large. */
function Members({ finding }: { finding: FindingGroup }) {
  const f = finding;
  const more = f.count - f.members.length;
  return (
    <details className="small" data-testid="finding-members">
      <summary>Show {f.members.length === f.count ? `all ${f.count}` : `the largest ${f.members.length}`}</summary>
      <ul>
        {f.members.map((m, i) => (
          <li key={`${m.rootKey ?? ""}:${m.path ?? ""}:${i}`}>
            <code>{m.path ?? m.rootKey ?? "the workspace"}</code>
            {f.unit === "bytes" ? (
              <>
                {" "}
                <Bytes value={m.value} />
              </>
            ) : null}
            {f.ruleId === "growing-file" ? (
              <>
                {" "}
                <TruncateLog workspace={f.workspace} rootKey={m.rootKey} path={m.path} bytes={m.value} />
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <div className="muted">and {more.toLocaleString("en-US")} more (the CSV export counts them too)</div>
      ) : null}
    </details>
  );
}

/** One row: severity, what is wrong (one finding, or several alike of one workspace), where, and what to do. */
export function FindingItem({ finding, showWorkspace = true }: { finding: FindingGroup; showWorkspace?: boolean }) {
  const f = finding;
  return (
    <li className="finding" data-testid="finding" data-count={f.count}>
      <span className={`badge ${f.severity}`}>{f.severity}</span>
      <div className="finding-body">
        <div>
          {showWorkspace ? (
            <>
              <Link href={`/workspaces/${encodeURIComponent(f.workspace.id)}`} className="cell-main">
                {f.workspace.owner}/{f.workspace.name}
              </Link>{" "}
              ·{" "}
            </>
          ) : null}
          {f.agent ? <span className="muted">{agentLabel(f.agent)} · </span> : null}
          {f.message}
        </div>
        {f.count > 1 ? <Members finding={f} /> : null}
        <div className="finding-action">
          <strong>What to do:</strong> {f.action}{" "}
          <CleanupLink recipe={recipeForFinding(f)} workspace={f.workspace.id}>
            Clean these up
          </CleanupLink>
          {offersFreeSpace(f.ruleId) ? <FreeSpaceLink workspaceId={f.workspace.id} /> : null}
          {f.ruleId === "agent-retention" ? <PolicyLink recipe={recipeForFinding(f)} /> : null}
          {f.ruleId === "growing-file" && f.count === 1 ? (
            <TruncateLog workspace={f.workspace} rootKey={f.rootKey} path={f.path} bytes={f.value} />
          ) : null}
        </div>
      </div>
    </li>
  );
}

export function FindingList({
  findings,
  showWorkspace,
}: {
  findings: readonly FindingGroup[];
  showWorkspace?: boolean;
}) {
  return (
    <ul className="list findings">
      {findings.map((f) => (
        <FindingItem key={`${f.ruleId}:${f.workspace.id}:${f.agent ?? ""}`} finding={f} showWorkspace={showWorkspace} />
      ))}
    </ul>
  );
}
