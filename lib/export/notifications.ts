import "server-only";
import { col, type CsvColumn, type CsvExport } from "@/lib/csv/columns";
import type { Db } from "@/lib/db";
import type { NoticeLogRow } from "@/lib/db/queries/notification-log";
import type { WorkspaceScope } from "@/lib/db/scope";
import { allNotices, workspaceNotices, type WorkspaceNotice } from "@/lib/services/notification-log";
import { utcDayOf } from "@/lib/series";
import type { NoticeFilters } from "@/lib/validations/notifications";

// The Notifications page's list and a workspace's Notices panel, as CSV: the same rows the page shows under the
// same filters, newest first.

const NOTICE_COLUMNS: CsvColumn<NoticeLogRow>[] = [
  col("created_at", "time", (r) => r.createdAt),
  col("id", "text", (r) => r.id),
  col("owner", "text", (r) => r.owner),
  col("workspace_id", "text", (r) => r.workspaceId),
  col("workspace", "text", (r) => r.workspaceName),
  col("kind", "text", (r) => r.kind),
  col("channel", "text", (r) => r.channel),
  col("status", "text", (r) => r.status),
  col("figure", "text", (r) => r.figure),
  col("attempts", "integer", (r) => r.attempts),
  col("sent_at", "time", (r) => r.sentAt),
  col("last_attempt_at", "time", (r) => r.lastAttemptAt),
  col("last_error", "text", (r) => r.lastError),
];

export function notificationsExport(db: Db, filters: NoticeFilters, now = new Date()): CsvExport<NoticeLogRow> {
  return {
    filename: `notifications-${utcDayOf(now)}.csv`,
    columns: NOTICE_COLUMNS,
    rows: allNotices(db, filters, now),
  };
}

const WORKSPACE_NOTICE_COLUMNS: CsvColumn<WorkspaceNotice>[] = [
  col("created_at", "time", (r) => r.createdAt),
  col("kind", "text", (r) => r.kind),
  col("channel", "text", (r) => r.channel),
  col("status", "text", (r) => r.status),
  col("figure", "text", (r) => r.figure),
  col("sent_at", "time", (r) => r.sentAt),
];

/** A workspace's notices of the last 30 days (404 outside the caller's scope). */
export async function workspaceNoticesExport(
  db: Db,
  scope: WorkspaceScope,
  id: string,
  now = new Date(),
): Promise<CsvExport<WorkspaceNotice>> {
  const rows = await workspaceNotices(db, scope, id, now);
  return { filename: `workspace-${id}-notices-${utcDayOf(now)}.csv`, columns: WORKSPACE_NOTICE_COLUMNS, rows };
}
