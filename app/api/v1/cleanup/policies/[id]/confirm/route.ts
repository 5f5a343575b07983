import { auditActor, requireCaller } from "@/lib/auth/access";
import { confirmPolicy, type Policy } from "@/lib/services/cleanup-policies";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { confirmPolicyRequest, idParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/cleanup/policies/{id}/confirm { confirmBytes } → { policy }: the admin confirms the figure the
 * policy's preview shows; its scheduled runs act from then on (409 when the preview moved since). Admin.
 */
export const POST = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const id = idParam((await params).id, "cleanup policy");
  const { confirmBytes } = await readJson(request, confirmPolicyRequest, 1024);
  return json<{ policy: Policy }>({
    policy: await confirmPolicy(db, id, confirmBytes, { actor: auditActor(caller), ip, userAgent }),
  });
});
