"use client";

import { useQueries } from "@tanstack/react-query";
import { KIND_LABELS, NoticeStatus, utcTime } from "@/components/notifications/notice-badges";
import { Panel } from "@/components/ui/panel";
import { workspaceNoticesOptions } from "@/lib/query/notifications";

/** Notices shown on My storage; the workspace page lists all of a workspace's. */
const SHOWN = 10;

/**
 * What the owner was told about their workspaces in the last 30 days, newest first, each one click from what to
 * run: the workspace's panel below, with what the owner may free there.
 */
export function MyNotices({ workspaces }: { workspaces: { id: string; name: string }[] }) {
  const results = useQueries({ queries: workspaces.map((w) => workspaceNoticesOptions(w.id)) });
  const notices = results
    .flatMap((r, i) => (r.data?.notices ?? []).map((n) => ({ ...n, workspace: workspaces[i] })))
    .sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
  const failed = results.find((r) => r.isError);
  return (
    <Panel title="Your notices" id="notices">
      <p className="muted small">The last 30 days: what you were told, by email or your team&apos;s chat.</p>
      {failed ? <p className="error-message">{failed.error?.message}</p> : null}
      {notices.length ? (
        <ul className="list" data-testid="my-notices">
          {notices.slice(0, SHOWN).map((n) => (
            <li key={n.id}>
              <strong>{KIND_LABELS[n.kind]}</strong> on <a href={`#workspace-${n.workspace.id}`}>{n.workspace.name}</a>:{" "}
              {n.figure}{" "}
              <span className="muted small">
                {n.channel} <NoticeStatus status={n.status} /> {utcTime(n.createdAt)} UTC
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">
          {results.some((r) => r.isPending) ? "Loading…" : "No notice in the last 30 days: nothing fills too fast."}
        </p>
      )}
    </Panel>
  );
}
