import "server-only";
import { and, count, eq, isNull, ne, or, sql } from "drizzle-orm";
import { ADMIN_CHANGES_LOCK } from "../advisory-locks";
import { users } from "../schema";
import type { Db } from "../types";
import type { UpdateUserRequest } from "@/lib/validations/auth";

// The rows behind a user's access: their role and disabled flag (Better Auth's ban).

const active = or(isNull(users.banned), eq(users.banned, false));

/** Serialises admin changes until the transaction ends: two admins demoting each other cannot both succeed. */
export async function lockAdminChanges(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_CHANGES_LOCK})`);
}

/** How many admins can sign in, `except` one of them. */
export async function activeAdmins(db: Db, except?: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, "admin"), active, except ? ne(users.id, except) : undefined));
  return row.n;
}

/** Writes a role and/or the disabled flag. */
export async function setUserAccess(db: Db, id: string, change: UpdateUserRequest): Promise<void> {
  const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  if (change.role) set.role = change.role;
  if (change.disabled !== undefined)
    Object.assign(set, {
      banned: change.disabled,
      banReason: change.disabled ? "disabled by an admin" : null,
      banExpires: null,
    });
  await db.update(users).set(set).where(eq(users.id, id));
}
