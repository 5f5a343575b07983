import { requireOwner } from "@/lib/auth/access";
import { handle, json } from "@/lib/http/response";
import { endKeep } from "@/lib/services/owner-cleanup";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** DELETE /api/v1/me/keeps/{id} → { id, ended }: the owner ends their own Keep; 404 for another's. */
export const DELETE = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, who, owner } = await requireOwner(request);
  const id = idParam((await params).id, "Keep");
  return json(await endKeep({ db, who, owner }, id, false));
});
