import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { reportBlockers } from "@/lib/db/schema";
import { ForbiddenError } from "@/lib/errors";
import type { ReportBlockerRequest } from "@/lib/report-format/blockers";
import { authenticateWorkspace, checkEnrollmentKey } from "./workspaces";

/**
 * Who may say why a workspace cannot report, checked before the body is read: the holder of the enrollment key
 * (a workspace that never enrolled), or a workspace's token (one that did, and then lost its runtime); null for
 * the key, else the token's workspace.
 */
export async function authenticateBlocker(
  db: Db,
  presentedKey: string | null,
  token: string | null,
): Promise<string | null> {
  if (token) return authenticateWorkspace(db, token);
  await checkEnrollmentKey(db, presentedKey);
  return null;
}

/** Keeps the reason under the workspace's id, replacing the last one. Enrolls nothing and issues no token. */
export async function recordBlocker(db: Db, tokenWorkspace: string | null, body: ReportBlockerRequest): Promise<void> {
  const { workspace } = body;
  if (tokenWorkspace !== null && tokenWorkspace !== workspace.id) {
    throw new ForbiddenError(`This token belongs to workspace ${tokenWorkspace}, not ${workspace.id}.`);
  }
  const row = {
    name: workspace.name,
    owner: workspace.owner,
    template: workspace.template ?? null,
    reason: body.reason,
    detail: body.detail,
    moduleVersion: body.moduleVersion ?? null,
  };
  await db
    .insert(reportBlockers)
    .values({ workspaceId: workspace.id, ...row })
    .onConflictDoUpdate({ target: reportBlockers.workspaceId, set: { ...row, reportedAt: sql`now()` } });
}
