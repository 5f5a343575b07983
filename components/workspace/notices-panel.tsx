"use client";

import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { KIND_LABELS, NoticeStatus, utcTime } from "@/components/notifications/notice-badges";
import { column, DataTable } from "@/components/ui/data-table";
import { ErrorPanel } from "@/components/ui/error-panel";
import { ExportLink } from "@/components/ui/export-link";
import { Panel } from "@/components/ui/panel";
import { workspaceNoticesOptions } from "@/lib/query/notifications";
import type { WorkspaceNotice } from "@/lib/services/notification-log";
import { exportPaths } from "@/lib/validations/export";

const columns: ColumnDef<WorkspaceNotice>[] = [
  column("at", "Decided (UTC)", (n) => utcTime(n.createdAt), { cellClassName: "nowrap" }),
  column("kind", "Kind", (n) => (
    <>
      {KIND_LABELS[n.kind]} <span className="muted small">{n.figure}</span>
    </>
  )),
  column("channel", "Channel", (n) => n.channel),
  column("state", "State", (n) => <NoticeStatus status={n.status} />),
  column("sent", "Sent (UTC)", (n) => utcTime(n.sentAt), { cellClassName: "nowrap small" }),
];

/** What the workspace's owner was told in the last 30 days, and whether it went. */
export function NoticesPanel({ workspaceId }: { workspaceId: string }) {
  const query = useQuery(workspaceNoticesOptions(workspaceId));
  return (
    <Panel
      title="Notices"
      id="notices"
      actions={
        <ExportLink
          path={exportPaths.workspaceNotices(workspaceId)}
          title="Download this workspace's notices of the last 30 days as CSV"
        />
      }
    >
      {query.isError ? <ErrorPanel error={query.error} onRetry={() => query.refetch()} /> : null}
      <DataTable
        data={query.data?.notices ?? []}
        columns={columns}
        rowId={(n) => n.id}
        testId="workspace-notices"
        stacked={3}
        loading={query.isPending}
        empty={<p className="muted small">No notice in the last 30 days: its owner was told nothing.</p>}
      />
    </Panel>
  );
}
