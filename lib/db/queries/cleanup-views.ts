import "server-only";
import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { ShownJobState } from "@/lib/cleanup/job-states";
import type { RecipeParams, Scope, TruncateTarget } from "@/lib/cleanup/protocol";
import { progressFrom, runStatus, type RunProgress, type RunStatus } from "@/lib/cleanup/run-progress";
import { SCOPE_NAMED, type CustomTarget, type JobKind } from "@/lib/cleanup/types";
import { encodeRunCursor, RUN_JOBS_PAGE, type RunJobsQuery } from "@/lib/validations/cleanup";
import { cleanupJobs, cleanupRuns, workspaces } from "../schema";
import { DEFAULT_PAGE_SIZE, type PageOptions } from "../keyset";
import type { Db } from "../types";
import { shownJobState } from "./cleanup-job-state";
import { listRunJobs, type RunJobsPage } from "./cleanup-run-jobs";
import type { WaitingReporters } from "@/lib/cleanup/waiting";
import { waitingReporters } from "./cleanup-waiting";

// Runs as the pages show them. Reads only: jobs past their expiry or lease are shown as such (see
// shownJobState) and left for the scheduler's sweep to end.

export type RunSummary = {
  id: string;
  kind: JobKind;
  recipe: string | null;
  custom: CustomTarget | null;
  /** A truncate run's file. */
  target: TruncateTarget | null;
  params: RecipeParams | null;
  scope: Scope;
  dryRun: boolean;
  action: "delete" | "trash";
  trashDays: number;
  minAgeHours: number;
  countStatusChanges: boolean;
  expiresDays: number;
  sourceJobId: string | null;
  policyId: string | null;
  createdAt: string;
  createdBy: string;
  previewBytes: number;
  previewUnits: number;
  previewEstimate: boolean;
  workspacesWithoutUsage: number;
  cancelledAt: string | null;
  cancelledBy: string | null;
  status: RunStatus;
  progress: RunProgress;
  /** The first workspaces of a workspaceIds scope by id, with their names (ids no longer known are left out). */
  scopeWorkspaces: Record<string, { name: string; owner: string }>;
};

/** A run and the first page of its jobs (the API's answer; later pages carry the run again, as it is now). */
export type RunDetail = { run: RunSummary; waiting: WaitingReporters } & RunJobsPage;
export type RunList = { runs: RunSummary[]; nextCursor: string | null };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Each run's jobs counted by shown state, in one aggregate over the runs' jobs. */
async function progressOf(db: Db, runIds: string[], now: Date): Promise<Map<string, RunProgress>> {
  if (runIds.length === 0) return new Map();
  const rows = await db
    .select({
      runId: cleanupJobs.runId,
      state: sql<ShownJobState>`${shownJobState("cleanup_jobs", now)}`,
      n: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${cleanupJobs.bytesActed}), 0)::float8`,
      units: sql<number>`coalesce(sum(${cleanupJobs.unitsActed}), 0)::float8`,
    })
    .from(cleanupJobs)
    .where(inArray(cleanupJobs.runId, runIds))
    // by position: the state expression carries a parameter, and a repeated one would not count as the same
    .groupBy(sql`1, 2`);
  const counted = new Map(
    runIds.map((id) => [id, { states: {} as Partial<Record<ShownJobState, number>>, bytes: 0, units: 0 }]),
  );
  for (const r of rows) {
    const c = counted.get(r.runId)!;
    c.states[r.state] = r.n;
    c.bytes += r.bytes;
    c.units += r.units;
  }
  return new Map([...counted].map(([id, c]) => [id, progressFrom(c.states, c)]));
}

/** The names of the first few workspaces of each workspaceIds scope, in one read. */
async function scopeNames(
  db: Db,
  runs: (typeof cleanupRuns.$inferSelect)[],
): Promise<Map<string, { name: string; owner: string }>> {
  const ids = [
    ...new Set(runs.flatMap((r) => ("workspaceIds" in r.scope ? r.scope.workspaceIds.slice(0, SCOPE_NAMED) : []))),
  ];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: workspaces.id, name: workspaces.name, owner: workspaces.owner })
    .from(workspaces)
    .where(inArray(workspaces.id, ids));
  return new Map(rows.map((w) => [w.id, { name: w.name, owner: w.owner }]));
}

/** Summaries of `runs` in their order, with progress and scope names read for all of them at once. */
async function summarizeAll(db: Db, runs: (typeof cleanupRuns.$inferSelect)[], now: Date): Promise<RunSummary[]> {
  const [progress, names] = await Promise.all([
    progressOf(
      db,
      runs.map((r) => r.id),
      now,
    ),
    scopeNames(db, runs),
  ]);
  return runs.map((run) => {
    const named =
      "workspaceIds" in run.scope ? run.scope.workspaceIds.slice(0, SCOPE_NAMED).filter((id) => names.has(id)) : [];
    return summarize(run, progress.get(run.id)!, Object.fromEntries(named.map((id) => [id, names.get(id)!])));
  });
}

function summarize(
  run: typeof cleanupRuns.$inferSelect,
  progress: RunProgress,
  scopeWorkspaces: RunSummary["scopeWorkspaces"],
): RunSummary {
  const status = runStatus(run.cancelledAt !== null, progress);
  return {
    id: run.id,
    kind: run.kind,
    recipe: run.recipe,
    custom: run.custom,
    target: run.target,
    params: run.params,
    scope: run.scope,
    dryRun: run.dryRun,
    action: run.action,
    trashDays: run.trashDays,
    minAgeHours: run.minAgeHours,
    countStatusChanges: run.countStatusChanges,
    expiresDays: run.expiresDays,
    sourceJobId: run.sourceJobId,
    policyId: run.policyId,
    createdAt: run.createdAt.toISOString(),
    createdBy: run.createdByLabel,
    previewBytes: run.previewBytes,
    previewUnits: run.previewUnits,
    previewEstimate: run.previewEstimate,
    workspacesWithoutUsage: run.workspacesWithoutUsage,
    cancelledAt: iso(run.cancelledAt),
    cancelledBy: run.cancelledBy,
    status,
    progress,
    scopeWorkspaces,
  };
}

/** One page of runs newest first, after `cursor` (by key, never OFFSET), and the key of its last run. */
async function runsPage(
  db: Db,
  page: { cursor?: { at: Date; id: string }; limit: number; policyId?: string },
  now: Date,
): Promise<{ runs: RunSummary[]; more: boolean; last: { at: Date; id: string } | null }> {
  const c = page.cursor;
  const rows = await db
    .select()
    .from(cleanupRuns)
    .where(
      and(
        c
          ? or(lt(cleanupRuns.createdAt, c.at), and(eq(cleanupRuns.createdAt, c.at), lt(cleanupRuns.id, c.id)))
          : undefined,
        page.policyId ? eq(cleanupRuns.policyId, page.policyId) : undefined,
      ),
    )
    .orderBy(desc(cleanupRuns.createdAt), desc(cleanupRuns.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    runs: await summarizeAll(db, shown, now),
    more: rows.length > page.limit,
    last: last ? { at: last.createdAt, id: last.id } : null,
  };
}

/** Runs newest first, by key (never OFFSET), each with its progress across its jobs. */
export async function listRuns(
  db: Db,
  page: { cursor?: { at: Date; id: string }; limit: number; policyId?: string },
  now = new Date(),
): Promise<RunList> {
  const { runs, more, last } = await runsPage(db, page, now);
  return { runs, nextCursor: more && last ? encodeRunCursor(last.at, last.id) : null };
}

/**
 * Every run newest first, as the pages show it, a page at a time (the runs CSV): the export and the pages read
 * one shape, counted and given a status by one query.
 */
export async function* everyRun(db: Db, opts: PageOptions & { now?: Date } = {}): AsyncGenerator<RunSummary> {
  const now = opts.now ?? new Date();
  let cursor: { at: Date; id: string } | undefined;
  for (let index = 0; ; index++) {
    opts.onPage?.(index);
    const page = await runsPage(db, { cursor, limit: opts.pageSize ?? DEFAULT_PAGE_SIZE }, now);
    yield* page.runs;
    if (!page.more || !page.last) return;
    cursor = page.last;
  }
}

/** A run with its progress; null when unknown. */
export async function getRun(db: Db, runId: string, now = new Date()): Promise<RunSummary | null> {
  const [run] = await db.select().from(cleanupRuns).where(eq(cleanupRuns.id, runId));
  return run ? (await summarizeAll(db, [run], now))[0] : null;
}

/** A run and one page of its jobs (the first, unless a cursor says which); null when the run is unknown. */
export async function getRunDetail(
  db: Db,
  runId: string,
  page: Partial<RunJobsQuery> = {},
  now = new Date(),
): Promise<RunDetail | null> {
  const run = await getRun(db, runId, now);
  if (!run) return null;
  const [jobs, waiting] = await Promise.all([
    listRunJobs(
      db,
      runId,
      { sort: page.sort ?? "preview", state: page.state, cursor: page.cursor, limit: page.limit ?? RUN_JOBS_PAGE },
      now,
    ),
    waitingReporters(db, runId, now),
  ]);
  return { run, waiting, ...jobs };
}
