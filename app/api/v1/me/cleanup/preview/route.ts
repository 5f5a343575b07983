import { requireOwner } from "@/lib/auth/access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { ownerPreview } from "@/lib/services/owner-cleanup";
import { ownerPreviewRequest } from "@/lib/validations/owners";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/me/cleanup/preview { workspaceId, recipe } → OwnerPreview: what the owner's run would move to the
 * trash. 404 for a workspace not theirs, 422 for a recipe not marked for owners.
 */
export const POST = handle(async (request) => {
  const { db, who, owner } = await requireOwner(request);
  const body = await readJson(request, ownerPreviewRequest, 16 * 1024);
  return json(await ownerPreview({ db, who, owner }, body.workspaceId, body.recipe));
});
