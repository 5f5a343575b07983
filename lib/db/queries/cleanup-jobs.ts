import "server-only";
import { and, asc, eq, inArray, lt, notInArray, sql } from "drizzle-orm";
import { generateToken, hashToken } from "@/lib/secrets/tokens";
import { NAMED_JOB_KINDS, type ClaimedJob, type JobResult, type RecipeParams } from "@/lib/cleanup/protocol";
import type { JobKind } from "@/lib/cleanup/types";
import type { RecipeId } from "@/lib/catalog/recipes";
import { RESULT_JOB_STATES, WAITING_JOB_STATES } from "@/lib/cleanup/job-states";
import { jobLimits, leaseEnd } from "@/lib/cleanup/leases";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { cleanupJobResults, cleanupJobs, cleanupRuns, workspaces } from "../schema";
import type { Db } from "../types";
import { recordAudit, type AuditActor } from "./audit";
import { stagedList, stageLists } from "./result-lists";

const SYSTEM: AuditActor = { type: "system", label: "cleanup" };

/**
 * Ends what waited too long: jobs never claimed before their expiry become "expired"; running jobs whose lease
 * ran out (the reporter died or the workspace stopped mid-job) become "interrupted", claimable again, or
 * "cancelled" when their run was cancelled meanwhile. One workspace's jobs, or the whole fleet's.
 */
export async function sweepJobs(
  db: Db,
  now = new Date(),
  workspaceId?: string,
): Promise<{ expired: number; interrupted: number }> {
  const mine = workspaceId ? eq(cleanupJobs.workspaceId, workspaceId) : undefined;
  const expired = await db
    .update(cleanupJobs)
    .set({ state: "expired", finishedAt: now })
    .where(and(inArray(cleanupJobs.state, [...WAITING_JOB_STATES]), lt(cleanupJobs.expiresAt, now), mine))
    .returning({ id: cleanupJobs.id, runId: cleanupJobs.runId });
  const lapsed = await db
    .update(cleanupJobs)
    .set({
      state: sql`case when ${cleanupJobs.cancelRequested} then 'cancelled' else 'interrupted' end`,
      interruptions: sql`${cleanupJobs.interruptions} + 1`,
      finishedAt: sql`case when ${cleanupJobs.cancelRequested} then ${now.toISOString()}::timestamptz end`,
    })
    .where(and(eq(cleanupJobs.state, "running"), lt(cleanupJobs.leaseExpiresAt, now), mine))
    .returning({
      id: cleanupJobs.id,
      runId: cleanupJobs.runId,
      workspaceId: cleanupJobs.workspaceId,
      state: cleanupJobs.state,
    });
  if (expired.length) {
    const runs = [...new Set(expired.map((j) => j.runId))];
    await recordAudit(db, {
      actor: SYSTEM,
      action: "cleanup.jobs_expired",
      target: runs.length === 1 ? runs[0] : null,
      details: { jobs: expired.length, runs: runs.slice(0, 50) },
    });
  }
  for (const j of lapsed) {
    await recordAudit(db, {
      actor: SYSTEM,
      action: "cleanup.job_interrupted",
      target: j.id,
      details: { runId: j.runId, workspaceId: j.workspaceId, state: j.state },
    });
  }
  return { expired: expired.length, interrupted: lapsed.length };
}

async function workspaceActor(db: Db, workspaceId: string): Promise<AuditActor> {
  const [w] = await db
    .select({ name: workspaces.name, owner: workspaces.owner })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return { type: "workspace", id: workspaceId, label: w ? `${w.owner}/${w.name}` : workspaceId };
}

/**
 * A reporter calling in takes its workspace's waiting jobs (queued, or interrupted and so claimable again):
 * each gets a new lease token (stored hashed; the old one is refused from then on) and runs until the lease
 * runs out unless progress calls extend it. Jobs of a kind that must be named (NAMED_JOB_KINDS) go only to a
 * reporter that names it in `kinds`; others wait for one (or expire).
 */
export async function claimJobs(
  db: Db,
  workspaceId: string,
  now = new Date(),
  kinds: readonly JobKind[] = [],
): Promise<ClaimedJob[]> {
  const unknown = NAMED_JOB_KINDS.filter((k) => !kinds.includes(k));
  return db.transaction(async (tx) => {
    await sweepJobs(tx, now, workspaceId);
    const waiting = await tx
      .select({ job: cleanupJobs, run: cleanupRuns })
      .from(cleanupJobs)
      .innerJoin(cleanupRuns, eq(cleanupRuns.id, cleanupJobs.runId))
      .where(
        and(
          eq(cleanupJobs.workspaceId, workspaceId),
          inArray(cleanupJobs.state, [...WAITING_JOB_STATES]),
          unknown.length ? notInArray(cleanupJobs.kind, unknown) : undefined,
        ),
      )
      .orderBy(asc(cleanupJobs.createdAt))
      .for("update", { of: cleanupJobs, skipLocked: true });
    if (waiting.length === 0) return [];
    const leaseExpiresAt = leaseEnd(now);
    const claimed: ClaimedJob[] = [];
    for (const { job, run } of waiting) {
      const leaseToken = generateToken("slt");
      await tx
        .update(cleanupJobs)
        .set({
          state: "running",
          leaseTokenHash: hashToken(leaseToken),
          leaseExpiresAt,
          claimedAt: now,
          attempts: sql`${cleanupJobs.attempts} + 1`,
        })
        .where(eq(cleanupJobs.id, job.id));
      claimed.push({
        id: job.id,
        kind: job.kind,
        leaseToken,
        leaseExpiresAt: leaseExpiresAt.toISOString(),
        recipe: (run.recipe as RecipeId | null) ?? null,
        custom: run.custom ?? null,
        params: (run.params as RecipeParams | null) ?? null,
        dryRun: run.dryRun,
        action: run.action,
        trashDays: run.trashDays,
        minAgeHours: run.minAgeHours,
        countStatusChanges: run.countStatusChanges,
        limits: jobLimits(job, run.custom !== null),
        sourceJobId: job.sourceJobId,
        truncate: run.target ?? null,
      });
    }
    await recordAudit(tx, {
      actor: await workspaceActor(tx, workspaceId),
      action: "cleanup.jobs_claimed",
      target: workspaceId,
      details: {
        jobs: waiting.map(({ job }) => ({
          id: job.id,
          runId: job.runId,
          kind: job.kind,
          reclaimed: job.state === "interrupted",
        })),
      },
    });
    return claimed;
  });
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

export const STALE =
  "This lease is not the job's current one (it ran out and the job was claimed again, or the job ended): stop and discard.";

/** A running reporter's heartbeat: extends the lease and says whether the run was cancelled. */
export async function reportProgress(db: Db, workspaceId: string, jobId: string, leaseToken: string, now = new Date()) {
  const { job, cancelledAt } = await ownJob(db, workspaceId, jobId);
  if (job.state !== "running" || job.leaseTokenHash !== hashToken(leaseToken)) throw new ConflictError(STALE);
  const leaseExpiresAt = leaseEnd(now);
  await db.update(cleanupJobs).set({ leaseExpiresAt }).where(eq(cleanupJobs.id, jobId));
  return { leaseExpiresAt: leaseExpiresAt.toISOString(), cancelled: job.cancelRequested || cancelledAt !== null };
}

/** The hash of the lease a job's stored result came under, or null before its result. */
export async function storedResultLease(db: Db, jobId: string): Promise<string | null> {
  const [stored] = await db
    .select({ hash: cleanupJobResults.leaseTokenHash })
    .from(cleanupJobResults)
    .where(eq(cleanupJobResults.jobId, jobId));
  return stored?.hash ?? null;
}

/**
 * Stores a job's result once, from the holder of its current lease. A resend under the same lease is answered
 * as the first (the reporter may not have seen the answer); any other token is a stale holder: 409, nothing stored.
 * `json` holds the long lists' units already serialized (one by one as they were read), sent in bounded parts.
 */
export async function storeJobResult(
  db: Db,
  workspaceId: string,
  jobId: string,
  result: JobResult,
  json?: { units: string[]; skipped: string[] },
) {
  return db.transaction(async (tx) => {
    const { job } = await ownJob(tx, workspaceId, jobId, true);
    const tokenHash = hashToken(result.leaseToken);
    const [stored] = await tx
      .select({ hash: cleanupJobResults.leaseTokenHash, status: cleanupJobResults.status })
      .from(cleanupJobResults)
      .where(eq(cleanupJobResults.jobId, jobId));
    if (stored) {
      if (stored.hash !== tokenHash) throw new ConflictError(STALE);
      return { jobId, state: stored.status, stored: false };
    }
    if (job.leaseTokenHash !== tokenHash || !(RESULT_JOB_STATES as readonly string[]).includes(job.state))
      throw new ConflictError(STALE);
    if (json) await stageLists(tx, json);
    await tx.insert(cleanupJobResults).values({
      jobId,
      leaseTokenHash: tokenHash,
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
    await recordAudit(tx, {
      actor: await workspaceActor(tx, workspaceId),
      action: "cleanup.job_result",
      target: jobId,
      details: {
        runId: job.runId,
        status: result.status,
        unitsActed: result.unitsActed,
        bytesActed: result.bytesActed,
        skipped: result.skipped.length,
        errors: result.errors.length,
        // a truncation's file and what it freed, or why it was refused, in the entry itself: nothing else keeps it
        ...(job.kind === "truncate"
          ? {
              truncated: result.units.map((u) => ({ path: u.path, bytesFreed: u.bytes })),
              refused: result.skipped.map((u) => ({ path: u.path, reason: u.reason })),
            }
          : {}),
      },
    });
    return { jobId, state: result.status, stored: true };
  });
}
