import "server-only";
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { rateLimits } from "@/lib/db/schema";
import { TooManyRequestsError } from "@/lib/errors";

// Failed attempts at a secret, counted per subject (an address) in the rate-limit table that every app instance
// shares. Once `max` failures fall within `windowSeconds` of each other, every attempt by that subject is refused
// with 429 until the window has passed since the last failure; a success does not reset the count (on an address
// that many workspaces share, one workspace's success would otherwise buy a guesser more tries).

export type FailureLimit = {
  /** The key's prefix in the table: one namespace per secret. */
  name: string;
  max: number;
  windowSeconds: number;
};

const keyOf = (limit: FailureLimit, subject: string) => `${limit.name}|${subject}`;

/** Throws a 429 with the seconds to wait when `subject` has used up its failures. */
export async function refuseWhenLimited(db: Db, limit: FailureLimit, subject: string): Promise<void> {
  const [row] = await db
    .select({ count: rateLimits.count, lastRequest: rateLimits.lastRequest })
    .from(rateLimits)
    .where(eq(rateLimits.key, keyOf(limit, subject)));
  if (!row || row.count < limit.max) return;
  const waitMs = Number(row.lastRequest) + limit.windowSeconds * 1000 - Date.now();
  if (waitMs > 0) {
    throw new TooManyRequestsError("Too many failed attempts from this address; try again later.", waitMs / 1000);
  }
}

/** Counts one failure of `subject`; the count starts again once the window has passed since the last one. */
export async function recordFailure(db: Db, limit: FailureLimit, subject: string): Promise<void> {
  const now = Date.now();
  const since = now - limit.windowSeconds * 1000;
  await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key: keyOf(limit, subject), count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.lastRequest} <= ${since} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: now,
      },
    });
}
