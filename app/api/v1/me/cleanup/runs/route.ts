import { requireOwner } from "@/lib/auth/access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { ownerRun } from "@/lib/services/owner-cleanup";
import { ownerRunRequestBody } from "@/lib/validations/owners";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/me/cleanup/runs { workspaceId, recipe, confirmBytes } → 201 { id, jobs }: the owner's run, to the
 * trash, bound to the preview they saw. 404 for a workspace not theirs, 422 for a recipe not marked for owners,
 * 409 when the preview moved by over 10 %.
 */
export const POST = handle(async (request) => {
  const { db, who, owner } = await requireOwner(request);
  const body = await readJson(request, ownerRunRequestBody, 16 * 1024);
  return json(await ownerRun({ db, who, owner }, body), { status: 201 });
});
