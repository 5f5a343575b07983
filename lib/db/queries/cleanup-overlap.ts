import "server-only";
import type { KeepRow } from "./owner-cleanup";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { WAITING_JOB_STATES } from "@/lib/cleanup/job-states";
import type { RunRequest } from "@/lib/cleanup/protocol";
import { cleanupJobs, cleanupRuns, workspaces } from "../schema";
import type { Db } from "../types";
import { scopeMatch, type CleanupPreview } from "./cleanup-preview";

/** A run of the same cleanup that still has jobs to do on workspaces of a scope. */
export type OverlappingRun = { id: string; dryRun: boolean; createdAt: string; workspaces: number };

const OPEN_STATES = [...WAITING_JOB_STATES, "running" as const];

/**
 * Runs of the same recipe (or the same custom target), not cancelled, with jobs still waiting or running on at
 * least one workspace in `request`'s scope: a second run there would act twice on one cleanup. Newest first, at
 * most five, each with how many workspaces it shares. Reads jobs by workspace and state (their index).
 */
export async function overlappingRuns(
  db: Db,
  request: Pick<RunRequest, "recipe" | "custom" | "scope">,
): Promise<OverlappingRun[]> {
  const same = request.recipe
    ? eq(cleanupRuns.recipe, request.recipe)
    : sql`${cleanupRuns.custom} = ${JSON.stringify(request.custom)}::jsonb`;
  const rows = await db
    .select({
      id: cleanupRuns.id,
      dryRun: cleanupRuns.dryRun,
      createdAt: cleanupRuns.createdAt,
      workspaces: sql<number>`count(distinct ${cleanupJobs.workspaceId})::int`,
    })
    .from(cleanupJobs)
    .innerJoin(cleanupRuns, eq(cleanupRuns.id, cleanupJobs.runId))
    .innerJoin(workspaces, eq(workspaces.id, cleanupJobs.workspaceId))
    .where(
      and(
        inArray(cleanupJobs.state, OPEN_STATES),
        eq(cleanupRuns.kind, "cleanup"),
        isNull(cleanupRuns.cancelledAt),
        same,
        scopeMatch(request.scope),
      ),
    )
    .groupBy(cleanupRuns.id, cleanupRuns.dryRun, cleanupRuns.createdAt)
    .orderBy(desc(cleanupRuns.createdAt))
    .limit(5);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** The preview endpoint's answer: the preview, and the runs of the same cleanup still under way in its scope. */
/** `kept`: the owners' Keeps in force on the workspaces the preview lists; their jobs skip them. */
export type PreviewAnswer = CleanupPreview & { overlapping: OverlappingRun[]; kept: KeepRow[] };
