import { auditActor, requireCaller } from "@/lib/auth/access";
import { deletePolicy, getPolicy, updatePolicy } from "@/lib/services/cleanup-policies";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { idParam, updatePolicyRequest } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/**
 * GET /api/v1/cleanup/policies/{id} → { policy, preview, lastRun }: the policy (with its confirmation or hold),
 * what its next run would free now, and what its last run freed or, a dry run, would have freed.
 */
export const GET = handle(async (request, { params }: Context) => {
  const { db } = await requireCaller(request, "viewer");
  return json(await getPolicy(db, idParam((await params).id, "cleanup policy")));
});

/** PATCH /api/v1/cleanup/policies/{id} (any policy field) → { policy }. Admin. */
export const PATCH = handle(async (request, { params }: Context) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const body = await readJson(request, updatePolicyRequest, 1024 * 1024);
  const id = idParam((await params).id, "cleanup policy");
  return json({ policy: await updatePolicy(db, id, body, { actor: auditActor(caller), ip, userAgent }) });
});

/** DELETE /api/v1/cleanup/policies/{id} → { deleted: true }. Its past runs stay. Admin. */
export const DELETE = handle(async (request, { params }: Context) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  await deletePolicy(db, idParam((await params).id, "cleanup policy"), { actor: auditActor(caller), ip, userAgent });
  return json({ deleted: true });
});
