import { requireCaller } from "@/lib/auth/access";
import { config } from "@/lib/config";
import { getWorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { NotFoundError } from "@/lib/errors";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";
import { workspaceDetailQuery } from "@/lib/validations/workspaces";

export const dynamic = "force-dynamic";

/** GET /api/v1/workspaces/{id}?range=&from=&to=&reports= → WorkspaceDetail, 404 when unknown */
export const GET = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller } = await requireCaller(request, "member");
  const q = readQuery(request, workspaceDetailQuery);
  const { id } = await params;
  const detail = await getWorkspaceDetail(db, caller.scope, id, { ...q, coderUrl: config().coder.url });
  if (!detail) throw new NotFoundError(`Workspace ${id} is not enrolled.`);
  return json(detail);
});
