import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { rateLimits } from "@/lib/db/schema";

// Failed sign-ins per account. Better Auth limits requests per address and path; it has no per-account limit,
// so a guesser spreading attempts over many addresses would not be slowed. This counts failed attempts per
// email in Better Auth's own rate-limit table (its pruning removes the old rows) and refuses sign-in to that
// account for the rest of the window once the limit is reached, from any address.

export const ACCOUNT_FAILURE_LIMIT = { max: 5, windowSeconds: 15 * 60 };

const keyFor = (email: string) => `account-failures|${email.trim().toLowerCase()}`;

export async function accountLocked(db: Db, email: string): Promise<boolean> {
  const since = Date.now() - ACCOUNT_FAILURE_LIMIT.windowSeconds * 1000;
  const rows = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, keyFor(email)), gt(rateLimits.lastRequest, since)));
  return (rows[0]?.count ?? 0) >= ACCOUNT_FAILURE_LIMIT.max;
}

export async function recordFailure(db: Db, email: string): Promise<void> {
  const now = Date.now();
  const since = now - ACCOUNT_FAILURE_LIMIT.windowSeconds * 1000;
  await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key: keyFor(email), count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.lastRequest} <= ${since} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: now,
      },
    });
}

export async function clearFailures(db: Db, email: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, keyFor(email)));
}
