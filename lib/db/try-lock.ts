import "server-only";
import { sql } from "drizzle-orm";
import type { TryLock } from "./advisory-locks";
import { rowsOf, type Db } from "./types";

/**
 * Takes `lock` if no one holds it: for the session (released by pg_advisory_unlock) or for the caller's
 * transaction. False when another instance holds it. A lock is a function call on no table, which Drizzle's
 * query builder has no form for: hence db.execute.
 */
export async function tryAdvisoryLock(db: Db, lock: TryLock, scope: "session" | "transaction"): Promise<boolean> {
  const [row] = rowsOf<{ got: boolean }>(
    await db.execute(
      scope === "session"
        ? sql`select pg_try_advisory_lock(${lock}) as got`
        : sql`select pg_try_advisory_xact_lock(${lock}) as got`,
    ),
  );
  return row.got;
}
