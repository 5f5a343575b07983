import { auditActor, requireCaller } from "@/lib/auth/access";
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { recordAudit } from "@/lib/db/queries/audit";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** DELETE /api/v1/tokens/{id} → { token } (admin): revoked at once. */
export const DELETE = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const { id } = await params;
  const info = await revokeApiToken(db, id);
  await recordAudit(db, { actor: auditActor(caller), action: "token.revoked", target: info.name, details: { id }, ip, userAgent });
  return json({ token: info });
});
