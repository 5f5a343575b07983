import { requireCaller } from "@/lib/auth/access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { freeSpacePreview, type FreeSpacePreview } from "@/lib/services/free-space";
import { freeSpaceRequest } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/cleanup/preview/free-space { workspaceId } → FreeSpacePreview: every recipe's preview on that
 * workspace (with its defaults and at the minimum age) and what its trash holds, in one answer. Admin. 409
 * `workspace_deleted` for a workspace deleted in Coder. A preview changes nothing and is not audited.
 */
export const POST = handle(async (request) => {
  const { db } = await requireCaller(request, "admin");
  const { workspaceId } = await readJson(request, freeSpaceRequest, 4096);
  return json<FreeSpacePreview>(await freeSpacePreview(db, workspaceId));
});
