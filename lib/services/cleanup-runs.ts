import "server-only";
import { defaultActionOf } from "@/lib/catalog/recipes";
import { movedSince } from "@/lib/cleanup/confirmation";
import type { RunRequest } from "@/lib/cleanup/protocol";
import { restoreRefusal } from "@/lib/cleanup/restore";
import { DEFAULT_EXPIRES_DAYS, type JobKind } from "@/lib/cleanup/types";
import type { Db } from "@/lib/db/types";
import type { Who } from "@/lib/db/queries/audit";
import { refuseDeletedWorkspaces } from "@/lib/db/queries/cleanup-deleted";
import { previewRun, type CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import { jobWithRun, knownWorkspaceIds, markRunCancelled } from "@/lib/db/queries/cleanup-runs";
import { storeRun } from "./run-store";
import { withTransaction } from "./transaction";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { formatBytes } from "@/lib/format/bytes";
import { formatCountOf } from "@/lib/format/numbers";

/** The scope in an audit entry: its kind and size, not ten thousand ids. */
function scopeSummary(scope: RunRequest["scope"]) {
  if ("all" in scope) return "all";
  const [kind, values] = Object.entries(scope)[0] as [string, string[]];
  return values.length <= 5 ? `${kind}: ${values.join(", ")}` : `${kind}: ${values.length}`;
}

export type StartRun = RunRequest & { confirmBytes?: number; expiresDays?: number; includeSilent?: boolean };

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
  opts: { policyId?: string; preview?: CleanupPreview; audit?: Record<string, unknown>; byOwner?: boolean } = {},
) {
  if ("workspaceIds" in request.scope) await refuseDeletedWorkspaces(db, request.scope.workspaceIds);
  const preview =
    opts.preview ?? (await previewRun(db, request, { listAll: true, includeSilent: request.includeSilent }));
  const bytes = preview.total.bytes;
  if (request.confirmBytes !== undefined) assertConfirmed(preview, request.confirmBytes);
  if (preview.workspaces.length === 0) {
    const [first] = preview.outdated.workspaces;
    const left = first
      ? ` ${formatCountOf(preview.outdated.count, "workspace")} left out: ${first.owner}/${first.name}: ${first.reason}.`
      : "";
    throw new ConflictError(
      `Nothing to clean up: no workspace in this scope has anything these parameters select.${left}`,
      { previewBytes: bytes, outdated: preview.outdated.count },
    );
  }
  const action = request.action ?? defaultActionOf(request);
  const jobs = preview.workspaces.map((w) => ({
    workspaceId: w.workspaceId,
    rootKeys: w.roots,
    previewBytes: w.bytes,
    previewUnits: w.units,
  }));
  return storeRun(
    { db, who },
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
      byOwner: opts.byOwner ?? false,
    },
    jobs,
    {
      action: "cleanup.run_created",
      details: {
        recipe: request.recipe ?? null,
        custom: request.custom ?? null,
        params: request.params,
        scope: scopeSummary(request.scope),
        dryRun: request.dryRun,
        action,
        includeSilent: request.includeSilent ?? false,
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
  return withTransaction({ db, who }, async ({ tx, audit }) => {
    const result = await markRunCancelled(tx, runId, who.actor.label ?? who.actor.type);
    if (!result) throw new NotFoundError(`No cleanup run ${runId}.`);
    await audit({ action: "cleanup.run_cancelled", target: runId, details: result });
    return result;
  });
}

/** Queues a restore of what a cleanup job moved to the trash, for that job's workspace. */
export async function queueRestore(db: Db, jobId: string, who: Who) {
  const job = await jobWithRun(db, jobId);
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
  const found = await knownWorkspaceIds(db, workspaceIds);
  if (found.length === 0) throw new NotFoundError("None of these workspaces is known.");
  await refuseDeletedWorkspaces(db, found);
  return startTrashJobs(db, "purge-trash", found, who, {
    sourceJobId: null,
    recipe: null,
    action: "delete",
    trashDays: 1,
  });
}

async function startTrashJobs(
  db: Db,
  kind: Exclude<JobKind, "cleanup">,
  workspaceIds: string[],
  who: Who,
  from: { sourceJobId: string | null; recipe: string | null; action: "delete" | "trash"; trashDays: number },
) {
  return storeRun(
    { db, who },
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
    {
      action: kind === "restore" ? "cleanup.restore_queued" : "cleanup.trash_purge_queued",
      details: {
        sourceJobId: from.sourceJobId,
        workspaces: workspaceIds.length <= 5 ? workspaceIds : workspaceIds.length,
      },
    },
  );
}
