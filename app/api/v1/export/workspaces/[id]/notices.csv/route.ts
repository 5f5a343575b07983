import { exportResponse } from "@/lib/export/response";
import { workspaceNoticesExport } from "@/lib/export/notifications";
import { handle } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** GET /api/v1/export/workspaces/{id}/notices.csv → the workspace's notices of the last 30 days (its Notices panel). */
export const GET = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  return exportResponse(request, async (db, scope) => workspaceNoticesExport(db, scope, (await params).id), "member");
});
