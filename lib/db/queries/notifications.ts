import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Told } from "@/lib/notify/decide";
import type { AfterFailure } from "@/lib/notify/schedule";
import type { Notice, NoticeChannel, NoticeKind } from "@/lib/notify/types";
import { NOTIFY_CLAIM_LOCK, NOTIFY_DECIDE_LOCK } from "../advisory-locks";
import { notificationOutbox, noticeStates, ownerContacts } from "../schema";
import { rowsOf, type Db } from "../types";

// The rows of the owners' notices: what each owner was last told per workspace and kind, and the outbox of
// messages to send (lib/db/schema/notifications.ts). lib/services/notifications.ts decides; this reads and writes.

export type OutboxRow = typeof notificationOutbox.$inferSelect;

export async function toldStates(db: Db, workspaceIds: string[]): Promise<Map<string, Told[]>> {
  const out = new Map<string, Told[]>();
  if (workspaceIds.length === 0) return out;
  const rows = await db.select().from(noticeStates).where(inArray(noticeStates.workspaceId, workspaceIds));
  for (const r of rows) {
    const list = out.get(r.workspaceId) ?? [];
    list.push({ kind: r.kind as NoticeKind, stateKey: r.stateKey, level: r.level });
    out.set(r.workspaceId, list);
  }
  return out;
}

export async function rememberStates(db: Db, notices: Notice[], at: Date): Promise<void> {
  if (notices.length === 0) return;
  await db
    .insert(noticeStates)
    .values(
      notices.map((n) => ({
        workspaceId: n.workspace.id,
        kind: n.kind,
        stateKey: n.stateKey,
        level: n.level,
        decidedAt: at,
      })),
    )
    .onConflictDoUpdate({
      target: [noticeStates.workspaceId, noticeStates.kind],
      set: { stateKey: sql`excluded.state_key`, level: sql`excluded.level`, decidedAt: sql`excluded.decided_at` },
    });
}

export async function forgetState(db: Db, workspaceId: string, kind: NoticeKind): Promise<void> {
  await db.delete(noticeStates).where(and(eq(noticeStates.workspaceId, workspaceId), eq(noticeStates.kind, kind)));
}

export type NewMessage = { channel: NoticeChannel; notice: Notice; nextAttemptAt: Date };

export async function addToOutbox(db: Db, messages: NewMessage[], at: Date): Promise<void> {
  if (messages.length === 0) return;
  await db.insert(notificationOutbox).values(
    messages.map((m) => ({
      channel: m.channel,
      kind: m.notice.kind,
      workspaceId: m.notice.workspace.id,
      owner: m.notice.workspace.owner,
      notice: m.notice,
      createdAt: at,
      nextAttemptAt: m.nextAttemptAt,
    })),
  );
}

export type Claim = { sender: string; now: Date; leaseMs: number; maxPerHour: number; limit: number };

/**
 * Leases up to `limit` due rows to `sender`, fewer when the hour's cap is near: the rows attempted in the last hour
 * (by any instance) count against `maxPerHour`. Under a transaction lock, so two instances never both see room
 * under the cap; a row leased to another sender is not due until its lease ends (that sender crashed mid-send).
 */
/** Serialises the decisions of two instances (the kept refresh in one, the Coder sync in another): one notice. */
export async function lockDecisions(db: Db): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${NOTIFY_DECIDE_LOCK})`);
}

export async function claimDue(db: Db, c: Claim): Promise<OutboxRow[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${NOTIFY_CLAIM_LOCK})`);
    const hourAgo = new Date(c.now.getTime() - 3_600_000);
    const [{ n }] = rowsOf<{ n: number }>(
      await tx.execute(
        sql`select count(*)::int as n from notification_outbox where last_attempt_at > ${hourAgo} and channel <> 'coder-inbox'`,
      ),
    );
    const room = Math.min(c.limit, c.maxPerHour - n);
    if (room <= 0) return [];
    const leaseUntil = new Date(c.now.getTime() + c.leaseMs);
    return tx
      .update(notificationOutbox)
      .set({
        leaseOwner: c.sender,
        leaseUntil,
        lastAttemptAt: c.now,
        attempts: sql`${notificationOutbox.attempts} + 1`,
      })
      .where(
        inArray(
          notificationOutbox.id,
          // Coder Inbox rows are the workspaces' reporters' to deliver (lib/services/coder-inbox.ts), never this sender's.
          sql`(select id from notification_outbox where status = 'pending' and next_attempt_at <= ${c.now}
            and channel <> 'coder-inbox'
            and (lease_until is null or lease_until <= ${c.now})
            order by next_attempt_at, id limit ${room} for update skip locked)`,
        ),
      )
      .returning();
  });
}

/**
 * What became of a leased row; applied only while `sender` still holds it. "skipped": the owner turned its kind
 * off on its channel (`error` says so).
 */
export type Outcome = { status: "sent" } | { status: "skipped"; error: string } | AfterFailure;

export async function settle(db: Db, id: string, sender: string, now: Date, o: Outcome): Promise<boolean> {
  const rows = await db
    .update(notificationOutbox)
    .set({
      status: o.status,
      leaseOwner: null,
      leaseUntil: null,
      sentAt: o.status === "sent" ? now : null,
      nextAttemptAt: o.status === "pending" ? o.nextAttemptAt : undefined,
      lastError: o.status === "sent" ? null : o.error,
    })
    .where(and(eq(notificationOutbox.id, id), eq(notificationOutbox.leaseOwner, sender)))
    .returning({ id: notificationOutbox.id });
  return rows.length === 1;
}

/** Coder's addresses (the sync's): they replace whatever was kept, a report's included. */
export async function saveOwnerEmails(db: Db, contacts: { owner: string; email: string }[], at: Date): Promise<void> {
  if (contacts.length === 0) return;
  await db
    .insert(ownerContacts)
    .values(contacts.map((c) => ({ ...c, source: "coder", updatedAt: at })))
    .onConflictDoUpdate({
      target: ownerContacts.owner,
      set: { email: sql`excluded.email`, source: sql`excluded.source`, updatedAt: sql`excluded.updated_at` },
    });
}

/** Forgets Coder's addresses of owners Coder now has none for, so a report's address can take their place. */
export async function forgetCoderEmails(db: Db, owners: string[]): Promise<void> {
  if (owners.length === 0) return;
  await db.delete(ownerContacts).where(and(eq(ownerContacts.source, "coder"), inArray(ownerContacts.owner, owners)));
}

/** A report's address: kept where there is none, or where the one kept came from a report; never over Coder's. */
export async function saveReportedEmail(db: Db, owner: string, email: string, at: Date): Promise<void> {
  await db
    .insert(ownerContacts)
    .values({ owner, email, source: "report", updatedAt: at })
    .onConflictDoUpdate({
      target: ownerContacts.owner,
      set: { email: sql`excluded.email`, updatedAt: sql`excluded.updated_at` },
      setWhere: sql`${ownerContacts.source} = 'report' and ${ownerContacts.email} <> excluded.email`,
    });
}

export async function ownerEmail(db: Db, owner: string): Promise<string | null> {
  const [row] = await db
    .select({ email: ownerContacts.email })
    .from(ownerContacts)
    .where(eq(ownerContacts.owner, owner));
  return row?.email ?? null;
}
