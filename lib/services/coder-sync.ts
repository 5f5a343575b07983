import "server-only";
import type { Db } from "@/lib/db";
import {
  applyCoderSync,
  recordSyncState,
  unlistedWorkspaces,
  type Deletion,
  type SyncCounts,
} from "@/lib/db/queries/coder-sync";
import type { Who } from "@/lib/db/queries/audit";
import { recordSyncError, recordSyncSuccess } from "@/lib/metrics/coder-sync";
import { decideNotices } from "./notifications";
import { syncOwnerEmails } from "./owner-emails";
import { syncTeams } from "./coder-teams";
import { withTransaction } from "./transaction";
import { coderClient, type CoderClient, type CoderWorkspace } from "@/lib/coder/client";
import type { CoderSyncConfig } from "@/lib/coder/config";
import type { UnverifiedWorkspace } from "@/lib/coder/unverified";

// The workspace sync: Coder's view of every workspace, read from its REST API, stored beside the reports. It pages
// through the workspace list, then looks up each workspace the dashboard knows that Coder no longer lists (with
// include_deleted=true: a deleted one answers with status "deleted", one Coder never had 404; both are deleted). A
// lookup Coder refuses for this workspace alone (403: the token cannot read its template; 400: not a Coder id)
// leaves the workspace as it was, named with the reason in the sync's state.

const PAGE_SIZE = 100;
/** The unverified workspaces a sync keeps by name (the pages show them; the count says how many there were). */
const UNVERIFIED_KEPT = 100;
/** Up to this many deletions at once are taken whatever the share of the fleet (a small deployment). */
const MAX_DELETED_AT_ONCE = 10;

export type SyncOutcome = SyncCounts & {
  error: string | null;
  startedAt: string;
  finishedAt: string;
  /** The workspaces Coder would not show by id (the first 100, by owner and name), and how many there were. */
  unverifiedCount: number;
  unverified: UnverifiedWorkspace[];
};

/**
 * Every workspace Coder lists, page by page (offset paging; a workspace that moved between pages is kept once).
 * Coder leaves out of a page the rows whose template the token cannot read while `count` still has them, so a page
 * may be short or empty before the end: the offset moves by the page size until it reaches the count.
 */
async function listAll(client: CoderClient, pageSize: number): Promise<CoderWorkspace[]> {
  const byId = new Map<string, CoderWorkspace>();
  for (let offset = 0; ; offset += pageSize) {
    const page = await client.listWorkspaces({ limit: pageSize, offset });
    for (const w of page.workspaces) byId.set(w.id, w);
    if (offset + pageSize >= page.count) break;
  }
  return [...byId.values()];
}

/** When a deleted workspace was deleted: its delete build's end, else the sync's start (never in the future). */
function deletedAt(w: CoderWorkspace, startedAt: Date): Date {
  const done = w.latest_build.job?.completed_at;
  const at = done ? new Date(done) : null;
  return at && !Number.isNaN(at.getTime()) && at <= startedAt ? at : startedAt;
}

const CODER_SYNC: Who = { actor: { type: "system", label: "coder sync" } };

/** Stores what the sync found in one transaction, with an audit entry for each workspace it marks deleted. */
function applySync(db: Db, seen: CoderWorkspace[], deletions: Deletion[], startedAt: Date) {
  return withTransaction({ db, who: CODER_SYNC, now: startedAt }, async ({ tx, now, audit }) => {
    const { counts, deleted } = await applyCoderSync(tx, seen, deletions, now);
    for (const d of deleted)
      await audit({
        action: "workspace.deleted_in_coder",
        target: d.id,
        details: { deletedAt: d.deletedAt, jobsCancelled: d.jobsCancelled, reason: d.reason },
      });
    return counts;
  });
}

/**
 * One sync. Coder's answers are read first, outside any transaction; then everything is written in one. A failure
 * (Coder unreachable after its retries, a refusal, the database) is recorded as the last sync's error and returned,
 * never thrown: the pages show it, and the next tick tries again.
 */
export async function syncFromCoder(
  db: Db,
  config: Pick<CoderSyncConfig, "url" | "token"> & { intervalMs?: number },
  opts: { client?: CoderClient; pageSize?: number; now?: () => Date } = {},
): Promise<SyncOutcome> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  // A rate limit is waited out only while the wait ends before the next tick.
  const deadline = Date.now() + (config.intervalMs ?? 60_000);
  const client = opts.client ?? coderClient({ url: config.url, token: config.token, deadline });
  const counts: SyncCounts = { listed: 0, added: 0, updated: 0, deleted: 0, jobsCancelled: 0 };
  const unverified: UnverifiedWorkspace[] = [];
  let error: string | null = null;
  try {
    const listed = await listAll(client, opts.pageSize ?? PAGE_SIZE);
    counts.listed = listed.length;
    const unlisted = await unlistedWorkspaces(db, new Set(listed.map((w) => w.id)));
    const seen = [...listed];
    const deletions: Deletion[] = [];
    await Promise.all(
      unlisted.map(async (known) => {
        const found = await client.lookupWorkspace(known.id, { includeDeleted: true });
        if (found.kind === "gone") deletions.push({ id: known.id, at: startedAt });
        else if (found.kind !== "found") unverified.push({ ...known, reason: found.kind });
        else if (found.workspace.latest_build.status === "deleted") {
          deletions.push({ id: known.id, at: deletedAt(found.workspace, startedAt) });
        } else seen.push(found.workspace); // listed meanwhile, or outside the list's view: still Coder's
      }),
    );
    unverified.sort((a, b) => a.owner.localeCompare(b.owner) || a.name.localeCompare(b.name));
    // Coder answers 404 for a workspace the token may not read, as for one it never had: a token that reads only
    // some workspaces would have every other one marked deleted. Most of the fleet gone at once is refused.
    const known = unlisted.length + listed.length;
    if (deletions.length > MAX_DELETED_AT_ONCE && deletions.length * 2 > known) {
      throw new Error(
        `Coder no longer shows ${deletions.length} of the ${known} workspaces known here; none was marked deleted. Does CODER_SESSION_TOKEN belong to a user who can read every workspace, dormant ones included (a Template Admin or an Owner; an Auditor cannot)?`,
      );
    }
    Object.assign(counts, await applySync(db, seen, deletions, startedAt));
    // Teams for the usage by team: without them (a token that may not read groups, no license) the sync goes on.
    const teams = await syncTeams(db, CODER_SYNC, client, startedAt).catch((err: Error) => {
      console.error(`[coder-sync] could not read the organizations and groups from Coder: ${err.message}`);
      return null;
    });
    for (const o of teams?.withoutGroups ?? []) {
      console.warn(`[coder-sync] no groups of organization ${o.organization}: Coder answers ${o.status} ${o.message}`);
    }
    await syncOwnerEmails(db, client, opts.pageSize ?? PAGE_SIZE, startedAt).catch((err) =>
      console.error(`[notify] could not read the owners' email addresses from Coder: ${(err as Error).message}`),
    );
    // A forecast that ran out or a state that cleared while no report came: decided after the sync's commit.
    await decideNotices(
      db,
      seen.map((w) => w.id),
      now(),
    ).catch((err) => console.error("[notify] deciding the notices after the Coder sync failed:", err));
  } catch (err) {
    error = (err as Error).message || String(err);
  }
  const finishedAt = now();
  const first = unverified.slice(0, UNVERIFIED_KEPT);
  try {
    await recordSyncState(db, {
      startedAt,
      finishedAt,
      counts,
      error,
      unverified: { count: unverified.length, first },
    });
  } catch (err) {
    error ??= `could not record the sync: ${(err as Error).message}`;
  }
  // For /metrics: the errors counted, and the time of the last sync that went through (alerts read both).
  if (error) recordSyncError();
  else recordSyncSuccess(finishedAt);
  return {
    ...counts,
    error,
    unverifiedCount: unverified.length,
    unverified: first,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
  };
}

const globalForSync = globalThis as unknown as {
  __coderSync?: ReturnType<typeof setInterval>;
  __coderSyncRunning?: Promise<SyncOutcome>;
};

/**
 * The sync of this process: a sync already under way (the scheduler's, or another request's) is joined rather
 * than started twice.
 */
export function syncOnce(
  db: Db,
  config: Pick<CoderSyncConfig, "url" | "token"> & { intervalMs?: number },
): Promise<SyncOutcome> {
  globalForSync.__coderSyncRunning ??= syncFromCoder(db, config).finally(() => {
    globalForSync.__coderSyncRunning = undefined;
  });
  return globalForSync.__coderSyncRunning;
}

/**
 * Started once per server process from instrumentation.ts when CODER_URL and CODER_SESSION_TOKEN are set: a sync
 * at start, then every CODER_SYNC_INTERVAL. Each tick opens the database if it is not open yet; nothing a tick
 * meets (the database or Coder down) stops the next one.
 */
export function startCoderSync(getDb: () => Promise<Db>, config: CoderSyncConfig | null): void {
  if (!config || globalForSync.__coderSync) return;
  const tick = async () => {
    try {
      const out = await syncOnce(await getDb(), config);
      if (out.error) console.error(`[coder] sync failed: ${out.error}`);
      else
        console.log(
          `[coder] sync: ${out.listed} listed, ${out.added} new, ${out.deleted} deleted, ${out.jobsCancelled} jobs cancelled`,
        );
    } catch (err) {
      console.error(`[coder] sync tick failed: ${(err as Error).message}`);
    }
  };
  globalForSync.__coderSync = setInterval(() => void tick(), config.intervalMs);
  globalForSync.__coderSync.unref?.();
  void tick();
}
