import "server-only";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { signInFailures, signInPlaces } from "../schema";
import type { Db } from "../types";

// The counters behind the sign-in throttle (lib/auth/sign-in-limit.ts decides what they mean) and the places
// each account signed in from.

/** `free` attempts, then a wait after each of `baseMs` doubling up to `maxMs`; all forgotten `resetMs` after the last. */
export type Throttle = { free: number; baseMs: number; maxMs: number; resetMs: number };

const stamp = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const waitAfter = (t: Throttle) =>
  sql`least(${t.maxMs}, ${t.baseMs} * power(2, ${signInFailures.failures} - ${t.free})) * interval '1 millisecond'`;

/**
 * Counts one attempt under `key` before it is made, in one statement, so attempts made at once each see the ones
 * before them: the new count, or null when the key must wait first (and nothing is counted).
 */
export async function takeAttempt(db: Db, key: string, t: Throttle, now: Date): Promise<number | null> {
  const forgotten = sql`${signInFailures.lastAt} < ${stamp(new Date(now.getTime() - t.resetMs))}`;
  const rows = await db
    .insert(signInFailures)
    .values({ key, failures: 1, lastAt: now })
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: { failures: sql`case when ${forgotten} then 1 else ${signInFailures.failures} + 1 end`, lastAt: now },
      setWhere: sql`${forgotten} or ${signInFailures.failures} < ${t.free} or ${signInFailures.lastAt} + ${waitAfter(t)} <= ${stamp(now)}`,
    })
    .returning({ failures: signInFailures.failures });
  return rows[0]?.failures ?? null;
}

/** How long `key` must still wait, in milliseconds (0 when it need not). */
export async function waitLeft(db: Db, key: string, t: Throttle, now: Date): Promise<number> {
  const [row] = await db
    .select({ until: sql<string>`${signInFailures.lastAt} + ${waitAfter(t)}` })
    .from(signInFailures)
    .where(eq(signInFailures.key, key));
  return row ? Math.max(0, new Date(row.until).getTime() - now.getTime()) : 0;
}

/** Gives back one attempt (a sign-in that succeeded). */
export async function giveBack(db: Db, key: string): Promise<void> {
  await db
    .update(signInFailures)
    .set({ failures: sql`greatest(${signInFailures.failures} - 1, 0)` })
    .where(eq(signInFailures.key, key));
}

export async function forget(db: Db, key: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.key, key));
}

export async function placeKnown(db: Db, email: string, address: string, since: Date): Promise<boolean> {
  const rows = await db
    .select({ email: signInPlaces.email })
    .from(signInPlaces)
    .where(and(eq(signInPlaces.email, email), eq(signInPlaces.address, address), gte(signInPlaces.lastAt, since)));
  return rows.length > 0;
}

export async function notePlace(db: Db, email: string, address: string, now: Date): Promise<void> {
  await db
    .insert(signInPlaces)
    .values({ email, address, lastAt: now })
    .onConflictDoUpdate({ target: [signInPlaces.email, signInPlaces.address], set: { lastAt: now } });
}

/** Drops counters and places older than their use. */
export async function pruneSignIn(db: Db, failuresBefore: Date, placesBefore: Date): Promise<void> {
  await db.delete(signInFailures).where(lt(signInFailures.lastAt, failuresBefore));
  await db.delete(signInPlaces).where(lt(signInPlaces.lastAt, placesBefore));
}
