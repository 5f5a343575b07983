import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { apiKeys } from "../schema";
import type { Db } from "../types";

// The API tokens a user owns (Better Auth's API keys, referenceId), as their owner's rights change.

export type OwnedToken = { id: string; name: string; permissions: string | null };

/** The user's tokens not revoked. */
export async function liveTokensOf(db: Db, userId: string): Promise<OwnedToken[]> {
  const rows = await db
    .select({ id: apiKeys.id, name: apiKeys.name, permissions: apiKeys.permissions })
    .from(apiKeys)
    .where(and(eq(apiKeys.referenceId, userId), eq(apiKeys.enabled, true)));
  return rows.map((r) => ({ ...r, name: r.name ?? r.id }));
}

/** Revokes tokens: the rows stay, disabled, so that the list and the audit log can name them. */
export async function revokeTokens(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.update(apiKeys).set({ enabled: false, updatedAt: new Date() }).where(inArray(apiKeys.id, ids));
}

/** Sets tokens' permissions (the JSON Better Auth's API-key plugin keeps). */
export async function setTokensPermissions(db: Db, ids: string[], permissions: string): Promise<void> {
  if (!ids.length) return;
  await db.update(apiKeys).set({ permissions, updatedAt: new Date() }).where(inArray(apiKeys.id, ids));
}

/** Revokes one token if it is live; the ids revoked (none when it was revoked already, or is unknown). */
export function revokeLiveToken(db: Db, id: string) {
  return db
    .update(apiKeys)
    .set({ enabled: false, updatedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.enabled, true)))
    .returning({ id: apiKeys.id });
}
