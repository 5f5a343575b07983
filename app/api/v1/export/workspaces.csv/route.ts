import { config } from "@/lib/config";
import { exportResponse } from "@/lib/export/response";
import { workspacesExport } from "@/lib/export/lists";
import { readQuery } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { workspaceListQuery } from "@/lib/validations/workspaces";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/workspaces.csv?q=&owner=&template=&agent=&sort=&dir= → CSV of the workspaces table, all pages. */
export const GET = handle(async (request) => {
  return exportResponse(
    request,
    async (db, scope) => {
      const q = readQuery(request, workspaceListQuery);
      return workspacesExport(db, scope, q, { coderUrl: config().coder.url });
    },
    "member",
  );
});
