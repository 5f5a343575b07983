import "server-only";
import type { Db } from "@/lib/db";
import {
  applyCoderSync,
  recordSyncState,
  unlistedWorkspaceIds,
  type Deletion,
  type SyncCounts,
} from "@/lib/db/queries/coder-sync";
import { recordSyncError, recordSyncSuccess } from "@/lib/metrics/coder-sync";
import { coderClient, type CoderClient, type CoderWorkspace } from "./client";
import type { CoderSyncConfig } from "./config";

// The workspace sync: Coder's view of every workspace, read from its REST API, stored beside the reports. It pages
// through the workspace list, then looks up each workspace the dashboard knows that Coder no longer lists (with
// include_deleted=true: a deleted one answers with status "deleted", one Coder never had 404; both are deleted).

const PAGE_SIZE = 100;
/** Up to this many deletions at once are taken whatever the share of the fleet (a small deployment). */
const MAX_DELETED_AT_ONCE = 10;

export type SyncOutcome = SyncCounts & { error: string | null; startedAt: string; finishedAt: string };

/** Every workspace Coder lists, page by page (offset paging; a workspace that moved between pages is kept once). */
async function listAll(client: CoderClient, pageSize: number): Promise<CoderWorkspace[]> {
  const byId = new Map<string, CoderWorkspace>();
  for (let offset = 0; ;) {
    const page = await client.listWorkspaces({ limit: pageSize, offset });
    for (const w of page.workspaces) byId.set(w.id, w);
    offset += page.workspaces.length;
    if (page.workspaces.length === 0 || offset >= page.count) break;
  }
  return [...byId.values()];
}

/**
 * One sync. Coder's answers are read first, outside any transaction; then everything is written in one. A failure
 * (Coder unreachable after its retries, a refusal, the database) is recorded as the last sync's error and returned,
 * never thrown: the pages show it, and the next tick tries again.
 */
export async function syncFromCoder(
  db: Db,
  config: Pick<CoderSyncConfig, "url" | "token">,
  opts: { client?: CoderClient; pageSize?: number; now?: () => Date } = {},
): Promise<SyncOutcome> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  const client = opts.client ?? coderClient({ url: config.url, token: config.token });
  const counts: SyncCounts = { listed: 0, added: 0, updated: 0, deleted: 0, jobsCancelled: 0 };
  let error: string | null = null;
  try {
    const listed = await listAll(client, opts.pageSize ?? PAGE_SIZE);
    counts.listed = listed.length;
    const unlisted = await unlistedWorkspaceIds(db, new Set(listed.map((w) => w.id)));
    const seen = [...listed];
    const deletions: Deletion[] = [];
    await Promise.all(
      unlisted.map(async (id) => {
        const w = await client.getWorkspace(id, { includeDeleted: true });
        if (w === null || w.latest_build.status === "deleted") {
          const built = w?.latest_build.created_at ? new Date(w.latest_build.created_at) : null;
          deletions.push({ id, at: built && built <= startedAt ? built : startedAt });
        } else seen.push(w); // listed meanwhile, or outside the list's view: still Coder's
      }),
    );
    // Coder answers 404 for a workspace the token may not read, as for one it never had: a token that reads only
    // some workspaces would have every other one marked deleted. Most of the fleet gone at once is refused.
    const known = unlisted.length + listed.length;
    if (deletions.length > MAX_DELETED_AT_ONCE && deletions.length * 2 > known) {
      throw new Error(
        `Coder no longer shows ${deletions.length} of the ${known} workspaces known here; none was marked deleted. Does CODER_SESSION_TOKEN belong to a user who can read every workspace (a Template Admin or an Owner; an Auditor cannot)?`,
      );
    }
    Object.assign(counts, await applyCoderSync(db, seen, deletions, startedAt));
  } catch (err) {
    error = (err as Error).message || String(err);
  }
  const finishedAt = now();
  try {
    await recordSyncState(db, { startedAt, finishedAt, counts, error });
  } catch (err) {
    error ??= `could not record the sync: ${(err as Error).message}`;
  }
  // For /metrics: the errors counted, and the time of the last sync that went through (alerts read both).
  if (error) recordSyncError();
  else recordSyncSuccess(finishedAt);
  return { ...counts, error, startedAt: startedAt.toISOString(), finishedAt: finishedAt.toISOString() };
}

const globalForSync = globalThis as unknown as {
  __coderSync?: ReturnType<typeof setInterval>;
  __coderSyncRunning?: Promise<SyncOutcome>;
};

/**
 * The sync of this process: a sync already under way (the scheduler's, or another request's) is joined rather
 * than started twice.
 */
export function syncOnce(db: Db, config: Pick<CoderSyncConfig, "url" | "token">): Promise<SyncOutcome> {
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
