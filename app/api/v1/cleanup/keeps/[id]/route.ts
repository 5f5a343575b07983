import { requireCaller } from "@/lib/auth/access";
import { handle, json } from "@/lib/http/response";
import { endKeep } from "@/lib/services/owner-cleanup";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** DELETE /api/v1/cleanup/keeps/{id} → { id, ended }: an admin ends anyone's Keep (audited). Admin. */
export const DELETE = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, who } = await requireCaller(request, "admin");
  const id = idParam((await params).id, "Keep");
  return json(await endKeep({ db, who, owner: null }, id, true));
});
