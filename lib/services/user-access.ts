import "server-only";
import { getAuth } from "@/lib/auth/server";
import { getUser, type UserInfo } from "@/lib/auth/users";
import { recordAudit, type Who } from "@/lib/db/queries/audit";
import { activeAdmins, lockAdminChanges, setUserAccess } from "@/lib/db/queries/user-access";
import type { Db } from "@/lib/db/types";
import { ConflictError } from "@/lib/errors";
import type { UpdateUserRequest } from "@/lib/validations/auth";

/**
 * Changes a user's role and/or disables or enables it. A disabled user's sessions end at once. The last
 * active admin can be neither demoted nor disabled (the check and the change run under one lock).
 */
export async function updateUser(db: Db, id: string, req: UpdateUserRequest, who: Who): Promise<UserInfo> {
  const after = await db.transaction(async (tx) => {
    await lockAdminChanges(tx);
    const before = await getUser(tx, id);
    const losesAdmin = before.role === "admin" && !before.disabled && (req.role === "viewer" || req.disabled === true);
    if (losesAdmin && (await activeAdmins(tx, id)) === 0) {
      throw new ConflictError("This is the last active admin: make another user admin first.");
    }
    await setUserAccess(tx, id, req);
    const after = await getUser(tx, id);
    if (before.role !== after.role) {
      await recordAudit(tx, {
        ...who,
        action: "user.role_changed",
        target: after.email,
        details: { from: before.role, to: after.role },
      });
    }
    if (before.disabled !== after.disabled) {
      await recordAudit(tx, { ...who, action: after.disabled ? "user.disabled" : "user.enabled", target: after.email });
    }
    return after;
  });
  if (req.disabled) {
    const auth = await getAuth(db);
    const ctx = await auth.$context;
    await ctx.internalAdapter.deleteUserSessions(id);
  }
  return after;
}
