import type { CoderView } from "@/lib/db/queries/workspace-row";
import { coderStateLabel } from "@/lib/coder/status";

const TONE: Record<string, string> = {
  dormant: "badge warning",
  deleted: "badge critical",
  failed: "badge critical",
};

/** When Coder last described the workspace and what it says of its use, for the badge's title. */
function details(c: CoderView): string {
  const parts = [
    c.lastUsedAt ? `last used ${c.lastUsedAt.slice(0, 10)}` : null,
    c.dormantAt ? `dormant since ${c.dormantAt.slice(0, 10)}` : null,
    c.deletingAt ? `Coder deletes it on ${c.deletingAt.slice(0, 10)}` : null,
    c.deletedAt ? `deleted ${c.deletedAt.slice(0, 10)}` : null,
    c.healthy === false ? "unhealthy" : null,
    c.syncedAt ? `as of ${c.syncedAt.slice(0, 16).replace("T", " ")} UTC` : null,
  ];
  return parts.filter(Boolean).join(" · ");
}

/** A badge whose details open on a tap (a phone shows no title), and show on hover as before. */
function TapDetails({ summary, className, text }: { summary: string; className: string; text: string }) {
  if (!text) return <span className={className}>{summary}</span>;
  return (
    <details className="tap-details">
      <summary className={className} title={text}>
        {summary}
      </summary>
      <span className="muted small">{text}</span>
    </details>
  );
}

/**
 * A workspace's status in Coder (dormant and deleted said first) with a link to its page there; "not synced"
 * before a sync described it. The link is there whenever CODER_URL is set.
 */
export function CoderStatus({ coder, showLink = true }: { coder: CoderView; showLink?: boolean }) {
  const label = coderStateLabel({ coderStatus: coder.status, dormantAt: coder.dormantAt });
  return (
    <span className="nowrap" data-testid="coder-status">
      {label ? (
        <TapDetails summary={label} className={TONE[label] ?? "badge"} text={details(coder)} />
      ) : (
        // Said, not only in a title: a phone shows no title.
        <span className="muted small" title="No workspace sync from Coder has described it">
          not synced
        </span>
      )}
      {showLink && coder.href && !coder.deletedAt ? (
        <>
          {" "}
          <a className="small" href={coder.href} target="_blank" rel="noreferrer" data-testid="coder-link">
            Coder ↗
          </a>
        </>
      ) : null}
    </span>
  );
}
