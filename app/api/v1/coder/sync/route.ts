import { requireCaller } from "@/lib/auth/access";
import { coderSyncConfig } from "@/lib/coder/config";
import { syncOnce, type SyncOutcome } from "@/lib/services/coder-sync";
import { AppError, ConflictError } from "@/lib/errors";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/coder/sync → the sync's counts `{ listed, added, updated, deleted, jobsCancelled, unverified,
 * startedAt, finishedAt, error: null }`, once it is done (a sync under way is joined). Admin only. 409 when CODER_URL or
 * CODER_SESSION_TOKEN is unset; 502 with the counts in `details` when Coder could not be read (the error is also
 * kept as the last sync's, which the pages show).
 */
export const POST = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  const config = coderSyncConfig();
  if (!config) throw new ConflictError("The Coder sync is not configured: set CODER_URL and CODER_SESSION_TOKEN.");
  const outcome = await syncOnce(db, config);
  if (outcome.error)
    throw new AppError(502, "coder_sync_failed", `The sync from Coder failed: ${outcome.error}`, outcome);
  return json<SyncOutcome>(outcome);
});
