import { auditActor, requireCaller } from "@/lib/auth/access";
import { queueTrashPurge } from "@/lib/services/cleanup-runs";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { purgeTrashRequest } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/** POST /api/v1/cleanup/trash/purge { workspaceIds } → 201 { id, jobs }: empty those workspaces' trash now. Admin. */
export const POST = handle(async (request) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const { workspaceIds } = await readJson(request, purgeTrashRequest, 1024 * 1024);
  return json(await queueTrashPurge(db, workspaceIds, { actor: auditActor(caller), ip, userAgent }), { status: 201 });
});
