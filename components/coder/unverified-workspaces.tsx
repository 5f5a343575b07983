import Link from "next/link";
import { UNVERIFIED_REASONS, type UnverifiedWorkspace } from "@/lib/coder/unverified";
import { formatCount as n } from "@/lib/format/numbers";

/**
 * The workspaces the last sync could not check in Coder (Coder refused to show them by id), each with Coder's reason:
 * they stay as they were, neither updated nor deleted, until a sync can read them. The sync keeps the first 100.
 */
export function UnverifiedWorkspaces({ count, list }: { count: number; list: UnverifiedWorkspace[] }) {
  return (
    <details className="small" data-testid="coder-unverified">
      <summary>
        {n(count)} {count === 1 ? "workspace" : "workspaces"} could not be checked in Coder; kept as they were
      </summary>
      <ul className="list">
        {list.map((w) => (
          <li key={w.id} className="stacked">
            <Link className="grow" href={`/workspaces/${encodeURIComponent(w.id)}`}>
              {w.owner}/{w.name}
            </Link>
            <span className="muted" data-testid="coder-unverified-reason">
              {UNVERIFIED_REASONS[w.reason]}
            </span>
          </li>
        ))}
      </ul>
      {count > list.length ? <p className="muted">{n(count - list.length)} more not shown.</p> : null}
    </details>
  );
}
