import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { apiKeys, users } from "@/lib/db/schema";
import { lowerRole, type Role } from "@/lib/validations/auth";
import { scopeOf, type Caller } from "./caller";
import { API_TOKEN_PREFIX, getAuth } from "./server";
import { activeOwner } from "./token-owner";
import { tokenRole } from "./token-role";

// Dashboard API tokens for scripts, through Better Auth's API-key plugin: it generates the key, stores only
// its hash and checks expiry and revocation. The token's role lives in the key's permissions
// ({ dashboard: [role] }); it is set only server-side (lib/services/api-tokens.ts). The creating admin owns the key (referenceId), and the
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
