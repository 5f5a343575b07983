import "server-only";
import { addDays } from "date-fns";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { RECIPES } from "@/lib/catalog/recipes";
import type { RunRequest } from "@/lib/cleanup/protocol";
import { movedSince } from "@/lib/cleanup/confirmation";
import { restoreRefusal } from "@/lib/cleanup/restore";
import { WAITING_JOB_STATES } from "@/lib/cleanup/job-states";
import { DEFAULT_EXPIRES_DAYS, type JobKind } from "@/lib/cleanup/types";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { formatBytes } from "@/lib/format/bytes";
import { formatCountOf } from "@/lib/format/numbers";
import { cleanupJobs, cleanupRuns, workspaces } from "../schema";
import type { Db } from "../types";
import { recordAudit, type AuditActor } from "./audit";
import { previewRun, type CleanupPreview } from "./cleanup-preview";
import { refuseDeletedWorkspaces } from "./cleanup-deleted";

/** Who acts, for the run's record and the audit log. */
export type Who = { actor: AuditActor; ip?: string | null; userAgent?: string | null };

const JOB_CHUNK = 1000;

function creator(who: Who) {
  const a = who.actor;
  return { createdByType: a.type, createdById: "id" in a ? a.id : null, createdByLabel: a.label ?? a.type };
}

/** The scope in an audit entry: its kind and size, not ten thousand ids. */
function scopeSummary(scope: RunRequest["scope"]) {
  if ("all" in scope) return "all";
  const [kind, values] = Object.entries(scope)[0] as [string, string[]];
  return values.length <= 5 ? `${kind}: ${values.join(", ")}` : `${kind}: ${values.length}`;
}

type NewJob = {
  workspaceId: string;
  rootKeys?: string[];
  previewBytes?: number;
  previewUnits?: number;
  sourceJobId?: string | null;
};

/** Inserts a run and its jobs in one transaction, with the audit entry. */
async function insertRun(
  db: Db,
  run: Omit<typeof cleanupRuns.$inferInsert, "createdByType" | "createdById" | "createdByLabel">,
  jobs: NewJob[],
  who: Who,
  audit: { action: string; details: Record<string, unknown> },
): Promise<{ id: string; jobs: number }> {
  return db.transaction(async (tx) => {
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
    await recordAudit(tx, {
      actor: who.actor,
      action: audit.action,
      target: row.id,
      details: { ...audit.details, jobs: jobs.length },
      ip: who.ip,
      userAgent: who.userAgent,
    });
    return { id: row.id, jobs: jobs.length };
  });
}

export type StartRun = RunRequest & { confirmBytes?: number; expiresDays?: number };

/**
 * Refuses (409) a preview that moved by more than the tolerance from the figure the admin confirmed: a run, a
 * policy's confirmation and its "Run now" all act only on the figure that was seen.
 */
export function assertConfirmed(preview: CleanupPreview, confirmBytes: number) {
  const { bytes, workspaces } = preview.total;
  if (movedSince(bytes, confirmBytes)) {
    throw new ConflictError(
      `The preview changed since you saw it: it is now ${formatBytes(bytes)} (${bytes} bytes) from ${formatCountOf(workspaces, "workspace")}, ` +
        `you confirmed ${formatBytes(confirmBytes)}. Look at the new figure and confirm it.`,
      { previewBytes: bytes, confirmBytes, workspaces },
    );
  }
}

/**
 * Creates a run from the latest reports: one job per workspace in scope whose root holds something the
 * parameters select (workspaces whose reporter sends no usage get none). `confirmBytes` is the preview the admin
 * saw; the run is refused when the preview has since moved by more than 10 %.
 */
export async function createRun(
  db: Db,
  request: StartRun,
  who: Who,
  opts: { policyId?: string; preview?: CleanupPreview; audit?: Record<string, unknown> } = {},
) {
  if ("workspaceIds" in request.scope) await refuseDeletedWorkspaces(db, request.scope.workspaceIds);
  const preview = opts.preview ?? (await previewRun(db, request, { listAll: true }));
  const bytes = preview.total.bytes;
  if (request.confirmBytes !== undefined) assertConfirmed(preview, request.confirmBytes);
  if (preview.workspaces.length === 0) {
    throw new ConflictError("Nothing to clean up: no workspace in this scope has anything these parameters select.", {
      previewBytes: bytes,
    });
  }
  const recipe = request.recipe ? RECIPES.find((r) => r.id === request.recipe) : undefined;
  const action = request.action ?? recipe?.defaultAction ?? "trash";
  const jobs = preview.workspaces.map((w) => ({
    workspaceId: w.workspaceId,
    rootKeys: w.roots,
    previewBytes: w.bytes,
    previewUnits: w.units,
  }));
  return insertRun(
    db,
    {
      kind: "cleanup",
      recipe: request.recipe ?? null,
      custom: request.custom ?? null,
      params: request.params,
      scope: request.scope,
      dryRun: request.dryRun,
      action,
      trashDays: request.trashDays,
      minAgeHours: request.minAgeHours,
      countStatusChanges: request.countStatusChanges,
      expiresDays: request.expiresDays ?? DEFAULT_EXPIRES_DAYS,
      policyId: opts.policyId ?? null,
      previewBytes: bytes,
      previewUnits: preview.total.units,
      previewEstimate: preview.total.estimate,
      workspacesWithoutUsage: preview.withoutUsage.count,
    },
    jobs,
    who,
    {
      action: "cleanup.run_created",
      details: {
        recipe: request.recipe ?? null,
        custom: request.custom ?? null,
        params: request.params,
        scope: scopeSummary(request.scope),
        dryRun: request.dryRun,
        action,
        confirmBytes: request.confirmBytes ?? null,
        previewBytes: bytes,
        policyId: opts.policyId ?? null,
        ...opts.audit,
      },
    },
  );
}

/** Cancels a run: waiting jobs end as cancelled, running ones are told to stop at their next progress call. */
export async function cancelRun(db: Db, runId: string, who: Who) {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .select({ id: cleanupRuns.id })
      .from(cleanupRuns)
      .where(eq(cleanupRuns.id, runId))
      .for("update");
    if (!run) throw new NotFoundError(`No cleanup run ${runId}.`);
    await tx
      .update(cleanupRuns)
      .set({ cancelledAt: sql`now()`, cancelledBy: who.actor.label ?? who.actor.type })
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
    const result = { cancelled: cancelled.length, stopping: flagged.length };
    await recordAudit(tx, {
      actor: who.actor,
      action: "cleanup.run_cancelled",
      target: runId,
      details: result,
      ip: who.ip,
      userAgent: who.userAgent,
    });
    return result;
  });
}

/** Queues a restore of what a cleanup job moved to the trash, for that job's workspace. */
export async function queueRestore(db: Db, jobId: string, who: Who) {
  const [job] = await db
    .select({ job: cleanupJobs, run: cleanupRuns })
    .from(cleanupJobs)
    .innerJoin(cleanupRuns, eq(cleanupRuns.id, cleanupJobs.runId))
    .where(eq(cleanupJobs.id, jobId));
  if (!job) throw new NotFoundError(`No cleanup job ${jobId}.`);
  const { run } = job;
  const refusal = restoreRefusal(run, job.job, new Date());
  if (refusal) throw new ConflictError(refusal);
  await refuseDeletedWorkspaces(db, [job.job.workspaceId]);
  return startTrashJobs(db, "restore", [job.job.workspaceId], who, {
    sourceJobId: jobId,
    recipe: run.recipe,
    action: run.action,
    trashDays: run.trashDays,
  });
}

/** Queues an empty-the-trash-now job for each given workspace that exists. */
export async function queueTrashPurge(db: Db, workspaceIds: string[], who: Who) {
  const found = await db.select({ id: workspaces.id }).from(workspaces).where(inArray(workspaces.id, workspaceIds));
  if (found.length === 0) throw new NotFoundError("None of these workspaces is known.");
  await refuseDeletedWorkspaces(
    db,
    found.map((w) => w.id),
  );
  return startTrashJobs(
    db,
    "purge-trash",
    found.map((w) => w.id),
    who,
    { sourceJobId: null, recipe: null, action: "delete", trashDays: 1 },
  );
}

async function startTrashJobs(
  db: Db,
  kind: Exclude<JobKind, "cleanup">,
  workspaceIds: string[],
  who: Who,
  from: { sourceJobId: string | null; recipe: string | null; action: "delete" | "trash"; trashDays: number },
) {
  return insertRun(
    db,
    {
      kind,
      recipe: from.recipe,
      params: null,
      scope: { workspaceIds },
      dryRun: false,
      action: from.action,
      trashDays: from.trashDays,
      minAgeHours: 1,
      expiresDays: DEFAULT_EXPIRES_DAYS,
      sourceJobId: from.sourceJobId,
    },
    workspaceIds.map((workspaceId) => ({ workspaceId, sourceJobId: from.sourceJobId })),
    who,
    {
      action: kind === "restore" ? "cleanup.restore_queued" : "cleanup.trash_purge_queued",
      details: {
        sourceJobId: from.sourceJobId,
        workspaces: workspaceIds.length <= 5 ? workspaceIds : workspaceIds.length,
      },
    },
  );
}
