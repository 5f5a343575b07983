import "server-only";
import { and, desc, eq, gte, sql, type SQL } from "drizzle-orm";
import type { NoticeChannel, NoticeKind } from "@/lib/notify/types";
import type { NotificationsQuery } from "@/lib/validations/notifications";
import { notificationOutbox } from "../schema";
import { rowsOf, type Db } from "../types";

// What the Notifications page shows: the outbox's rows of a window, and each channel's last success and error.

export type NoticeLogRow = {
  id: string;
  createdAt: Date;
  owner: string;
  workspaceId: string;
  workspaceName: string;
  kind: NoticeKind;
  channel: NoticeChannel;
  status: "pending" | "sent" | "failed" | "skipped";
  figure: string;
  attempts: number;
  sentAt: Date | null;
  lastError: string | null;
};

/** The page's list is bounded: a window of 30 days of a fleet's notices, newest first. */
const MAX_ROWS = 5000;

export async function listNotices(db: Db, filters: NotificationsQuery, since: Date): Promise<NoticeLogRow[]> {
  const t = notificationOutbox;
  const where: SQL[] = [gte(t.createdAt, since)];
  if (filters.owner) where.push(eq(t.owner, filters.owner));
  if (filters.workspaceId) where.push(eq(t.workspaceId, filters.workspaceId));
  if (filters.kind) where.push(eq(t.kind, filters.kind));
  if (filters.channel) where.push(eq(t.channel, filters.channel));
  if (filters.status) where.push(eq(t.status, filters.status));
  const rows = await db
    .select()
    .from(t)
    .where(and(...where))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(MAX_ROWS);
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    owner: r.owner,
    workspaceId: r.workspaceId,
    workspaceName: r.notice.workspace.name,
    kind: r.kind as NoticeKind,
    channel: r.channel as NoticeChannel,
    status: r.status as NoticeLogRow["status"],
    figure: r.notice.figure,
    attempts: r.attempts,
    sentAt: r.sentAt,
    lastError: r.lastError,
  }));
}

export type ChannelHistory = { lastSuccessAt: Date | null; lastErrorAt: Date | null; lastError: string | null };

/**
 * Each channel's last send and last error (a failed attempt, retried or given up; a row its owner turned off is
 * no error), from the outbox.
 */
export async function channelHistory(db: Db): Promise<Record<NoticeChannel, ChannelHistory>> {
  const rows = rowsOf<{
    channel: NoticeChannel;
    sent: Date | string | null;
    failed_at: Date | string | null;
    error: string | null;
  }>(
    await db.execute(sql`
      select c.channel,
        (select max(sent_at) from notification_outbox where channel = c.channel and status = 'sent') as sent,
        e.last_attempt_at as failed_at, e.last_error as error
      from (values ('email'), ('webhook')) as c(channel)
      left join lateral (
        select last_attempt_at, last_error from notification_outbox
        where channel = c.channel and last_error is not null and status <> 'skipped'
        order by last_attempt_at desc nulls last limit 1
      ) e on true`),
  );
  const at = (v: Date | string | null) => (v === null ? null : new Date(v));
  const out = {} as Record<NoticeChannel, ChannelHistory>;
  for (const r of rows)
    out[r.channel] = { lastSuccessAt: at(r.sent), lastErrorAt: at(r.failed_at), lastError: r.error };
  return out;
}
