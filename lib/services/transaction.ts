import "server-only";
import { recordAudit, type Who } from "@/lib/db/queries/audit";
import type { Db } from "@/lib/db/types";

// The one write shape: a service makes a change in one transaction, given by its caller's context, and writes the
// change's audit row inside it with `audit()`, so the change and its entry commit together or not at all. Query
// modules read and write rows; they neither decide nor audit.

/** Who makes a change, the clock it is made by, and the database (or a transaction it joins, as a savepoint). */
export type ChangeContext = { db: Db; who: Who; now?: Date };

/** An audit entry as a service names it; the caller, their address and agent come from the context. */
export type AuditNote = { action: string; target?: string | null; details?: Record<string, unknown> };

/** What a change's function is given: the transaction, the caller, the time, and its audit writer. */
export type Change = { tx: Db; who: Who; now: Date; audit: (note: AuditNote) => Promise<void> };

/** Runs `fn` in one transaction on `ctx.db`; the time is read once, so every row of the change carries the same. */
export function withTransaction<T>(ctx: ChangeContext, fn: (change: Change) => Promise<T>): Promise<T> {
  const now = ctx.now ?? new Date();
  return ctx.db.transaction((tx) => fn({ tx, who: ctx.who, now, audit: (note) => writeAudit(tx, ctx.who, note) }));
}

/**
 * Writes one audit row: the only writer outside Better Auth's hooks. Inside a change it is `Change.audit`, or
 * this on the change's `tx` for an entry that names someone other than the change's caller (a reporter's claim,
 * named by its workspace, in the cleanup's transaction); alone only for what changes nothing (a download), which
 * has no transaction to join.
 */
export function writeAudit(db: Db, who: Who, note: AuditNote): Promise<void> {
  return recordAudit(db, { ...who, ...note });
}
