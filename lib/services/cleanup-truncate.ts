import "server-only";
import { movedSince } from "@/lib/cleanup/confirmation";
import { truncateRefusal } from "@/lib/catalog/truncatable";
import { DEFAULT_EXPIRES_DAYS } from "@/lib/cleanup/types";
import type { Who } from "@/lib/db/queries/audit";
import { refuseDeletedWorkspaces } from "@/lib/db/queries/cleanup-deleted";
import { knownWorkspaceIds } from "@/lib/db/queries/cleanup-runs";
import { storeRun } from "./run-store";
import { reportedFile } from "@/lib/db/queries/cleanup-truncate";
import type { Db } from "@/lib/db/types";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { formatBytes } from "@/lib/format/bytes";
import type { TruncateRequest } from "@/lib/validations/cleanup";

/**
 * Queues the truncation of one log file an admin saw and confirmed: a run of kind "truncate" with one job for
 * the workspace, which its reporter claims like any other. Only a log (never a database) that the workspace's
 * latest report lists as a file, at about the size confirmed (409 when it moved by more than 10 %); anything
 * else is refused before anything is stored.
 */
export async function queueTruncate(db: Db, request: TruncateRequest, who: Who) {
  const { workspaceId, rootKey, path, confirmBytes } = request;
  const refusal = truncateRefusal(path);
  if (refusal) throw new ValidationError(refusal, { path }, "not_truncatable");
  if ((await knownWorkspaceIds(db, [workspaceId])).length === 0)
    throw new NotFoundError(`No workspace ${workspaceId}.`);
  await refuseDeletedWorkspaces(db, [workspaceId]);
  const file = await reportedFile(db, workspaceId, rootKey, path);
  if (!file)
    throw new ValidationError(`The latest report of this workspace lists no file ${path} in ${rootKey}.`, {
      rootKey,
      path,
    });
  // a name that is not UTF-8 is listed escaped: the reporter could not name the same file back
  if (file.escaped) throw new ValidationError(`${path} has a name that is not plain text: truncate it by hand.`);
  if (movedSince(file.bytes, confirmBytes)) {
    throw new ConflictError(
      `The file changed since you saw it: it is now ${formatBytes(file.bytes)} (${file.bytes} bytes), you confirmed ${formatBytes(confirmBytes)}.`,
      { previewBytes: file.bytes, confirmBytes },
    );
  }
  const target = { rootKey, path, bytes: file.bytes };
  return storeRun(
    { db, who },
    {
      kind: "truncate",
      recipe: null,
      target,
      params: null,
      scope: { workspaceIds: [workspaceId] },
      dryRun: false,
      action: "delete",
      trashDays: 1,
      minAgeHours: 1,
      expiresDays: DEFAULT_EXPIRES_DAYS,
      previewBytes: file.bytes,
      previewUnits: 1,
    },
    [{ workspaceId, rootKeys: [rootKey], previewBytes: file.bytes, previewUnits: 1 }],
    { action: "cleanup.truncate_queued", details: { workspaceId, rootKey, path, bytes: file.bytes, confirmBytes } },
  );
}
