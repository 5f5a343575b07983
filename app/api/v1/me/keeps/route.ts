import { requireOwner } from "@/lib/auth/access";
import { readJson } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { addKeep } from "@/lib/services/owner-cleanup";
import { keepRequest } from "@/lib/validations/owners";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/me/keeps { workspaceId, path, days } → 201 { id, path, expiresAt }: no cleanup acts on the path for
 * 1–14 days. 404 for a workspace not theirs, 422 for more days or a path outside the workspace's roots.
 */
export const POST = handle(async (request) => {
  const { db, who, owner } = await requireOwner(request);
  const body = await readJson(request, keepRequest, 16 * 1024);
  return json(await addKeep({ db, who, owner }, body), { status: 201 });
});
