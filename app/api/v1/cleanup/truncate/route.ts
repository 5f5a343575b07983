import { auditActor, requireCaller } from "@/lib/auth/access";
import { queueTruncate } from "@/lib/services/cleanup-truncate";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { truncateRequest } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/cleanup/truncate { workspaceId, rootKey, path, confirmBytes } → 201 { id, jobs }: empty one log
 * file of the workspace's latest report (never a database). Admin.
 */
export const POST = handle(async (request) => {
  const { db, caller, ip, userAgent } = await requireCaller(request, "admin");
  const body = await readJson(request, truncateRequest, 16 * 1024);
  return json(await queueTruncate(db, body, { actor: auditActor(caller), ip, userAgent }), { status: 201 });
});
