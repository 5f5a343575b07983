import type { NoticeLogRow } from "@/lib/db/queries/notification-log";

// How a notice's kind and state read on the Notifications page and on a workspace's page.

export const KIND_LABELS: Record<NoticeLogRow["kind"], string> = {
  full: "full",
  filling: "filling",
  "lost-at-restart": "lost at restart",
  "growing-file": "growing file",
  "cleanup-ahead": "cleanup ahead",
};

const STATUS_CLASS: Record<NoticeLogRow["status"], string> = {
  sent: "badge info",
  pending: "badge",
  failed: "badge critical",
  // the owner turned this kind off on this channel
  skipped: "badge muted",
};

export function NoticeStatus({ status }: { status: NoticeLogRow["status"] }) {
  return (
    <span className={STATUS_CLASS[status]} data-status={status}>
      {status}
    </span>
  );
}

/** "2026-11-20 10:00:03" in UTC, as the audit log shows its times. */
export const utcTime = (v: Date | string | null) =>
  v === null ? "—" : new Date(v).toISOString().replace("T", " ").slice(0, 19);
