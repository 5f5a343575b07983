import "server-only";
import { addDays } from "date-fns";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { WAITING_JOB_STATES } from "@/lib/cleanup/job-states";
import { cleanupJobs, cleanupRuns, workspaces } from "../schema";
import type { Db } from "../types";
import type { Who } from "./audit";

const JOB_CHUNK = 1000;

function creator(who: Who) {
  const a = who.actor;
  return { createdByType: a.type, createdById: "id" in a ? a.id : null, createdByLabel: a.label ?? a.type };
}

type NewJob = {
  workspaceId: string;
  rootKeys?: string[];
  previewBytes?: number;
  previewUnits?: number;
  sourceJobId?: string | null;
};

/** Inserts a run and its jobs, in the caller's transaction (jobs a chunk at a time). */
export async function insertRun(
  tx: Db,
  run: Omit<typeof cleanupRuns.$inferInsert, "createdByType" | "createdById" | "createdByLabel">,
  jobs: NewJob[],
  who: Who,
): Promise<{ id: string; jobs: number }> {
  const [row] = await tx
    .insert(cleanupRuns)
    .values({ ...run, ...creator(who) })
    .returning({ id: cleanupRuns.id, createdAt: cleanupRuns.createdAt });
  const expiresAt = addDays(row.createdAt, run.expiresDays);
  for (let i = 0; i < jobs.length; i += JOB_CHUNK) {
    await tx.insert(cleanupJobs).values(
      jobs.slice(i, i + JOB_CHUNK).map((j) => ({
        runId: row.id,
        workspaceId: j.workspaceId,
        kind: run.kind,
        rootKeys: j.rootKeys ?? [],
        previewBytes: j.previewBytes ?? 0,
        previewUnits: j.previewUnits ?? 0,
        sourceJobId: j.sourceJobId ?? null,
        expiresAt,
      })),
    );
  }
  return { id: row.id, jobs: jobs.length };
}

/**
 * Ends a run: stamps it cancelled, ends its waiting jobs as cancelled and flags its running ones to stop at their
 * next progress call. Null when there is no such run.
 */
export async function markRunCancelled(
  tx: Db,
  runId: string,
  by: string,
): Promise<{ cancelled: number; stopping: number } | null> {
  const [run] = await tx
    .select({ id: cleanupRuns.id })
    .from(cleanupRuns)
    .where(eq(cleanupRuns.id, runId))
    .for("update");
  if (!run) return null;
  await tx
    .update(cleanupRuns)
    .set({ cancelledAt: sql`now()`, cancelledBy: by })
    .where(and(eq(cleanupRuns.id, runId), isNull(cleanupRuns.cancelledAt)));
  const cancelled = await tx
    .update(cleanupJobs)
    .set({ state: "cancelled", finishedAt: sql`now()` })
    .where(and(eq(cleanupJobs.runId, runId), inArray(cleanupJobs.state, [...WAITING_JOB_STATES])))
    .returning({ id: cleanupJobs.id });
  const flagged = await tx
    .update(cleanupJobs)
    .set({ cancelRequested: true })
    .where(and(eq(cleanupJobs.runId, runId), eq(cleanupJobs.state, "running")))
    .returning({ id: cleanupJobs.id });
  return { cancelled: cancelled.length, stopping: flagged.length };
}

/** A cleanup job with its run; undefined when there is none. */
export async function jobWithRun(db: Db, jobId: string) {
  const [found] = await db
    .select({ job: cleanupJobs, run: cleanupRuns })
    .from(cleanupJobs)
    .innerJoin(cleanupRuns, eq(cleanupRuns.id, cleanupJobs.runId))
    .where(eq(cleanupJobs.id, jobId));
  return found;
}

/** The ids among `ids` of workspaces the dashboard knows. */
export async function knownWorkspaceIds(db: Db, ids: string[]): Promise<string[]> {
  const found = await db.select({ id: workspaces.id }).from(workspaces).where(inArray(workspaces.id, ids));
  return found.map((w) => w.id);
}
