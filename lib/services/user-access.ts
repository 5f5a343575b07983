import "server-only";
import { getAuth } from "@/lib/auth/server";
import { getUser, type UserInfo } from "@/lib/auth/users";
import type { Who } from "@/lib/db/queries/audit";
import { activeAdmins, lockAdminChanges, setUserAccess } from "@/lib/db/queries/user-access";
import type { Db } from "@/lib/db/types";
import { ConflictError, ForbiddenError } from "@/lib/errors";
import type { UpdateUserRequest } from "@/lib/validations/auth";
import { fitTokensToOwner } from "@/lib/auth/owned-tokens";
import { withTransaction } from "./transaction";

/**
 * Changes a user's role and/or disables or enables it, `by` a user (the one signed in, or the owner of the token
 * used; null for the system), never themselves. A disabled user's sessions end at once, and their API tokens in
 * the same transaction; a demoted user's tokens are capped to the new role. The last active admin can be
 * neither demoted nor disabled (the check and the change run under one lock).
 */
export async function updateUser(
  db: Db,
  id: string,
  req: UpdateUserRequest,
  who: Who,
  by: string | null,
): Promise<UserInfo> {
  // Else an admin could lift their own disabling, or a stolen session keep itself out of reach.
  if (by === id) throw new ForbiddenError("Nobody changes their own role or disabled flag: ask another admin.");
  const after = await withTransaction({ db, who }, async (change) => {
    const { tx, audit } = change;
    await lockAdminChanges(tx);
    const before = await getUser(tx, id);
    const losesAdmin = before.role === "admin" && !before.disabled && (req.role === "viewer" || req.disabled === true);
    if (losesAdmin && (await activeAdmins(tx, id)) === 0) {
      throw new ConflictError("This is the last active admin: make another user admin first.");
    }
    await setUserAccess(tx, id, req);
    const after = await getUser(tx, id);
    if (before.role !== after.role) {
      await audit({
        action: "user.role_changed",
        target: after.email,
        details: { from: before.role, to: after.role },
      });
    }
    if (before.disabled !== after.disabled) {
      await audit({ action: after.disabled ? "user.disabled" : "user.enabled", target: after.email });
    }
    await fitTokensToOwner(change, after);
    return after;
  });
  if (req.disabled) {
    const auth = await getAuth(db);
    const ctx = await auth.$context;
    await ctx.internalAdapter.deleteUserSessions(id);
  }
  return after;
}
