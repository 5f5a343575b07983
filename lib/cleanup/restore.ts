// Which jobs' trash can be restored: one rule for the run page's Restore button and the restore request.
import { addDays } from "date-fns";

type RestoreRun = { action: "delete" | "trash"; dryRun: boolean; trashDays: number };
type RestoreJob = { kind: string; state: string; unitsActed: number | null; finishedAt: Date | string | null };

/**
 * Why the trash of `job` cannot be restored at `now`, or null when it can: only a finished cleanup job that
 * moved units to the trash, until the reporter empties that trash (trashDays after the job ended).
 */
export function restoreRefusal(run: RestoreRun, job: RestoreJob, now: Date): string | null {
  const trashed =
    job.kind === "cleanup" &&
    job.state === "done" &&
    run.action === "trash" &&
    !run.dryRun &&
    (job.unitsActed ?? 0) > 0;
  if (!trashed) return "Only a finished cleanup job that moved units to the trash can be restored.";
  if (job.finishedAt && addDays(new Date(job.finishedAt), run.trashDays) < now) {
    return `The trash of this job was emptied ${run.trashDays} days after it ran; nothing is left to restore.`;
  }
  return null;
}
