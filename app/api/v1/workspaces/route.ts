import { getDb } from "@/lib/db";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { workspaceListQuery } from "@/lib/validations/workspaces";
import { readQuery } from "@/lib/http/request";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/workspaces?q=&owner=&template=&agent=&sort=&dir=&page=&pageSize= → WorkspaceList */
export const GET = handle(async (request) => {
  const params = readQuery(request, workspaceListQuery);
  return json(await listWorkspaces(await getDb(), params));
});
