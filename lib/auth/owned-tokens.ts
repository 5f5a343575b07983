import "server-only";
import type { Db } from "@/lib/db/types";
import { tokenPermissions, tokenRole } from "./token-role";
import { liveTokensOf, revokeTokens, setTokensPermissions } from "@/lib/db/queries/owned-tokens";
import { hasRole, type Role } from "@/lib/validations/auth";

type Owner = { id: string; email: string; role: Role; disabled: boolean };
type AuditNote = { action: string; target: string; details: Record<string, unknown> };
/** The transaction that changed the owner, and its audit writer (a service's Change, or Better Auth's hook). */
type OwnerChange = { tx: Db; audit: (note: AuditNote) => Promise<void> };

/**
 * Brings a user's API tokens within the user's rights as they are now, in the transaction that changed them, with
 * an audit entry per token: a disabled user's tokens end (and a member's: a token owns no workspaces); a token
 * above the user's role is capped to it. (Verification caps them too: this keeps the list and the log true.)
 */
export async function fitTokensToOwner({ tx, audit }: OwnerChange, owner: Owner): Promise<void> {
  const tokens = await liveTokensOf(tx, owner.id);
  const reason = owner.disabled ? "owner disabled" : `owner is a ${owner.role}`;
  if (owner.disabled || owner.role === "member") {
    await revokeTokens(
      tx,
      tokens.map((t) => t.id),
    );
    for (const t of tokens) {
      await audit({ action: "token.revoked", target: t.name, details: { id: t.id, reason } });
    }
    return;
  }
  const to = owner.role;
  const above = tokens.filter((t) => !hasRole(to, tokenRole(t.permissions) ?? "member"));
  await setTokensPermissions(
    tx,
    above.map((t) => t.id),
    JSON.stringify(tokenPermissions(to)),
  );
  for (const t of above) {
    await audit({
      action: "token.capped",
      target: t.name,
      details: { id: t.id, from: tokenRole(t.permissions), to, reason },
    });
  }
}
