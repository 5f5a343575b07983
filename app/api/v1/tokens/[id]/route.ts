import { requireCaller } from "@/lib/auth/access";
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** DELETE /api/v1/tokens/{id} → { token } (admin): revoked at once. */
export const DELETE = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, who } = await requireCaller(request, "admin");
  const { id } = await params;
  return json({ token: await revokeApiToken(db, id, who) });
});
