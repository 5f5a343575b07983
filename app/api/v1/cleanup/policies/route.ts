import { auditActor, requireCaller } from "@/lib/auth/access";
import { createPolicy, listPolicies, type Policy } from "@/lib/services/cleanup-policies";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { createPolicyRequest } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** GET /api/v1/cleanup/policies → { policies } with each one's next run time. */
export const GET = handle(async (request) => {
  const { db } = await requireCaller(request, "viewer");
  return json<{ policies: Policy[] }>({ policies: await listPolicies(db) });
});

/** POST /api/v1/cleanup/policies (run request + name, schedule, enabled, expiresDays) → 201 { policy }. Admin. */
export const POST = handle(async (request) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const body = await readJson(request, createPolicyRequest, 1024 * 1024);
  return json({ policy: await createPolicy(db, body, { actor: auditActor(caller), ip, userAgent }) }, { status: 201 });
});
