import { requireCaller } from "@/lib/auth/access";
import { config } from "@/lib/config";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { workspaceListQuery } from "@/lib/validations/workspaces";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/workspaces?q=&owner=&template=&agent=&sort=&dir=&page=&pageSize= → WorkspaceList */
export const GET = handle(async (request) => {
  const { db, caller } = await requireCaller(request, "member");
  const params = readQuery(request, workspaceListQuery);
  return json(await listWorkspaces(db, caller.scope, { ...params, coderUrl: config().coder.url }));
});
