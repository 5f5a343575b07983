import "server-only";
import { inArray, sql } from "drizzle-orm";
import { KEPT_REFRESH_LOCK } from "../advisory-locks";
import { notDeleted } from "../deleted";
import { keptPending } from "../schema";
import { tryAdvisoryLock } from "../try-lock";
import { rowsOf, type Db } from "../types";
import { getRules } from "./findings";
import { lockKeptShared, rewriteKeptWorkspaces } from "./kept-findings";
import { rewriteWorkspaceGrowth } from "./root-growth";
import { rewriteWorkspaceSeries } from "./workspace-series";

// The kept aggregates of the workspaces that ingest marked in kept_pending (lib/db/schema/kept-pending.ts),
// rewritten after the reports were acknowledged: many workspaces' rows in one transaction cost far less than one
// rewrite in each report's transaction (2.5 ms a report), and the report's own transaction stays short.

/** Most workspaces one refresh rewrites: a transaction holds their kept rows until it commits. */
export const REFRESH_BATCH = 256;

/**
 * Rewrites the kept aggregates of up to `limit` marked workspaces (the oldest marks first) and removes their
 * marks, in one transaction: a page reads a workspace's rows as they were before or after, never half-written.
 * A mark that a report renewed meanwhile stays (that report's roots may be newer than what was read). Returns the
 * workspaces rewritten, or null when another refresher holds the lock (it leaves none behind: it refreshes until
 * no mark is left).
 */
export async function refreshKeptPending(db: Db, limit = REFRESH_BATCH): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    if (!(await tryAdvisoryLock(tx, KEPT_REFRESH_LOCK, "transaction"))) return null;
    const marks = await tx
      .select({ workspaceId: keptPending.workspaceId, version: sql<string>`${keptPending.version}::text` })
      .from(keptPending)
      .orderBy(keptPending.markedAt, keptPending.workspaceId)
      .limit(limit);
    if (marks.length === 0) return [];
    const ids = marks.map((m) => m.workspaceId);
    await lockKeptShared(tx);
    await rewriteKeptWorkspaces(tx, await getRules(tx), ids);
    await rewriteWorkspaceSeries(tx, ids);
    await rewriteWorkspaceGrowth(tx, ids);
    // Locked in id order, as ingest marks them, so a report marking several of them never deadlocks with this.
    await tx.execute(sql`delete from kept_pending p using (
        select k.workspace_id, k.version = m.v as done from kept_pending k
        join unnest(${sql.param(ids)}::text[], ${sql.param(marks.map((m) => m.version))}::bigint[]) as m(ws, v)
          on k.workspace_id = m.ws
        order by k.workspace_id for update of k
      ) read where p.workspace_id = read.workspace_id and read.done`);
    // A mark a report renewed during this pass stays, but what it waits for is only that newer report: every
    // report stored before this transaction began is in the rows just written. Its time moves up to then, so a
    // busy workspace's figures do not show the age of a report they already hold (rows locked just above).
    await tx
      .update(keptPending)
      .set({ markedAt: sql`greatest(${keptPending.markedAt}, transaction_timestamp())` })
      .where(inArray(keptPending.workspaceId, ids));
    return ids;
  });
}

/**
 * The time the fleet's figures hold every report up to: while marks wait, the oldest mark's (every report stored
 * before it is in the kept aggregates, later ones may not be yet); else the newest report's arrival (of a workspace not deleted). Null before
 * the first report. Pages show it as "figures as of …", so a lag of the refresh is visible, never silent.
 */
export async function figuresAsOf(db: Db): Promise<Date | null> {
  // One statement of two subqueries and no table of its own (the query builder needs one): read in one snapshot.
  const [row] = rowsOf<{ at: string | Date | null }>(
    await db.execute(sql`select coalesce((select min(marked_at) from kept_pending),
      (select max(w.last_seen_at) from workspaces w where ${notDeleted})) as at`),
  );
  return row?.at == null ? null : new Date(row.at);
}
