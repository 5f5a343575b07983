import { auditActor, requireCaller } from "@/lib/auth/access";
import { runPolicy } from "@/lib/db/queries/cleanup-policies";
import { handle, json } from "@/lib/http/response";
import { idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** POST /api/v1/cleanup/policies/{id}/run → 201 { id, jobs }: the policy's run, queued now. Admin. */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const id = idParam((await params).id, "cleanup policy");
  return json(await runPolicy(db, id, { actor: auditActor(caller), ip, userAgent }), { status: 201 });
});
