import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db";
import { noteWrite } from "@/lib/db/maintenance";
import { callIngestReport } from "@/lib/db/queries/ingest";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import type { Report } from "@/lib/report/schema";

export type IngestResult = {
  reportId: string;
  workspaceId: string;
  /** "duplicate": this id was stored before; nothing changed. */
  status: "stored" | "duplicate";
  /** False when a newer report of the workspace was already stored (the report still enters history). */
  newest: boolean;
  roots: number;
};

/** The fleet roll-up's rows are spread over this many shards so concurrent ingests rarely wait on one row. */
export const FLEET_SHARDS = 8;

function shardOf(workspaceId: string): number {
  return createHash("sha1").update(workspaceId).digest()[0] % FLEET_SHARDS;
}

/**
 * Stores one report atomically: history, latest, daily and fleet roll-ups, and the workspace's summary.
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
  const outcome = await callIngestReport(db, r, receivedAt, shardOf(ws));
  await noteWrite(db);
  const base = { reportId: r.id, workspaceId: ws, roots: r.roots.length };
  switch (outcome) {
    case "not_enrolled":
      throw new NotFoundError(`Workspace ${ws} is not enrolled.`);
    case "conflict":
      throw new ConflictError(`Report id ${r.id} was already used by another workspace.`);
    case "duplicate":
      return { ...base, status: "duplicate", newest: false };
    default:
      return { ...base, status: "stored", newest: outcome === "stored" };
  }
}
