import "server-only";
import { and, count, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { notificationOutbox, workspaces } from "../schema";
import type { Db } from "../types";
import type { OutboxRow } from "./notifications";

// The Coder Inbox channel's rows (lib/services/coder-inbox.ts): which workspaces can deliver, and the outbox rows
// their reporters lease, one workspace's at a time.

/** Coder's system user that owns a prebuilt workspace until someone claims it. */
export const PREBUILDS_OWNER = "prebuilds";

/** The lease owner of a workspace's Coder Inbox rows: only its own reporter settles them. */
export const inboxLeaseOwner = (workspaceId: string) => `workspace:${workspaceId}`;

const canDeliver = and(
  eq(workspaces.coderInbox, true),
  isNull(workspaces.deletedAt),
  ne(workspaces.owner, PREBUILDS_OWNER),
);

/** Remembers whether the workspace's reporter can deliver; true when that changed (most reports change nothing). */
export async function setCoderInbox(db: Db, workspaceId: string, ready: boolean): Promise<boolean> {
  const rows = await db
    .update(workspaces)
    .set({ coderInbox: ready })
    .where(and(eq(workspaces.id, workspaceId), ne(workspaces.coderInbox, ready)))
    .returning({ id: workspaces.id });
  return rows.length > 0;
}

/** Of `ids`, the workspaces whose reporter delivers to the owner's Coder Inbox (never an unclaimed prebuild). */
export async function coderInboxWorkspaces(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(inArray(workspaces.id, ids), canDeliver));
  return new Set(rows.map((r) => r.id));
}

export async function coderInboxWorkspaceCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(workspaces).where(canDeliver);
  return Number(row?.n ?? 0);
}

export async function ownerHasCoderInbox(db: Db, owner: string): Promise<boolean> {
  const [row] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(eq(workspaces.owner, owner), canDeliver))
    .limit(1);
  return row !== undefined;
}

/**
 * Leases the workspace's due Coder Inbox rows to its reporter until `leaseUntil`, oldest first: an attempt each. A
 * row leased before and not yet settled is not due until its lease ends (that reporter may still report it).
 */
export async function leaseInboxRows(
  db: Db,
  workspaceId: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxRow[]> {
  return db
    .update(notificationOutbox)
    .set({
      leaseOwner: inboxLeaseOwner(workspaceId),
      leaseUntil,
      lastAttemptAt: now,
      attempts: sql`${notificationOutbox.attempts} + 1`,
    })
    .where(
      inArray(
        notificationOutbox.id,
        sql`(select id from notification_outbox where channel = 'coder-inbox' and workspace_id = ${workspaceId}
          and status = 'pending' and next_attempt_at <= ${now} and (lease_until is null or lease_until <= ${now})
          order by created_at, id limit ${limit} for update skip locked)`,
      ),
    )
    .returning();
}

/** Gives up the workspace's pending Coder Inbox rows: its reporter can no longer deliver them. */
export async function failInboxRows(db: Db, workspaceId: string, error: string): Promise<number> {
  const rows = await db
    .update(notificationOutbox)
    .set({ status: "failed", leaseOwner: null, leaseUntil: null, lastError: error })
    .where(
      and(
        eq(notificationOutbox.channel, "coder-inbox"),
        eq(notificationOutbox.workspaceId, workspaceId),
        eq(notificationOutbox.status, "pending"),
      ),
    )
    .returning({ id: notificationOutbox.id });
  return rows.length;
}

/** The workspace's leased rows among `ids` (another workspace's, or a row no longer pending, is not among them). */
export async function leasedInboxRows(db: Db, workspaceId: string, ids: string[]): Promise<OutboxRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(notificationOutbox)
    .where(
      and(
        inArray(notificationOutbox.id, ids),
        eq(notificationOutbox.channel, "coder-inbox"),
        eq(notificationOutbox.status, "pending"),
        eq(notificationOutbox.leaseOwner, inboxLeaseOwner(workspaceId)),
      ),
    );
}
