import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { users } from "@/lib/db/schema";
import { ConflictError } from "@/lib/errors";
import type { Caller } from "./caller";

/**
 * The user a new API token belongs to (Better Auth's API keys always have one): the admin who creates it, or,
 * when an admin token or the CLI creates it, the longest-standing admin.
 */
export async function ownerForToken(db: Db, caller?: Caller): Promise<string> {
  if (caller?.kind === "user") return caller.id;
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin")))
    .orderBy(asc(users.createdAt))
    .limit(1);
  if (!admin) throw new ConflictError("There is no admin yet: finish setup first.");
  return admin.id;
}
