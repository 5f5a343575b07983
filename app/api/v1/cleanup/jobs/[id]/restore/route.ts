import { auditActor, requireCaller } from "@/lib/auth/access";
import { queueRestore } from "@/lib/services/cleanup-runs";
import { handle, json } from "@/lib/http/response";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** POST /api/v1/cleanup/jobs/{id}/restore → 201 { id, jobs }: a restore job for the job's workspace (only a job that trashed). Admin. */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const id = idParam((await params).id, "cleanup job");
  return json(await queueRestore(db, id, { actor: auditActor(caller), ip, userAgent }), { status: 201 });
});
