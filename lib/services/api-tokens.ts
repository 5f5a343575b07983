import "server-only";
import { listApiTokens, type ApiTokenInfo } from "@/lib/auth/api-tokens";
import { getAuth } from "@/lib/auth/server";
import { tokenPermissions } from "@/lib/auth/token-role";
import type { Who } from "@/lib/db/queries/audit";
import { revokeLiveToken } from "@/lib/db/queries/owned-tokens";
import type { Db } from "@/lib/db/types";
import { NotFoundError, ValidationError } from "@/lib/errors";
import type { CreateTokenRequest } from "@/lib/validations/auth";
import { withTransaction } from "./transaction";

/** Creates a dashboard API token owned by `ownerId`; the token is returned this once, only its hash is kept. */
export function createApiToken(
  db: Db,
  ownerId: string,
  req: CreateTokenRequest,
  who: Who,
): Promise<{ token: string; info: ApiTokenInfo }> {
  return withTransaction({ db, who }, async ({ tx, audit }) => {
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
    await audit({
      action: "token.created",
      target: info.name,
      details: { id: info.id, role: info.role, expiresAt: info.expiresAt },
    });
    return { token: created.key, info };
  });
}

/** Revokes a token at once; the row stays (disabled) so that the list and the audit log can name it. */
export function revokeApiToken(db: Db, id: string, who: Who): Promise<ApiTokenInfo> {
  return withTransaction({ db, who }, async ({ tx, audit }) => {
    const updated = await revokeLiveToken(tx, id);
    const info = (await listApiTokens(tx)).find((t) => t.id === id);
    if (!info) throw new NotFoundError(`No API token ${id}.`);
    if (!updated.length && !info.revoked) throw new ValidationError(`API token ${id} could not be revoked.`);
    await audit({ action: "token.revoked", target: info.name, details: { id } });
    return info;
  });
}
