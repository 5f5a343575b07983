// access: viewer
import { getDb } from "@/lib/db";
import { workspacesExport } from "@/lib/export/lists";
import { csvResponse } from "@/lib/http/csv";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { workspaceListQuery } from "@/lib/validations/workspaces";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/workspaces.csv?q=&owner=&template=&agent=&sort=&dir= → CSV of the workspaces table, all pages. */
export const GET = handle(async (request) => {
  const q = readQuery(request, workspaceListQuery);
  return csvResponse(workspacesExport(await getDb(), q));
});
