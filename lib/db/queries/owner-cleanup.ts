import "server-only";
import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { inScope, ownedBy } from "../scope";
import { cleanupJobs, cleanupKeeps, cleanupRuns, ownerRecipes, rootLatest, users, workspaces } from "../schema";
import type { Db } from "../types";

// The owners' side of cleanup (My storage): whose workspaces a user owns, the recipes marked for owners, their
// Keeps and the trash they may restore. Rows only: the rules are lib/cleanup/owners.ts, the changes
// lib/services/owner-cleanup.ts.

/** The Coder username a dashboard user signs in as (members are made by Coder sign-in); null when none. */
export async function coderUsernameOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ u: users.coderUsername }).from(users).where(eq(users.id, userId));
  return row?.u ?? null;
}

const workspaceFields = { id: workspaces.id, name: workspaces.name, owner: workspaces.owner };
export type OwnedWorkspace = { id: string; name: string; owner: string };

/** The workspaces `owner` owns in Coder (compared without case), not deleted there, by name. */
export function ownedWorkspaces(db: Db, owner: string): Promise<OwnedWorkspace[]> {
  return db
    .select(workspaceFields)
    .from(workspaces)
    .where(and(inScope(ownedBy(owner), workspaces.owner), isNull(workspaces.deletedAt)))
    .orderBy(asc(workspaces.name));
}

/** One workspace if `owner` owns it; undefined for an unknown id and for another's alike. */
export async function ownedWorkspace(db: Db, owner: string, id: string): Promise<OwnedWorkspace | undefined> {
  const [row] = await db
    .select(workspaceFields)
    .from(workspaces)
    .where(and(eq(workspaces.id, id), inScope(ownedBy(owner), workspaces.owner)));
  return row;
}

/** The paths (relative to home) of a workspace's storage roots, as its latest report lists them. */
export async function rootPathsOf(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .select({ path: rootLatest.path })
    .from(rootLatest)
    .where(eq(rootLatest.workspaceId, workspaceId));
  return rows.map((r) => r.path);
}

/** The admins' choices of which recipes owners may run (recipes without a row follow the default). */
export async function storedOwnerRecipes(db: Db): Promise<Map<string, boolean>> {
  const rows = await db.select({ recipe: ownerRecipes.recipe, flag: ownerRecipes.ownersMayRun }).from(ownerRecipes);
  return new Map(rows.map((r) => [r.recipe, r.flag]));
}

export async function upsertOwnerRecipe(tx: Db, recipe: string, ownersMayRun: boolean, now: Date, by: string) {
  await tx
    .insert(ownerRecipes)
    .values({ recipe, ownersMayRun, updatedAt: now, updatedBy: by })
    .onConflictDoUpdate({ target: ownerRecipes.recipe, set: { ownersMayRun, updatedAt: now, updatedBy: by } });
}

const keepFields = {
  id: cleanupKeeps.id,
  workspaceId: cleanupKeeps.workspaceId,
  workspaceName: workspaces.name,
  owner: workspaces.owner,
  path: cleanupKeeps.path,
  createdAt: cleanupKeeps.createdAt,
  createdBy: cleanupKeeps.createdByLabel,
  expiresAt: cleanupKeeps.expiresAt,
};
export type KeepRow = {
  id: string;
  workspaceId: string;
  workspaceName: string;
  owner: string;
  path: string;
  createdAt: Date;
  createdBy: string;
  expiresAt: Date;
};

/** The Keeps in force at `now` (not ended, not expired): of the given workspaces, or of every workspace. */
export function activeKeeps(db: Db, now: Date, workspaceIds?: readonly string[]): Promise<KeepRow[]> {
  if (workspaceIds?.length === 0) return Promise.resolve([]);
  return db
    .select(keepFields)
    .from(cleanupKeeps)
    .innerJoin(workspaces, eq(workspaces.id, cleanupKeeps.workspaceId))
    .where(
      and(
        isNull(cleanupKeeps.endedAt),
        gt(cleanupKeeps.expiresAt, now),
        workspaceIds ? inArray(cleanupKeeps.workspaceId, [...workspaceIds]) : undefined,
      ),
    )
    .orderBy(asc(cleanupKeeps.expiresAt), asc(cleanupKeeps.id));
}

/** The paths kept on one workspace at `now`: what its reporter's jobs skip. */
export async function keptPaths(db: Db, workspaceId: string, now: Date): Promise<string[]> {
  return (await activeKeeps(db, now, [workspaceId])).map((k) => k.path);
}

export async function insertKeep(
  tx: Db,
  keep: {
    workspaceId: string;
    path: string;
    createdAt: Date;
    expiresAt: Date;
    createdById: string;
    createdByLabel: string;
  },
): Promise<string> {
  const [row] = await tx.insert(cleanupKeeps).values(keep).returning({ id: cleanupKeeps.id });
  return row.id;
}

/** Ends a Keep in force at `now`; the ended row, or undefined when there is none in force. */
export async function endKeepRow(tx: Db, id: string, now: Date, by: string) {
  const [row] = await tx
    .update(cleanupKeeps)
    .set({ endedAt: now, endedBy: by })
    .where(and(eq(cleanupKeeps.id, id), isNull(cleanupKeeps.endedAt), gt(cleanupKeeps.expiresAt, now)))
    .returning({ id: cleanupKeeps.id, workspaceId: cleanupKeeps.workspaceId, path: cleanupKeeps.path });
  return row;
}

/** A Keep in force, with its workspace's owner (for the owner's own end of it). */
export async function keepInForce(db: Db, id: string, now: Date): Promise<KeepRow | undefined> {
  const [row] = await db
    .select(keepFields)
    .from(cleanupKeeps)
    .innerJoin(workspaces, eq(workspaces.id, cleanupKeeps.workspaceId))
    .where(and(eq(cleanupKeeps.id, id), isNull(cleanupKeeps.endedAt), gt(cleanupKeeps.expiresAt, now)));
  return row;
}

export type TrashEntry = {
  jobId: string;
  runId: string;
  workspaceId: string;
  recipe: string | null;
  units: number;
  bytes: number;
  finishedAt: Date;
  trashDays: number;
  createdBy: string;
  /** The state of the newest restore queued for it, if any. */
  restore: string | null;
};

/**
 * What the given workspaces' trash holds, job by job: finished cleanup jobs that moved units there within their
 * run's trash days, newest first (what lib/cleanup/restore.ts lets a restore bring back).
 */
export async function trashOf(db: Db, workspaceIds: readonly string[], now: Date): Promise<TrashEntry[]> {
  if (workspaceIds.length === 0) return [];
  return db
    .select({
      jobId: cleanupJobs.id,
      runId: cleanupJobs.runId,
      workspaceId: cleanupJobs.workspaceId,
      recipe: cleanupRuns.recipe,
      units: sql<number>`coalesce(${cleanupJobs.unitsActed}, 0)`.mapWith(Number),
      bytes: sql<number>`coalesce(${cleanupJobs.bytesActed}, 0)`.mapWith(Number),
      finishedAt: sql<Date>`${cleanupJobs.finishedAt}`.mapWith((v) => new Date(v)),
      trashDays: cleanupRuns.trashDays,
      createdBy: cleanupRuns.createdByLabel,
      restore: sql<
        string | null
      >`(select r.state from cleanup_jobs r where r.source_job_id = ${cleanupJobs.id} and r.kind = 'restore' order by r.created_at desc limit 1)`,
    })
    .from(cleanupJobs)
    .innerJoin(cleanupRuns, eq(cleanupRuns.id, cleanupJobs.runId))
    .where(
      and(
        inArray(cleanupJobs.workspaceId, [...workspaceIds]),
        eq(cleanupJobs.kind, "cleanup"),
        eq(cleanupJobs.state, "done"),
        eq(cleanupRuns.action, "trash"),
        eq(cleanupRuns.dryRun, false),
        gt(cleanupJobs.unitsActed, 0),
        sql`${cleanupJobs.finishedAt} + make_interval(days => ${cleanupRuns.trashDays}) > ${now.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(cleanupJobs.finishedAt))
    .limit(200);
}
