import "server-only";
import { eq } from "drizzle-orm";
import { freedOf } from "@/lib/cleanup/freed";
import { SHOWN_JOB_STATES } from "@/lib/cleanup/job-states";
import { col, type CsvColumn, type CsvExport } from "@/lib/csv/columns";
import type { PageOptions } from "@/lib/db/keyset";
import { everyRun, type RunSummary } from "@/lib/db/queries/cleanup-views";
import { runOutcomeRows, type OutcomeRow } from "@/lib/db/queries/export-cleanup";
import { cleanupRuns } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { NotFoundError } from "@/lib/errors";
import { utcDayOf } from "@/lib/series";

// The Cleanup pages as CSV: the runs list (every run, not the pages shown) and one run's outcomes.

/** JSON as one cell (the custom rule, a truncated file, parameters and scope): what the run was asked, exactly. */
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** What a run freed and when; none for a restore (it brings units back) or a dry run (it acts on nothing). */
const runFreed = (r: RunSummary) =>
  r.kind === "restore" || r.dryRun ? null : freedOf(r.progress.bytesFreed, r.kind === "cleanup" ? r.action : "delete");

/** A run as the runs list and the run's page show it (RunSummary), one row each. */
export const RUN_COLUMNS: CsvColumn<RunSummary>[] = [
  col("id", "text", (r) => r.id),
  col("created_at", "time", (r) => r.createdAt),
  col("created_by", "text", (r) => r.createdBy),
  col("kind", "text", (r) => r.kind),
  col("recipe", "text", (r) => r.recipe),
  col("custom", "text", (r) => json(r.custom)),
  col("target", "text", (r) => json(r.target)),
  col("params", "text", (r) => json(r.params)),
  col("scope", "text", (r) => json(r.scope)),
  col("dry_run", "boolean", (r) => r.dryRun),
  col("action", "text", (r) => r.action),
  col("trash_days", "integer", (r) => r.trashDays),
  col("min_age_hours", "integer", (r) => r.minAgeHours),
  col("status", "text", (r) => r.status),
  col("jobs", "integer", (r) => r.progress.jobs),
  ...SHOWN_JOB_STATES.map((s) => col<RunSummary>(`jobs_${s}`, "integer", (r) => r.progress.states[s])),
  col("units_acted", "integer", (r) => r.progress.unitsActed),
  col("bytes_acted", "integer", (r) => r.progress.bytesFreed),
  // bytes_acted by when the space is free: deleted (or a trash emptied) now, trashed once the trash expires
  col("bytes_freed_now", "integer", (r) => runFreed(r)?.nowBytes),
  col("bytes_freed_later", "integer", (r) => runFreed(r)?.laterBytes),
  col("preview_units", "integer", (r) => r.previewUnits),
  col("preview_bytes", "integer", (r) => r.previewBytes),
  col("preview_estimate", "boolean", (r) => r.previewEstimate),
  col("workspaces_without_usage", "integer", (r) => r.workspacesWithoutUsage),
  col("policy_id", "text", (r) => r.policyId),
  col("source_job_id", "text", (r) => r.sourceJobId),
  col("cancelled_at", "time", (r) => r.cancelledAt),
  col("cancelled_by", "text", (r) => r.cancelledBy),
];

/**
 * GET /api/v1/export/cleanup/runs.csv: every run, newest first, with its jobs counted by state as the pages
 * show them (jobs_lapsed: running past their lease, not yet ended by the scheduler).
 */
export async function cleanupRunsExport(
  db: Db,
  opts: PageOptions & { now?: Date } = {},
): Promise<CsvExport<RunSummary>> {
  return {
    filename: `cleanup-runs-${utcDayOf(opts.now ?? new Date())}.csv`,
    columns: RUN_COLUMNS,
    rows: everyRun(db, opts),
  };
}

export const OUTCOME_COLUMNS: CsvColumn<OutcomeRow>[] = [
  col("workspace_id", "text", (r) => r.workspace_id),
  col("workspace", "text", (r) => r.workspace),
  col("owner", "text", (r) => r.owner),
  col("job_id", "text", (r) => r.job_id),
  col("job_state", "text", (r) => r.job_state),
  col("path", "text", (r) => r.path),
  col("bytes", "integer", (r) => r.bytes),
  col("action", "text", (r) => r.action),
  col("trash_path", "text", (r) => r.trash_path),
  col("message", "text", (r) => r.message),
];

/** GET /api/v1/export/cleanup/runs/{id}.csv: every unit outcome, skip and error of every job of the run. */
export async function cleanupRunExport(db: Db, runId: string, opts: PageOptions = {}): Promise<CsvExport<OutcomeRow>> {
  const [run] = await db.select({ id: cleanupRuns.id }).from(cleanupRuns).where(eq(cleanupRuns.id, runId));
  if (!run) throw new NotFoundError(`No cleanup run ${runId}.`);
  return { filename: `cleanup-run-${runId}.csv`, columns: OUTCOME_COLUMNS, rows: runOutcomeRows(db, runId, opts) };
}
