import { requireCaller } from "@/lib/auth/access";
import { handle, json } from "@/lib/http/response";
import { workspaceNotices, type WorkspaceNotice } from "@/lib/services/notification-log";

export const dynamic = "force-dynamic";

/** GET /api/v1/workspaces/{id}/notices → { notices }: its owner's notices of the last 30 days; 404 outside the scope. */
export const GET = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { db, caller } = await requireCaller(request, "member");
  const { id } = await params;
  return json<{ notices: WorkspaceNotice[] }>({ notices: await workspaceNotices(db, caller.scope, id) });
});
