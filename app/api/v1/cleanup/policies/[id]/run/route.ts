import { auditActor, requireCaller } from "@/lib/auth/access";
import { runPolicy } from "@/lib/services/cleanup-policies";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { confirmPolicyRequest, idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/cleanup/policies/{id}/run { confirmBytes } → 201 { id, jobs }: the policy's run, queued now, for
 * the preview figure the admin saw (409 when it has moved since). Admin.
 */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const id = idParam((await params).id, "cleanup policy");
  const { confirmBytes } = await readJson(request, confirmPolicyRequest, 1024);
  return json(await runPolicy(db, id, confirmBytes, { actor: auditActor(caller), ip, userAgent }), { status: 201 });
});
