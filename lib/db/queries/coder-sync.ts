import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { CoderWorkspace } from "@/lib/coder/client";
import type { UnverifiedWorkspace } from "@/lib/coder/unverified";
import { WAITING_JOB_STATES } from "@/lib/cleanup/job-states";
import { cleanupJobs, coderSyncState, workspaces } from "../schema";
import type { Db } from "../types";

// What the workspace sync writes (Coder's view of each workspace, deletions and what they end) and the last
// sync's state that the pages show. Reads of Coder itself are in lib/coder/.

const STATE_ID = "coder";
const UPSERT_BATCH = 500;

/** A workspace deleted in Coder, and when: when its delete build finished where Coder says, else when the sync saw it. */
export type Deletion = { id: string; at: Date };

/** A workspace this sync marked deleted, the jobs that ended with it and why. */
export type DeletedInCoder = { id: string; deletedAt: Date | null; jobsCancelled: string[]; reason: string };

/** Counts of one sync, as stored and as POST /api/v1/coder/sync answers them. */
export type SyncCounts = { listed: number; added: number; updated: number; deleted: number; jobsCancelled: number };

export type CoderSyncState = SyncCounts & {
  startedAt: string;
  finishedAt: string | null;
  succeededAt: string | null;
  error: string | null;
  /** How many workspaces the last sync that went through could not check in Coder, and the first of them. */
  unverifiedCount: number;
  unverified: UnverifiedWorkspace[];
};

const ts = (v: string | null | undefined) => (v ? new Date(v) : null);

/** The workspaces table's columns for Coder's view of a workspace (its names win over the reporter's). */
function coderColumns(w: CoderWorkspace, now: Date) {
  return {
    name: w.name,
    owner: w.owner_name,
    template: w.template_name,
    organizationId: w.organization_id ?? null,
    coderStatus: w.latest_build.status,
    coderTransition: w.latest_build.transition ?? null,
    coderDormantAt: ts(w.dormant_at),
    coderDeletingAt: ts(w.deleting_at),
    coderLastUsedAt: ts(w.last_used_at),
    coderHealthy: w.health?.healthy ?? null,
    coderSyncedAt: now,
  };
}

/** The workspaces not deleted that Coder's list did not have (id, name, owner): each is looked up in Coder. */
export async function unlistedWorkspaces(
  db: Db,
  listed: ReadonlySet<string>,
): Promise<{ id: string; name: string; owner: string }[]> {
  const rows = await db
    .select({ id: workspaces.id, name: workspaces.name, owner: workspaces.owner })
    .from(workspaces)
    .where(isNull(workspaces.deletedAt));
  return rows.filter((r) => !listed.has(r.id));
}

/**
 * Writes one sync's findings, in the caller's transaction: Coder's view of every workspace it lists (adding the
 * ones that never reported, so coverage can name them), and the deletions. A deleted workspace leaves the fleet's
 * totals and chart from its deletion day (a negative change of its newest roots in the fleet roll-up that day, so
 * earlier days keep it), and its waiting or running cleanup jobs end as cancelled with the reason. Answers the
 * counts and the workspaces newly marked deleted, for their audit entries.
 */
export async function applyCoderSync(
  tx: Db,
  seen: CoderWorkspace[],
  deletions: Deletion[],
  now: Date,
): Promise<{ counts: Omit<SyncCounts, "listed">; deleted: DeletedInCoder[] }> {
  let added = 0;
  let updated = 0;
  // Many rows a statement: a sync of thousands of workspaces is a few statements, not thousands.
  for (let i = 0; i < seen.length; i += UPSERT_BATCH) {
    const rows = seen.slice(i, i + UPSERT_BATCH).map((w) => ({ id: w.id, firstSeenAt: now, ...coderColumns(w, now) }));
    const set = Object.fromEntries(
      Object.keys(coderColumns(seen[0], now)).map((k) => {
        const column = workspaces[k as keyof ReturnType<typeof coderColumns>];
        return [k, sql.raw(`excluded.${column.name}`)];
      }),
    );
    const done = await tx
      .insert(workspaces)
      .values(rows)
      .onConflictDoUpdate({ target: workspaces.id, set })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    for (const r of done) {
      if (r.inserted) added++;
      else updated++;
    }
  }
  let jobsCancelled = 0;
  const deleted: DeletedInCoder[] = [];
  const ids = deletions.map((d) => d.id);
  if (ids.length) {
    const fresh = await tx
      .update(workspaces)
      .set({
        deletedAt: sql`case ${sql.join(
          deletions.map((d) => sql`when ${workspaces.id} = ${d.id} then ${d.at.toISOString()}::timestamptz`),
          sql` `,
        )} end`,
        coderStatus: "deleted",
        coderTransition: "delete",
        coderSyncedAt: now,
      })
      .where(and(inArray(workspaces.id, ids), isNull(workspaces.deletedAt)))
      .returning({ id: workspaces.id, deletedAt: workspaces.deletedAt });
    for (const d of fresh) {
      await tx.execute(sql`insert into fleet_delta (day, agent, kind, shard, bytes, roots)
        select (${d.deletedAt!.toISOString()}::timestamptz at time zone 'UTC')::date, agent, kind, 0,
          -sum(bytes), -count(*)::int from root_latest where workspace_id = ${d.id} group by agent, kind
        on conflict (day, agent, kind, shard) do update set bytes = fleet_delta.bytes + excluded.bytes,
          roots = fleet_delta.roots + excluded.roots`);
    }
    const freshIds = fresh.map((d) => d.id);
    if (freshIds.length) {
      const reason = "The workspace was deleted in Coder.";
      const cancelled = await tx
        .update(cleanupJobs)
        .set({ state: "cancelled", finishedAt: now, cancelReason: reason })
        .where(
          and(
            inArray(cleanupJobs.workspaceId, freshIds),
            inArray(cleanupJobs.state, [...WAITING_JOB_STATES, "running"]),
          ),
        )
        .returning({ id: cleanupJobs.id, runId: cleanupJobs.runId, workspaceId: cleanupJobs.workspaceId });
      jobsCancelled = cancelled.length;
      for (const d of fresh) {
        const jobs = cancelled.filter((j) => j.workspaceId === d.id).map((j) => j.id);
        deleted.push({ id: d.id, deletedAt: d.deletedAt, jobsCancelled: jobs, reason });
      }
    }
    return { counts: { added, updated, deleted: fresh.length, jobsCancelled }, deleted };
  }
  return { counts: { added, updated, deleted: 0, jobsCancelled }, deleted };
}

/** Stores the outcome of a sync (counts, or the error that stopped it), keeping the last success's time. */
export async function recordSyncState(
  db: Db,
  s: {
    startedAt: Date;
    finishedAt: Date;
    counts: SyncCounts;
    error: string | null;
    unverified: { count: number; first: UnverifiedWorkspace[] };
  },
): Promise<void> {
  const values = {
    id: STATE_ID,
    startedAt: s.startedAt,
    finishedAt: s.finishedAt,
    ...s.counts,
    error: s.error,
    ...(s.error === null
      ? { succeededAt: s.finishedAt, unverifiedCount: s.unverified.count, unverified: s.unverified.first }
      : {}),
  };
  await db.insert(coderSyncState).values(values).onConflictDoUpdate({ target: coderSyncState.id, set: values });
}

/** The last sync, or null when none ran. */
export async function getSyncState(db: Db): Promise<CoderSyncState | null> {
  const [r] = await db.select().from(coderSyncState).where(eq(coderSyncState.id, STATE_ID));
  if (!r) return null;
  return {
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    succeededAt: r.succeededAt?.toISOString() ?? null,
    listed: r.listed,
    added: r.added,
    updated: r.updated,
    deleted: r.deleted,
    jobsCancelled: r.jobsCancelled,
    error: r.error,
    unverifiedCount: r.unverifiedCount,
    unverified: r.unverified,
  };
}
