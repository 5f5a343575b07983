import { auditActor, requireCaller } from "@/lib/auth/access";
import { updateUser } from "@/lib/auth/users";
import { recordAudit } from "@/lib/db/queries/audit";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { updateUserRequest } from "@/lib/validations/auth";

export const dynamic = "force-dynamic";

/** PATCH /api/v1/users/{id} { role?, disabled? } → { user } (admin). 409 for the last active admin. */
export const PATCH = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const body = await readJson(request, updateUserRequest, 4 * 1024);
  const { id } = await params;
  const { before, after } = await updateUser(db, id, body);
  const actor = auditActor(caller);
  if (before.role !== after.role) {
    await recordAudit(db, { actor, action: "user.role_changed", target: after.email, details: { from: before.role, to: after.role }, ip, userAgent });
  }
  if (before.disabled !== after.disabled) {
    await recordAudit(db, { actor, action: after.disabled ? "user.disabled" : "user.enabled", target: after.email, ip, userAgent });
  }
  return json({ user: after });
});
