import "server-only";
import { eq } from "drizzle-orm";
import { SHOWN_JOB_STATES } from "@/lib/cleanup/job-states";
import { progressFrom, runStatus } from "@/lib/cleanup/run-progress";
import { col, type CsvColumn, type CsvExport } from "@/lib/csv/columns";
import type { PageOptions } from "@/lib/db/keyset";
import { cleanupRunRows, runOutcomeRows, type OutcomeRow, type RunExportRow } from "@/lib/db/queries/export-cleanup";
import { cleanupRuns } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { NotFoundError } from "@/lib/errors";
import { utcDayOf } from "@/lib/series";

// The Cleanup pages as CSV: the runs list (every run, not the pages shown) and one run's outcomes.

/** JSON as one cell (the custom rule, parameters and scope): what the run was asked, exactly. */
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** The run's progress from its row's counts, as the pages compute it. */
const progressOf = (r: RunExportRow) =>
  progressFrom(Object.fromEntries(SHOWN_JOB_STATES.map((s) => [s, r[`jobs_${s}`]])), {
    bytes: Number(r.bytes_acted),
    units: Number(r.units_acted),
  });

export const RUN_COLUMNS: CsvColumn<RunExportRow>[] = [
  col("id", "text", (r) => r.id),
  col("created_at", "time", (r) => r.created_at),
  col("created_by", "text", (r) => r.created_by),
  col("kind", "text", (r) => r.kind),
  col("recipe", "text", (r) => r.recipe),
  col("custom", "text", (r) => json(r.custom)),
  col("params", "text", (r) => json(r.params)),
  col("scope", "text", (r) => json(r.scope)),
  col("dry_run", "boolean", (r) => r.dry_run),
  col("action", "text", (r) => r.action),
  col("trash_days", "integer", (r) => r.trash_days),
  col("min_age_hours", "integer", (r) => r.min_age_hours),
  col("status", "text", (r) => runStatus(r.cancelled_at !== null, progressOf(r))),
  col("jobs", "integer", (r) => r.jobs),
  ...SHOWN_JOB_STATES.map((s) => col<RunExportRow>(`jobs_${s}`, "integer", (r) => r[`jobs_${s}`])),
  col("units_acted", "integer", (r) => r.units_acted),
  col("bytes_acted", "integer", (r) => r.bytes_acted),
  col("preview_units", "integer", (r) => r.preview_units),
  col("preview_bytes", "integer", (r) => r.preview_bytes),
  col("preview_estimate", "boolean", (r) => r.preview_estimate),
  col("workspaces_without_usage", "integer", (r) => r.workspaces_without_usage),
  col("policy_id", "text", (r) => r.policy_id),
  col("source_job_id", "text", (r) => r.source_job_id),
  col("cancelled_at", "time", (r) => r.cancelled_at),
  col("cancelled_by", "text", (r) => r.cancelled_by),
];

/**
 * GET /api/v1/export/cleanup/runs.csv: every run, newest first, with its jobs counted by state as the pages
 * show them (jobs_lapsed: running past their lease, not yet ended by the scheduler).
 */
export async function cleanupRunsExport(
  db: Db,
  opts: PageOptions & { now?: Date } = {},
): Promise<CsvExport<RunExportRow>> {
  return {
    filename: `cleanup-runs-${utcDayOf(opts.now ?? new Date())}.csv`,
    columns: RUN_COLUMNS,
    rows: cleanupRunRows(db, opts),
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
