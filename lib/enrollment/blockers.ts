import "server-only";
import { and, count, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { coderSyncState, reportBlockers, workspaces, workspaceTokens } from "@/lib/db/schema";
import { ConflictError, ForbiddenError } from "@/lib/errors";
import { KEY_BLOCKERS, type ReportBlockerRequest } from "@/lib/report-format/blockers";
import { authenticateWorkspace, checkEnrollmentKeyFrom } from "./workspaces";

/**
 * Who may say why a workspace cannot report, checked before the body is read: the holder of the enrollment key
 * (a workspace that never enrolled; wrong keys count against `address`), or a workspace's token (one that did,
 * and then lost its runtime); null for the key, else the token's workspace.
 */
export async function authenticateBlocker(
  db: Db,
  presentedKey: string | null,
  token: string | null,
  address: string | null,
): Promise<string | null> {
  if (token) return authenticateWorkspace(db, token);
  await checkEnrollmentKeyFrom(db, presentedKey, address);
  return null;
}

/**
 * Keeps the reason under the workspace's id, replacing the last one. Enrolls nothing and issues no token. With
 * the key alone (`tokenWorkspace` null), anyone holding the fleet's key could write it for any id, so it is
 * refused for an id that has a token (that workspace uses its token) and, once Coder's sync has run, for an id
 * Coder did not list; and such rows are capped in number and expire (KEY_BLOCKERS).
 */
export async function recordBlocker(db: Db, tokenWorkspace: string | null, body: ReportBlockerRequest): Promise<void> {
  const { workspace } = body;
  if (tokenWorkspace !== null && tokenWorkspace !== workspace.id) {
    throw new ForbiddenError(`This token belongs to workspace ${tokenWorkspace}, not ${workspace.id}.`);
  }
  const byKey = tokenWorkspace === null;
  const row = {
    name: workspace.name,
    owner: workspace.owner,
    template: workspace.template ?? null,
    reason: body.reason,
    detail: body.detail,
    moduleVersion: body.moduleVersion ?? null,
    byKey,
  };
  await db.transaction(async (tx) => {
    if (byKey) await checkKeyBlocker(tx, workspace.id);
    await tx
      .insert(reportBlockers)
      .values({ workspaceId: workspace.id, ...row })
      .onConflictDoUpdate({ target: reportBlockers.workspaceId, set: { ...row, reportedAt: sql`now()` } });
  });
}

/** Whether a reason given with the key alone may be kept for `id`; drops the expired ones first. */
async function checkKeyBlocker(db: Db, id: string): Promise<void> {
  const [token] = await db
    .select({ id: workspaceTokens.workspaceId })
    .from(workspaceTokens)
    .where(eq(workspaceTokens.workspaceId, id));
  if (token) {
    throw new ForbiddenError(`Workspace ${id} is enrolled: send its token (Authorization: Bearer), not the key.`);
  }
  const [synced] = await db
    .select({ id: coderSyncState.id })
    .from(coderSyncState)
    .where(isNotNull(coderSyncState.succeededAt));
  if (synced) {
    const [known] = await db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.id, id), isNotNull(workspaces.coderSyncedAt), isNull(workspaces.deletedAt)));
    if (!known) throw new ForbiddenError(`Coder's last workspace sync did not list workspace ${id}.`);
  }
  await db
    .delete(reportBlockers)
    .where(
      and(
        eq(reportBlockers.byKey, true),
        lt(reportBlockers.reportedAt, sql`now() - make_interval(days => ${KEY_BLOCKERS.days})`),
      ),
    );
  const [kept] = await db
    .select({ n: count(), mine: sql<number>`count(*) filter (where ${reportBlockers.workspaceId} = ${id})` })
    .from(reportBlockers)
    .where(eq(reportBlockers.byKey, true));
  if (Number(kept.n) >= KEY_BLOCKERS.max && Number(kept.mine) === 0) {
    throw new ConflictError(
      `The dashboard keeps at most ${KEY_BLOCKERS.max} reasons given with the enrollment key, each for ` +
        `${KEY_BLOCKERS.days} days; send this one with the workspace's token, or later.`,
    );
  }
}
