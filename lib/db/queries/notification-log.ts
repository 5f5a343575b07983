import "server-only";
import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { NoticeChannel, NoticeKind } from "@/lib/notify/types";
import { encodeNoticeCursor, type NoticeFilters } from "@/lib/validations/notifications";
import { notificationOutbox, workspaces } from "../schema";
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
  lastAttemptAt: Date | null;
  lastError: string | null;
  /** A Coder Inbox notice pending while its workspace is stopped: its reporter delivers it once the workspace starts. */
  waitingForStart: boolean;
};

export type NoticePage = { notices: NoticeLogRow[]; nextCursor: string | null };

function where(filters: NoticeFilters, since: Date, cursor?: { at: Date; id: string }): SQL | undefined {
  const t = notificationOutbox;
  const conds: (SQL | undefined)[] = [gte(t.createdAt, since)];
  if (filters.q) {
    const like = `%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(
      or(ilike(t.owner, like), ilike(t.workspaceId, like), sql`${t.notice}->'workspace'->>'name' ilike ${like}`),
    );
  }
  if (filters.owner) conds.push(eq(t.owner, filters.owner));
  if (filters.workspaceId) conds.push(eq(t.workspaceId, filters.workspaceId));
  if (filters.kind) conds.push(eq(t.kind, filters.kind));
  if (filters.channel) conds.push(eq(t.channel, filters.channel));
  if (filters.status) conds.push(eq(t.status, filters.status));
  // Keyset: (created_at, id) < the cursor's, so a page costs the same however deep it is.
  if (cursor) conds.push(or(lt(t.createdAt, cursor.at), and(eq(t.createdAt, cursor.at), lt(t.id, cursor.id))));
  return and(...conds);
}

const toLogRow = ({
  row: r,
  stopped,
}: {
  row: typeof notificationOutbox.$inferSelect;
  stopped: boolean | null;
}): NoticeLogRow => ({
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
  lastAttemptAt: r.lastAttemptAt,
  lastError: r.lastError,
  waitingForStart: r.channel === "coder-inbox" && r.status === "pending" && stopped === true,
});

/** One page of the notices created since `since`, newest first, read by key (never OFFSET). */
export async function listNotices(
  db: Db,
  filters: NoticeFilters,
  since: Date,
  page: { cursor?: { at: Date; id: string }; limit: number },
): Promise<NoticePage> {
  const t = notificationOutbox;
  const rows = await db
    .select({ row: t, stopped: sql<boolean | null>`${workspaces.coderTransition} = 'stop'` })
    .from(t)
    .leftJoin(workspaces, eq(workspaces.id, t.workspaceId))
    .where(where(filters, since, page.cursor))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(page.limit + 1);
  const notices = rows.slice(0, page.limit).map(toLogRow);
  const last = notices.at(-1);
  return {
    notices,
    nextCursor: rows.length > page.limit && last ? encodeNoticeCursor(last.createdAt, last.id) : null,
  };
}

/** Every matching notice, newest first, a page at a time: for the CSV export, which streams. */
export async function* noticeRows(db: Db, filters: NoticeFilters, since: Date, pageSize = 1000) {
  let cursor: { at: Date; id: string } | undefined;
  for (;;) {
    const page = await listNotices(db, filters, since, { cursor, limit: pageSize });
    yield* page.notices;
    const last = page.notices.at(-1);
    if (!page.nextCursor || !last) return;
    cursor = { at: last.createdAt, id: last.id };
  }
}

export type ChannelHistory = {
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  /** Rows waiting to be sent (due or not: a digest waits for its hour). */
  pending: number;
};

/**
 * Each channel's last send, last error (a failed attempt, retried or given up; a row its owner turned off is no
 * error) and rows pending, from the outbox.
 */
export async function channelHistory(db: Db): Promise<Record<NoticeChannel, ChannelHistory>> {
  const rows = rowsOf<{
    channel: NoticeChannel;
    sent: Date | string | null;
    failed_at: Date | string | null;
    error: string | null;
    pending: number;
  }>(
    await db.execute(sql`
      select c.channel,
        (select max(sent_at) from notification_outbox where channel = c.channel and status = 'sent') as sent,
        e.last_attempt_at as failed_at, e.last_error as error,
        (select count(*)::int from notification_outbox where channel = c.channel and status = 'pending') as pending
      from (values ('email'), ('webhook'), ('coder-inbox')) as c(channel)
      left join lateral (
        select last_attempt_at, last_error from notification_outbox
        where channel = c.channel and last_error is not null and status <> 'skipped'
        order by last_attempt_at desc nulls last limit 1
      ) e on true`),
  );
  const at = (v: Date | string | null) => (v === null ? null : new Date(v));
  const out = {} as Record<NoticeChannel, ChannelHistory>;
  for (const r of rows)
    out[r.channel] = {
      lastSuccessAt: at(r.sent),
      lastErrorAt: at(r.failed_at),
      lastError: r.error,
      pending: Number(r.pending),
    };
  return out;
}
