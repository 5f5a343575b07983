import Link from "next/link";
import type { Finding } from "@/lib/db/queries/findings";
import { recipeForFinding } from "@/lib/cleanup/links";
import { agentLabel } from "@/components/agents/agent-label";
import { offersFreeSpace } from "@/lib/cleanup/free-space";
import { CleanupLink } from "@/components/cleanup/cleanup-link";
import { FreeSpaceLink } from "@/components/cleanup/free-space-link";

/** One finding: severity, what is wrong, where, and what to do about it. */
export function FindingItem({ finding, showWorkspace = true }: { finding: Finding; showWorkspace?: boolean }) {
  const f = finding;
  return (
    <li className="finding" data-testid="finding">
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
        <div className="finding-action">
          <strong>What to do:</strong> {f.action}{" "}
          <CleanupLink recipe={recipeForFinding(f)} workspace={f.workspace.id}>
            Clean these up
          </CleanupLink>
          {offersFreeSpace(f.ruleId) ? <FreeSpaceLink workspaceId={f.workspace.id} /> : null}
        </div>
      </div>
    </li>
  );
}

export function FindingList({ findings, showWorkspace }: { findings: readonly Finding[]; showWorkspace?: boolean }) {
  return (
    <ul className="list findings">
      {findings.map((f, i) => (
        <FindingItem
          key={`${f.ruleId}:${f.workspace.id}:${f.rootKey ?? ""}:${f.path ?? ""}:${i}`}
          finding={f}
          showWorkspace={showWorkspace}
        />
      ))}
    </ul>
  );
}
