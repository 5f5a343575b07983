import "server-only";
import { and, asc, eq, inArray, lt, notInArray, sql } from "drizzle-orm";
import type { JobResult } from "@/lib/cleanup/protocol";
import type { JobKind } from "@/lib/cleanup/types";
import { WAITING_JOB_STATES } from "@/lib/cleanup/job-states";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { cleanupJobResults, cleanupJobs, cleanupRuns, workspaces } from "../schema";
import type { Db } from "../types";
import { stagedList, stageLists } from "./result-lists";

// The rows of the cleanup jobs' lifecycle; what happens when, and its audit entries, are lib/services/cleanup-jobs.

/** Waiting jobs (one workspace's, or all) whose expiry passed become "expired". */
export function expireWaitingJobs(db: Db, now: Date, workspaceId?: string) {
  return db
    .update(cleanupJobs)
    .set({ state: "expired", finishedAt: now })
    .where(
      and(
        inArray(cleanupJobs.state, [...WAITING_JOB_STATES]),
        lt(cleanupJobs.expiresAt, now),
        workspaceId ? eq(cleanupJobs.workspaceId, workspaceId) : undefined,
      ),
    )
    .returning({ id: cleanupJobs.id, runId: cleanupJobs.runId });
}

/** Running jobs whose lease ran out become "interrupted", or "cancelled" when their run was cancelled meanwhile. */
export function lapseRunningJobs(db: Db, now: Date, workspaceId?: string) {
  return db
    .update(cleanupJobs)
    .set({
      state: sql`case when ${cleanupJobs.cancelRequested} then 'cancelled' else 'interrupted' end`,
      interruptions: sql`${cleanupJobs.interruptions} + 1`,
      finishedAt: sql`case when ${cleanupJobs.cancelRequested} then ${now.toISOString()}::timestamptz end`,
    })
    .where(
      and(
        eq(cleanupJobs.state, "running"),
        lt(cleanupJobs.leaseExpiresAt, now),
        workspaceId ? eq(cleanupJobs.workspaceId, workspaceId) : undefined,
      ),
    )
    .returning({
      id: cleanupJobs.id,
      runId: cleanupJobs.runId,
      workspaceId: cleanupJobs.workspaceId,
      state: cleanupJobs.state,
    });
}

/** A workspace's waiting jobs with their runs, oldest first, locked (those another claim holds are skipped). */
export function lockWaitingJobs(tx: Db, workspaceId: string, withoutKinds: readonly JobKind[]) {
  return tx
    .select({ job: cleanupJobs, run: cleanupRuns })
    .from(cleanupJobs)
    .innerJoin(cleanupRuns, eq(cleanupRuns.id, cleanupJobs.runId))
    .where(
      and(
        eq(cleanupJobs.workspaceId, workspaceId),
        inArray(cleanupJobs.state, [...WAITING_JOB_STATES]),
        withoutKinds.length ? notInArray(cleanupJobs.kind, [...withoutKinds]) : undefined,
      ),
    )
    .orderBy(asc(cleanupJobs.createdAt))
    .for("update", { of: cleanupJobs, skipLocked: true });
}

/** A job runs under a new lease (its token's hash), counted as one more attempt. */
export async function leaseJob(tx: Db, jobId: string, leaseTokenHash: string, leaseExpiresAt: Date, now: Date) {
  await tx
    .update(cleanupJobs)
    .set({
      state: "running",
      leaseTokenHash,
      leaseExpiresAt,
      claimedAt: now,
      attempts: sql`${cleanupJobs.attempts} + 1`,
    })
    .where(eq(cleanupJobs.id, jobId));
}

/** A running job's lease lasts until `leaseExpiresAt`. */
export async function extendLease(db: Db, jobId: string, leaseExpiresAt: Date) {
  await db.update(cleanupJobs).set({ leaseExpiresAt }).where(eq(cleanupJobs.id, jobId));
}

/** A workspace's owner and name, as a reporter's audit entries name it; undefined when it is gone. */
export async function workspaceOwnerAndName(db: Db, workspaceId: string) {
  const [w] = await db
    .select({ name: workspaces.name, owner: workspaces.owner })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return w;
}

/** The job a workspace token may act on: 404 when unknown, 403 when it is another workspace's. */
export async function ownJob(db: Db, workspaceId: string, jobId: string, lock = false) {
  const q = db
    .select({ job: cleanupJobs, cancelledAt: cleanupRuns.cancelledAt })
    .from(cleanupJobs)
    .innerJoin(cleanupRuns, eq(cleanupRuns.id, cleanupJobs.runId))
    .where(eq(cleanupJobs.id, jobId));
  const [row] = lock ? await q.for("update", { of: cleanupJobs }) : await q;
  if (!row) throw new NotFoundError(`No cleanup job ${jobId}.`);
  if (row.job.workspaceId !== workspaceId) throw new ForbiddenError("This job belongs to another workspace.");
  return row;
}

/** A job's stored result: the hash of the lease it came under and its status; undefined before its result. */
export async function storedResult(db: Db, jobId: string) {
  const [stored] = await db
    .select({ hash: cleanupJobResults.leaseTokenHash, status: cleanupJobResults.status })
    .from(cleanupJobResults)
    .where(eq(cleanupJobResults.jobId, jobId));
  return stored;
}

/**
 * Stores a job's result; `json` holds the long lists' units already serialized (one by one as they were read),
 * sent in bounded parts.
 */
export async function insertJobResult(
  tx: Db,
  jobId: string,
  leaseTokenHash: string,
  result: JobResult,
  json?: { units: string[]; skipped: string[] },
) {
  if (json) await stageLists(tx, json);
  await tx.insert(cleanupJobResults).values({
    jobId,
    leaseTokenHash,
    status: result.status,
    unitsActed: result.unitsActed,
    bytesActed: result.bytesActed,
    units: json ? stagedList("units") : result.units,
    skipped: json ? stagedList("skipped") : result.skipped,
    errors: result.errors,
    logTail: result.logTail,
    startedAt: new Date(result.startedAt),
    finishedAt: new Date(result.finishedAt),
  });
}

/** A job ends in its result's status, with the result's counts. */
export async function finishJob(tx: Db, jobId: string, result: JobResult) {
  await tx
    .update(cleanupJobs)
    .set({
      state: result.status,
      finishedAt: sql`now()`,
      unitsActed: result.unitsActed,
      bytesActed: result.bytesActed,
      skippedUnits: result.skipped.length,
      errorCount: result.errors.length,
    })
    .where(eq(cleanupJobs.id, jobId));
}
