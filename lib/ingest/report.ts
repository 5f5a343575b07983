import "server-only";
import type { Db } from "@/lib/db";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import { ingestQueueFor } from "@/lib/ingest/queue";
import type { Report } from "@/lib/report-format/schema";
import { keepReportedEmail } from "@/lib/services/owner-emails";

export type IngestResult = {
  reportId: string;
  workspaceId: string;
  /** "duplicate": this id was stored before; nothing changed. */
  status: "stored" | "duplicate";
  /** False when a newer report of the workspace was already stored (the report still enters history). */
  newest: boolean;
  roots: number;
};

/**
 * Stores one report atomically: history, latest, daily and fleet roll-ups, and the workspace's summary. Reports
 * that arrive together are committed together (lib/ingest/queue.ts); this resolves once the report is stored.
 * The report's id makes it idempotent: a second delivery changes nothing and says "duplicate".
 */
export async function ingestReport(
  db: Db,
  authenticatedWorkspaceId: string,
  r: Report,
  receivedAt = new Date(),
): Promise<IngestResult> {
  const ws = r.workspace.id;
  if (ws !== authenticatedWorkspaceId) {
    throw new ForbiddenError(`This token belongs to workspace ${authenticatedWorkspaceId}, not ${ws}.`);
  }
  const outcome = await ingestQueueFor(db).submit({ report: r, receivedAt });
  const base = { reportId: r.id, workspaceId: ws, roots: r.roots.length };
  switch (outcome) {
    case "not_enrolled":
      throw new NotFoundError(`Workspace ${ws} is not enrolled.`);
    case "conflict":
      throw new ConflictError(`Report id ${r.id} was already used by another workspace.`);
    case "too_old":
      // Its neighbours in raw history have expired: placing it would corrupt the roll-ups (docs/history.md).
      throw new ValidationError(
        `Report ${r.id} was collected at ${r.collectedAt}, before the raw history this dashboard still keeps ` +
          `(older reports expire under the raw retention setting); it was not stored.`,
        { path: ["collectedAt"] },
        "too_old",
      );
    case "duplicate":
      return { ...base, status: "duplicate", newest: false };
    default:
      if (outcome === "stored") await keepOwnerEmail(db, r, receivedAt);
      return { ...base, status: "stored", newest: outcome === "stored" };
  }
}

/** The newest report's owner address, kept for the notices; the report is stored whatever becomes of it. */
async function keepOwnerEmail(db: Db, r: Report, at: Date): Promise<void> {
  await keepReportedEmail(db, r.workspace.owner, r.workspace.ownerEmail, at).catch((err) =>
    console.error(`[notify] keeping ${r.workspace.owner}'s address failed: ${(err as Error).message}`),
  );
}
