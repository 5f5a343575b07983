import "server-only";
import { and, desc, eq, gte, lt, lte, or, type SQL } from "drizzle-orm";
import { auditLog } from "../schema";
import type { Db } from "../types";
import { auditTargets, type AuditTarget } from "./audit-targets";
import { encodeCursor, type AuditFilters } from "@/lib/validations/audit";

export type AuditActor =
  | { type: "user"; id: string; label: string }
  | { type: "token"; id: string; label: string }
  /** A workspace's reporter (cleanup jobs it claims and answers), by its workspace token. */
  | { type: "workspace"; id: string; label: string }
  | { type: "system"; label: string }
  | { type: "anonymous"; label?: string };

export type AuditEvent = {
  actor: AuditActor;
  /** Dotted verb, e.g. "auth.sign_in", "user.role_changed", "token.created". */
  action: string;
  target?: string | null;
  /** Never a secret: callers pass names, ids, roles, old and new values of settings. */
  details?: Record<string, unknown>;
  ip?: string | null;
  userAgent?: string | null;
};

/**
 * Who makes a change, as the change's audit entry names them. A function that changes something takes it and
 * writes the entry inside the change's own transaction: the two commit together or not at all.
 */
export type Who = { actor: AuditActor; ip?: string | null; userAgent?: string | null };

export type AuditEntry = {
  id: number;
  at: string;
  actorType: string;
  actorId: string | null;
  actorLabel: string | null;
  action: string;
  /** As written: an email, a name, or the id of a workspace, policy, run or job. */
  target: string | null;
  /** What an id target names today (owner/workspace, the policy's name, the run's recipe), linked where it is shown. */
  targetName: AuditTarget | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
};

export type AuditPage = { entries: AuditEntry[]; nextCursor: string | null };

/** Appends one event. The log is append-only: nothing in the app updates or deletes it. */
export async function recordAudit(db: Db, event: AuditEvent): Promise<void> {
  const { actor } = event;
  await db.insert(auditLog).values({
    actorType: actor.type,
    actorId: "id" in actor ? actor.id : null,
    actorLabel: actor.label ?? null,
    action: event.action,
    target: event.target ?? null,
    details: event.details ?? null,
    ip: event.ip ?? null,
    userAgent: event.userAgent?.slice(0, 500) ?? null,
  });
}

function where(filters: AuditFilters, cursor?: { at: Date; id: number }): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (filters.actor) conds.push(or(eq(auditLog.actorLabel, filters.actor), eq(auditLog.actorId, filters.actor)));
  if (filters.action) conds.push(eq(auditLog.action, filters.action));
  if (filters.from) conds.push(gte(auditLog.at, filters.from));
  if (filters.to) conds.push(lte(auditLog.at, filters.to));
  // Keyset: (at, id) < (cursor.at, cursor.id), so a page costs the same however deep it is.
  if (cursor) conds.push(or(lt(auditLog.at, cursor.at), and(eq(auditLog.at, cursor.at), lt(auditLog.id, cursor.id))));
  return and(...conds);
}

/** One page, newest first, read by key (never OFFSET); `nextCursor` is null on the last page. */
export async function listAudit(
  db: Db,
  filters: AuditFilters,
  page: { cursor?: { at: Date; id: number }; limit: number },
): Promise<AuditPage> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(where(filters, page.cursor))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const names = await auditTargets(db, shown);
  const entries = shown.map((r) => ({ ...r, at: r.at.toISOString(), targetName: names.get(r.id) ?? null }));
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > page.limit && last ? encodeCursor(last.at, last.id) : null };
}

/** Every matching row, newest first, read page by page by key: for exporters that stream (CSV). */
export async function* auditRows(db: Db, filters: AuditFilters, pageSize = 1000): AsyncGenerator<AuditEntry> {
  let cursor: { at: Date; id: number } | undefined;
  for (;;) {
    const page = await listAudit(db, filters, { cursor, limit: pageSize });
    yield* page.entries;
    const last = page.entries.at(-1);
    if (!page.nextCursor || !last) return;
    cursor = { at: new Date(last.at), id: last.id };
  }
}
