import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { users } from "@/lib/db/schema";
import { ConflictError } from "@/lib/errors";
import { storedRole, type Role } from "@/lib/validations/auth";
import type { Caller } from "./caller";

/**
 * The user a new API token belongs to (Better Auth's API keys always have one): the admin who creates it, the
 * owner of the token that creates it (a token never mints one that outlives its own owner), or, from the CLI,
 * the longest-standing admin.
 */
export async function ownerForToken(db: Db, caller?: Caller): Promise<string> {
  if (caller?.kind === "user") return caller.id;
  if (caller?.kind === "token") return caller.ownerId;
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin")))
    .orderBy(asc(users.createdAt))
    .limit(1);
  if (!admin) throw new ConflictError("There is no admin yet: finish setup first.");
  return admin.id;
}

/** A token's owner as they are now, or null when disabled or gone: the rights their tokens act with. */
export async function activeOwner(
  db: Db,
  id: string,
): Promise<{ id: string; role: Role; coderUsername: string | null } | null> {
  const [owner] = await db
    .select({ id: users.id, role: users.role, banned: users.banned, coderUsername: users.coderUsername })
    .from(users)
    .where(eq(users.id, id));
  if (!owner || owner.banned) return null;
  return { id: owner.id, role: storedRole(owner.role), coderUsername: owner.coderUsername };
}
