import { requireOwner } from "@/lib/auth/access";
import { handle, json } from "@/lib/http/response";
import { ownerRestore } from "@/lib/services/owner-cleanup";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/me/cleanup/jobs/{id}/restore → 201 { id, jobs }: the owner brings back what a job moved to the trash
 * on their workspace. 404 for another's job, 409 once its trash was emptied.
 */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, who, owner } = await requireOwner(request);
  const id = idParam((await params).id, "cleanup job");
  return json(await ownerRestore({ db, who, owner }, id), { status: 201 });
});
