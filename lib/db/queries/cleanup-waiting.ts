import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { WAITING_JOB_STATES } from "@/lib/cleanup/job-states";
import { hoursSince, type WaitingReporters } from "@/lib/cleanup/waiting";
import { cleanupJobs, workspaces } from "../schema";
import type { Db } from "../types";

/** Read by the run's jobs index (run, state); the page says so when no reporter of them called in for hours. */
export async function waitingReporters(db: Db, runId: string, now = new Date()): Promise<WaitingReporters> {
  const [row] = await db
    .select({
      jobs: sql<number>`count(*)::int`,
      last: sql<Date | string | null>`max(${workspaces.lastCollectedAt})`,
    })
    .from(cleanupJobs)
    .innerJoin(workspaces, eq(workspaces.id, cleanupJobs.workspaceId))
    .where(and(eq(cleanupJobs.runId, runId), inArray(cleanupJobs.state, [...WAITING_JOB_STATES])));
  const last = row?.last ? new Date(row.last).toISOString() : null;
  return { jobs: row?.jobs ?? 0, lastReportAt: last, quietHours: hoursSince(last, now) };
}
