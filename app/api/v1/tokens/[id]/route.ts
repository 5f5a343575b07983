import { requireCaller } from "@/lib/auth/access";
import { handle, json } from "@/lib/http/response";
import { revokeApiToken } from "@/lib/services/api-tokens";

export const dynamic = "force-dynamic";

/** DELETE /api/v1/tokens/{id} → { token } (admin): revoked at once. */
export const DELETE = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, who } = await requireCaller(request, "admin");
  const { id } = await params;
  return json({ token: await revokeApiToken(db, id, who) });
});
