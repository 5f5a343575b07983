import "server-only";
import { NAMED_JOB_KINDS, type ClaimedJob, type JobResult, type RecipeParams } from "@/lib/cleanup/protocol";
import type { JobKind } from "@/lib/cleanup/types";
import type { RecipeId } from "@/lib/catalog/recipes";
import { RESULT_JOB_STATES } from "@/lib/cleanup/job-states";
import { jobLimits, leaseEnd } from "@/lib/cleanup/leases";
import type { Who } from "@/lib/db/queries/audit";
import {
  expireWaitingJobs,
  extendLease,
  finishJob,
  insertJobResult,
  lapseRunningJobs,
  leaseJob,
  lockWaitingJobs,
  ownJob,
  storedResult,
  workspaceOwnerAndName,
} from "@/lib/db/queries/cleanup-jobs";
import { keptPaths } from "@/lib/db/queries/owner-cleanup";
import type { Db } from "@/lib/db/types";
import { ConflictError } from "@/lib/errors";
import { generateToken, hashToken } from "@/lib/secrets/tokens";
import { withTransaction, writeAudit, type Change } from "./transaction";

// A cleanup job's lifecycle: claimed under a lease, kept alive by progress, ended by its result or by the sweep.
// The dashboard's own steps (the sweep) are the system's; what a reporter does is its workspace's, named in the
// entry written inside the same transaction.

const CLEANUP: Who = { actor: { type: "system", label: "cleanup" } };

export const STALE =
  "This lease is not the job's current one (it ran out and the job was claimed again, or the job ended): stop and discard.";

/** The reporter of a workspace, as its audit entries name it. */
async function workspaceWho(db: Db, workspaceId: string): Promise<Who> {
  const w = await workspaceOwnerAndName(db, workspaceId);
  return { actor: { type: "workspace", id: workspaceId, label: w ? `${w.owner}/${w.name}` : workspaceId } };
}

async function sweepIn({ tx, now, audit }: Change, workspaceId?: string) {
  const expired = await expireWaitingJobs(tx, now, workspaceId);
  const lapsed = await lapseRunningJobs(tx, now, workspaceId);
  if (expired.length) {
    const runs = [...new Set(expired.map((j) => j.runId))];
    await audit({
      action: "cleanup.jobs_expired",
      target: runs.length === 1 ? runs[0] : null,
      details: { jobs: expired.length, runs: runs.slice(0, 50) },
    });
  }
  for (const j of lapsed) {
    await audit({
      action: "cleanup.job_interrupted",
      target: j.id,
      details: { runId: j.runId, workspaceId: j.workspaceId, state: j.state },
    });
  }
  return { expired: expired.length, interrupted: lapsed.length };
}

/**
 * Ends what waited too long: jobs never claimed before their expiry become "expired"; running jobs whose lease
 * ran out (the reporter died or the workspace stopped mid-job) become "interrupted", claimable again, or
 * "cancelled" when their run was cancelled meanwhile. One workspace's jobs, or the whole fleet's.
 */
export function sweepJobs(
  db: Db,
  now = new Date(),
  workspaceId?: string,
): Promise<{ expired: number; interrupted: number }> {
  return withTransaction({ db, who: CLEANUP, now }, (change) => sweepIn(change, workspaceId));
}

/**
 * A reporter calling in takes its workspace's waiting jobs (queued, or interrupted and so claimable again):
 * each gets a new lease token (stored hashed; the old one is refused from then on) and runs until the lease
 * runs out unless progress calls extend it. Jobs of a kind that must be named (NAMED_JOB_KINDS) go only to a
 * reporter that names it in `kinds`; others wait for one (or expire).
 */
export function claimJobs(
  db: Db,
  workspaceId: string,
  now = new Date(),
  kinds: readonly JobKind[] = [],
): Promise<ClaimedJob[]> {
  const unknown = NAMED_JOB_KINDS.filter((k) => !kinds.includes(k));
  return withTransaction({ db, who: CLEANUP, now }, async (change) => {
    const { tx } = change;
    await sweepIn(change, workspaceId);
    const waiting = await lockWaitingJobs(tx, workspaceId, unknown);
    if (waiting.length === 0) return [];
    const leaseExpiresAt = leaseEnd(now);
    // The owner's Keeps in force now go with each cleanup job, beside the protect file the reporter reads itself.
    const kept = await keptPaths(tx, workspaceId, now);
    const claimed: ClaimedJob[] = [];
    for (const { job, run } of waiting) {
      const leaseToken = generateToken("slt");
      await leaseJob(tx, job.id, hashToken(leaseToken), leaseExpiresAt, now);
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
        limits: jobLimits(job, run),
        ...(job.kind === "cleanup" ? { keep: kept } : {}),
        sourceJobId: job.sourceJobId,
        truncate: run.target ?? null,
      });
    }
    await writeAudit(tx, await workspaceWho(tx, workspaceId), {
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

/** A running reporter's heartbeat: extends the lease and says whether the run was cancelled. */
export function reportProgress(db: Db, workspaceId: string, jobId: string, leaseToken: string, now = new Date()) {
  return withTransaction({ db, who: CLEANUP, now }, async ({ tx }) => {
    const { job, cancelledAt } = await ownJob(tx, workspaceId, jobId);
    if (job.state !== "running" || job.leaseTokenHash !== hashToken(leaseToken)) throw new ConflictError(STALE);
    const leaseExpiresAt = leaseEnd(now);
    await extendLease(tx, jobId, leaseExpiresAt);
    return { leaseExpiresAt: leaseExpiresAt.toISOString(), cancelled: job.cancelRequested || cancelledAt !== null };
  });
}

/** A job's result as its audit entry sums it up. */
function resultDetails(job: { runId: string; kind: JobKind }, result: JobResult) {
  return {
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
  };
}

/**
 * Stores a job's result once, from the holder of its current lease. A resend under the same lease is answered
 * as the first (the reporter may not have seen the answer); any other token is a stale holder: 409, nothing stored.
 * `json` holds the long lists already serialized (step by step as they were read), stored as they are.
 */
export function storeJobResult(
  db: Db,
  workspaceId: string,
  jobId: string,
  result: JobResult,
  json?: { units: string[]; skipped: string[] },
) {
  return withTransaction({ db, who: CLEANUP }, async ({ tx }) => {
    const { job } = await ownJob(tx, workspaceId, jobId, true);
    const tokenHash = hashToken(result.leaseToken);
    const stored = await storedResult(tx, jobId);
    if (stored) {
      if (stored.hash !== tokenHash) throw new ConflictError(STALE);
      return { jobId, state: stored.status, stored: false };
    }
    if (job.leaseTokenHash !== tokenHash || !(RESULT_JOB_STATES as readonly string[]).includes(job.state))
      throw new ConflictError(STALE);
    await insertJobResult(tx, jobId, tokenHash, result, json);
    await finishJob(tx, jobId, result);
    await writeAudit(tx, await workspaceWho(tx, workspaceId), {
      action: "cleanup.job_result",
      target: jobId,
      details: resultDetails(job, result),
    });
    return { jobId, state: result.status, stored: true };
  });
}
