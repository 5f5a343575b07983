import { requireAdmin } from "@/lib/auth/admin";
import { getDb } from "@/lib/db";
import { resetWorkspaceToken } from "@/lib/enrollment";
import { NotFoundError } from "@/lib/errors";
import { handle, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

/** Admin reset: the workspace's token stops working and the workspace may enroll again with the fleet key. */
export const DELETE = handle(async (request, { params }: { params: Promise<{ id: string }> }) => {
  requireAdmin(request);
  const { id } = await params;
  if (!(await resetWorkspaceToken(await getDb(), id))) throw new NotFoundError(`Workspace ${id} has no token.`);
  return json({ workspaceId: id, reset: true });
});
