import "server-only";
import { and, asc, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { JobResult, RecipeParams, Scope } from "@/lib/cleanup/protocol";
import { JOB_STATES } from "@/lib/cleanup/protocol";
import type { CustomTarget, JobKind, JobState } from "@/lib/cleanup/types";
import { encodeRunCursor } from "@/lib/validations/cleanup";
import { cleanupJobResults, cleanupJobs, cleanupRuns, workspaces } from "../schema";
import type { Db } from "../types";
import { sweepJobs } from "./cleanup-jobs";

export type RunProgress = {
  /** Jobs per state (every state present, zeros included). */
  states: Record<JobState, number>;
  jobs: number;
  bytesFreed: number;
  unitsActed: number;
  /** Jobs that reached an end state. */
  finished: number;
};

export type RunSummary = {
  id: string;
  kind: JobKind;
  recipe: string | null;
  custom: CustomTarget | null;
  params: RecipeParams | null;
  scope: Scope;
  dryRun: boolean;
  action: "delete" | "trash";
  trashDays: number;
  minAgeHours: number;
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
  /** queued (nothing claimed yet), running, finished, cancelled. */
  status: "queued" | "running" | "finished" | "cancelled";
  progress: RunProgress;
};

export type JobRow = {
  id: string;
  workspaceId: string;
  workspaceName: string;
  owner: string;
  kind: JobKind;
  state: JobState;
  rootKeys: string[];
  previewBytes: number;
  previewUnits: number;
  createdAt: string;
  expiresAt: string;
  claimedAt: string | null;
  leaseExpiresAt: string | null;
  attempts: number;
  interruptions: number;
  cancelRequested: boolean;
  finishedAt: string | null;
  unitsActed: number | null;
  bytesActed: number | null;
  result: (Omit<JobResult, "leaseToken"> & { receivedAt: string }) | null;
};

export type RunDetail = { run: RunSummary; jobs: JobRow[] };
export type RunList = { runs: RunSummary[]; nextCursor: string | null };

const FINAL = new Set<JobState>(["done", "failed", "cancelled", "expired"]);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function progressOf(db: Db, runIds: string[]): Promise<Map<string, RunProgress>> {
  const out = new Map<string, RunProgress>();
  for (const id of runIds) {
    out.set(id, { states: Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>, jobs: 0, bytesFreed: 0, unitsActed: 0, finished: 0 });
  }
  if (runIds.length === 0) return out;
  const rows = await db
    .select({
      runId: cleanupJobs.runId, state: cleanupJobs.state, n: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${cleanupJobs.bytesActed}), 0)::float8`, units: sql<number>`coalesce(sum(${cleanupJobs.unitsActed}), 0)::float8`,
    })
    .from(cleanupJobs)
    .where(inArray(cleanupJobs.runId, runIds))
    .groupBy(cleanupJobs.runId, cleanupJobs.state);
  for (const r of rows) {
    const p = out.get(r.runId)!;
    p.states[r.state] = r.n;
    p.jobs += r.n;
    p.bytesFreed += r.bytes;
    p.unitsActed += r.units;
    if (FINAL.has(r.state)) p.finished += r.n;
  }
  return out;
}

/** A run's state from its jobs': queued (nothing claimed yet), running, finished, or cancelled. */
export function runStatus(cancelled: boolean, progress: Pick<RunProgress, "states" | "jobs" | "finished">): RunSummary["status"] {
  const started = progress.jobs - progress.states.queued - progress.states.expired - progress.states.cancelled;
  return cancelled ? "cancelled" : progress.finished === progress.jobs ? "finished" : started > 0 ? "running" : "queued";
}

function summarize(run: typeof cleanupRuns.$inferSelect, progress: RunProgress): RunSummary {
  const status = runStatus(run.cancelledAt !== null, progress);
  return {
    id: run.id, kind: run.kind, recipe: run.recipe, custom: run.custom, params: run.params, scope: run.scope, dryRun: run.dryRun,
    action: run.action, trashDays: run.trashDays, minAgeHours: run.minAgeHours, expiresDays: run.expiresDays, sourceJobId: run.sourceJobId,
    policyId: run.policyId, createdAt: run.createdAt.toISOString(), createdBy: run.createdByLabel, previewBytes: run.previewBytes,
    previewUnits: run.previewUnits, previewEstimate: run.previewEstimate, workspacesWithoutUsage: run.workspacesWithoutUsage,
    cancelledAt: iso(run.cancelledAt), cancelledBy: run.cancelledBy, status, progress,
  };
}

/** Runs newest first, by key (never OFFSET), each with its progress across its jobs. */
export async function listRuns(db: Db, page: { cursor?: { at: Date; id: string }; limit: number; policyId?: string }): Promise<RunList> {
  await sweepJobs(db);
  const c = page.cursor;
  const rows = await db
    .select()
    .from(cleanupRuns)
    .where(and(
      c ? or(lt(cleanupRuns.createdAt, c.at), and(eq(cleanupRuns.createdAt, c.at), lt(cleanupRuns.id, c.id))) : undefined,
      page.policyId ? eq(cleanupRuns.policyId, page.policyId) : undefined,
    ))
    .orderBy(desc(cleanupRuns.createdAt), desc(cleanupRuns.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const progress = await progressOf(db, shown.map((r) => r.id));
  const last = shown.at(-1);
  return {
    runs: shown.map((r) => summarize(r, progress.get(r.id)!)),
    nextCursor: rows.length > page.limit && last ? encodeRunCursor(last.createdAt, last.id) : null,
  };
}

/** A run with its per-workspace jobs, their states and results (unit lists included); null when unknown. */
export async function getRunDetail(db: Db, runId: string): Promise<RunDetail | null> {
  await sweepJobs(db);
  const [run] = await db.select().from(cleanupRuns).where(eq(cleanupRuns.id, runId));
  if (!run) return null;
  const rows = await db
    .select({ job: cleanupJobs, name: workspaces.name, owner: workspaces.owner, result: cleanupJobResults })
    .from(cleanupJobs)
    .innerJoin(workspaces, eq(workspaces.id, cleanupJobs.workspaceId))
    .leftJoin(cleanupJobResults, eq(cleanupJobResults.jobId, cleanupJobs.id))
    .where(eq(cleanupJobs.runId, runId))
    .orderBy(desc(cleanupJobs.previewBytes), asc(workspaces.owner), asc(workspaces.name));
  const progress = (await progressOf(db, [runId])).get(runId)!;
  return {
    run: summarize(run, progress),
    jobs: rows.map(({ job: j, name, owner, result: r }) => ({
      id: j.id, workspaceId: j.workspaceId, workspaceName: name, owner, kind: j.kind, state: j.state, rootKeys: j.rootKeys,
      previewBytes: j.previewBytes, previewUnits: j.previewUnits, createdAt: j.createdAt.toISOString(), expiresAt: j.expiresAt.toISOString(),
      claimedAt: iso(j.claimedAt), leaseExpiresAt: iso(j.leaseExpiresAt), attempts: j.attempts, interruptions: j.interruptions,
      cancelRequested: j.cancelRequested, finishedAt: iso(j.finishedAt), unitsActed: j.unitsActed, bytesActed: j.bytesActed,
      result: r
        ? {
            status: r.status, unitsActed: r.unitsActed, bytesActed: r.bytesActed, units: r.units, skipped: r.skipped, errors: r.errors,
            logTail: r.logTail, startedAt: r.startedAt.toISOString(), finishedAt: r.finishedAt.toISOString(), receivedAt: r.receivedAt.toISOString(),
          }
        : null,
    })),
  };
}
