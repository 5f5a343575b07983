import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { recordAudit, type Who } from "@/lib/db/queries/audit";
import type { Db } from "@/lib/db/types";
import { apiKeys, users } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { lowerRole, type CreateTokenRequest, type Role } from "@/lib/validations/auth";
import { scopeOf, type Caller } from "./caller";
import { API_TOKEN_PREFIX, getAuth } from "./server";
import { activeOwner } from "./token-owner";
import { tokenPermissions, tokenRole } from "./token-role";

// Dashboard API tokens for scripts, through Better Auth's API-key plugin: it generates the key, stores only
// its hash and checks expiry and revocation. The token's role lives in the key's permissions
// ({ dashboard: [role] }); it is set only here, server-side. The creating admin owns the key (referenceId), and the
// token acts with at most the owner's current role.

export type ApiTokenInfo = {
  id: string;
  name: string;
  role: Role;
  /** The first characters, to recognise a token; never the token. */
  start: string | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revoked: boolean;
};

export async function createApiToken(
  db: Db,
  ownerId: string,
  req: CreateTokenRequest,
  who: Who,
): Promise<{ token: string; info: ApiTokenInfo }> {
  return db.transaction(async (tx) => {
    // Better Auth on this transaction: the key and the audit entry commit together. No headers: a server-side
    // call, the only kind allowed to set permissions and the owner.
    const auth = await getAuth(tx);
    const created = await auth.api.createApiKey({
      body: {
        name: req.name,
        userId: ownerId,
        permissions: tokenPermissions(req.role),
        expiresIn: req.expiresInDays ? req.expiresInDays * 24 * 60 * 60 : null,
      },
    });
    const info = (await listApiTokens(tx)).find((t) => t.id === created.id);
    if (!info) throw new Error("The new API token was not stored.");
    await recordAudit(tx, {
      ...who,
      action: "token.created",
      target: info.name,
      details: { id: info.id, role: info.role, expiresAt: info.expiresAt },
    });
    return { token: created.key, info };
  });
}

export async function listApiTokens(db: Db): Promise<ApiTokenInfo[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      start: apiKeys.start,
      permissions: apiKeys.permissions,
      enabled: apiKeys.enabled,
      createdAt: apiKeys.createdAt,
      expiresAt: apiKeys.expiresAt,
      lastRequest: apiKeys.lastRequest,
      createdBy: users.email,
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.referenceId))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map((r) => ({
    id: r.id,
    name: r.name ?? "",
    role: tokenRole(r.permissions) ?? "viewer",
    start: r.start,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    lastUsedAt: r.lastRequest?.toISOString() ?? null,
    revoked: r.enabled === false,
  }));
}

/** Revokes a token at once; the row stays (disabled) so that the list and the audit log can name it. */
export async function revokeApiToken(db: Db, id: string, who: Who): Promise<ApiTokenInfo> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(apiKeys)
      .set({ enabled: false, updatedAt: new Date() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.enabled, true)))
      .returning({ id: apiKeys.id });
    const info = (await listApiTokens(tx)).find((t) => t.id === id);
    if (!info) throw new NotFoundError(`No API token ${id}.`);
    if (!updated.length && !info.revoked) throw new ValidationError(`API token ${id} could not be revoked.`);
    await recordAudit(tx, { ...who, action: "token.revoked", target: info.name, details: { id } });
    return info;
  });
}

/**
 * The caller a bearer token stands for, or null: unknown, revoked, expired, not a dashboard token, or its owner
 * disabled.
 */
export async function verifyApiToken(db: Db, token: string): Promise<Caller | null> {
  // Workspace tokens (swt_) and anything else are not dashboard tokens: don't even look them up.
  if (!token.startsWith(API_TOKEN_PREFIX)) return null;
  const auth = await getAuth(db);
  const result = await auth.api.verifyApiKey({ body: { key: token } });
  if (!result.valid || !result.key) return null;
  const role = tokenRole(result.key.permissions as Record<string, string[]> | null);
  // Never above its owner as the owner is now: a disabled (or removed) owner's tokens answer 401.
  const owner = role && (await activeOwner(db, result.key.referenceId));
  if (!owner) return null;
  const effective = lowerRole(role, owner.role);
  return {
    kind: "token",
    id: result.key.id,
    ownerId: owner.id,
    label: result.key.name ?? result.key.id,
    role: effective,
    scope: scopeOf(effective, owner.coderUsername),
  };
}
