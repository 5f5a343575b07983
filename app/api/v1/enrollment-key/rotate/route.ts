import { auditActor, requireCaller } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/queries/audit";
import { rotateEnrollmentKey } from "@/lib/enrollment";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** POST /api/v1/enrollment-key/rotate → { rotated: true } (admin). The new key is shown on the Connect page. */
export const POST = handle(async (request) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  await rotateEnrollmentKey(db);
  await recordAudit(db, { actor: auditActor(caller), action: "enrollment_key.rotated", ip, userAgent });
  return json({ rotated: true });
});
